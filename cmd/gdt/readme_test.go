package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/datasets"
)

// readmeCommands returns the gdt command lines of the first sh block of
// README.md's section heading, comments stripped.
func readmeCommands(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i := strings.Index(text, heading)
	if i < 0 {
		t.Fatalf("README.md has no %q section", heading)
	}
	block := text[i:]
	start := strings.Index(block, "```sh\n")
	end := strings.Index(block[start+6:], "```")
	if start < 0 || end < 0 {
		t.Fatalf("README.md's %q has no sh block", heading)
	}
	var out []string
	for _, l := range strings.Split(block[start+6:start+6+end], "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "gdt ") {
			continue
		}
		if j := strings.Index(l, " #"); j >= 0 {
			l = strings.TrimSpace(l[:j])
		}
		out = append(out, l)
	}
	return out
}

// shellWords splits a command line as sh does for the plain words and
// single-quoted parts README uses.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.ContainsRune(`"\$|&;<>()*?`+"`", r):
			return nil, fmt.Errorf("unsupported shell character %q in %s", r, s)
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unclosed quote in %s", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// readmeSkipped are README commands this test does not run, and why: each
// runs for minutes or hours, blocks (serve), or needs a service or data
// beyond ../shared/data's tabular files. Every other README command runs
// exactly as written.
var readmeSkipped = map[string]string{
	"gdt bench gradtree-binary --models gradtree,cart --trials 10 --out results.csv":                                                                "hours: 10 trials of GradTree on every dataset",
	"gdt bench grande --models grande,random-forest,cart --datasets grande/wdbc":                                                                    "minutes: GRANDE with 2048 trees, 10 trials",
	"gdt bench grande --models grande --set n_estimators=256 --datasets PhishingWebsites":                                                           "minutes: 10 trials on 11 k rows",
	"gdt tune --model grande --dataset grande/wdbc --trials 100 --storage study.jsonl":                                                              "hours: 100 trials",
	"gdt tune --model grande --dataset grande/wdbc --storage postgres://user@host/db --study s1 --join":                                             "needs a PostgreSQL server",
	"gdt bench gradtree-binary --models gradtree --tuned thesis":                                                                                    "hours: every dataset, 10 trials",
	"gdt serve adult.gdt.json ens.json --addr 127.0.0.1:8080":                                                                                       "serves until interrupted (package serve tests the server)",
	"gdt rl train --env CartPole-v1 --method sympol --steps 1000000 --seed 142 --out runs/cp":                                                       "minutes: a million environment steps",
	"gdt rl show runs/cp --format go":                                                                                                               "needs runs/cp of the skipped rl train",
	"gdt rl eval runs/cp --episodes 5":                                                                                                              "needs runs/cp of the skipped rl train",
	"gdt rl eval runs/cp --final":                                                                                                                   "needs runs/cp of the skipped rl train",
	"gdt rl bench --envs CP,LG-5 --methods sympol,mlp,sa-dt-d5 --seeds 5 --out rl.csv --report rl-report/":                                          "hours: 30 trainings of a million steps",
	"gdt tune --model sympol --env CartPole-v1 --seeds 5 --trials 60":                                                                               "hours: 60 trials of 5 trainings",
	"gdt rl train --tuned tuned/sympol__CartPole-v1.json --out runs/cp-tuned":                                                                       "needs the skipped tune's result",
	"gdt export runs/cp --format onnx --out cartpole-policy.onnx":                                                                                   "needs runs/cp of the skipped rl train",
	"gdt train --model multimodal --images ../shared/data/multimodal/ham10000 --data ../shared/data/multimodal/ham10000/ham10000.csv --out mm.json": "minutes: CNN training on 10 k images",
	"gdt predict mm.json --data ../shared/data/multimodal/ham10000/ham10000.csv --out mm-preds.csv":                                                 "needs mm.json of the skipped multimodal train",
	"gdt eval mm.json --data ../shared/data/multimodal/ham10000/ham10000.csv":                                                                       "needs mm.json of the skipped multimodal train",
	"gdt show mm.json": "needs mm.json of the skipped multimodal train",
	"gdt bench multimodal --models cnn,cnn+mlp,cnn+grande": "hours: image models over 10 trials",
	"gdt bench pad-ufes-tabular --models grande,mlp":       "minutes: GRANDE with 2048 trees, 10 trials",
}

// adultCSV writes a small adult-like file: the README's adult.csv (target
// income) and new.csv (the same columns without income).
func adultCSV(dir string) error {
	var b, nb strings.Builder
	b.WriteString("age,workclass,hours,education_num,income\n")
	nb.WriteString("age,workclass,hours,education_num\n")
	work := []string{"Private", "Self-emp", "State-gov"}
	for i := 0; i < 60; i++ {
		age, hours, edu := 20+(i*7)%45, 20+(i*11)%40, 5+(i*5)%11
		income := "<=50K"
		if edu >= 10 && hours >= 35 || age > 55 {
			income = ">50K"
		}
		fmt.Fprintf(&b, "%d,%s,%d,%d,%s\n", age, work[i%3], hours, edu, income)
		if i < 10 {
			fmt.Fprintf(&nb, "%d,%s,%d,%d\n", age, work[i%3], hours, edu)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "adult.csv"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "new.csv"), []byte(nb.String()), 0o644)
}

// TestReadmeCommands runs every command of README's "Using gdt" block
// exactly as written (in a folder holding a small adult.csv and new.csv,
// with the benchmark data as ../shared/data), apart from the few listed in
// readmeSkipped with the reason.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("trains several models")
	}
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("benchmark data not found (%v)", err)
	}
	root, _ = filepath.Abs(root)
	t.Setenv(datasets.EnvDataRoot, root)
	dir := t.TempDir()
	if err := adultCSV(dir); err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, "## Using gdt")
	t.Chdir(dir)
	if len(cmds) < 20 {
		t.Fatalf("found %d README commands; the parser lost some", len(cmds))
	}
	seen := map[string]bool{}
	for _, c := range cmds {
		seen[c] = true
		if why, ok := readmeSkipped[c]; ok {
			t.Logf("skipped (%s): %s", why, c)
			continue
		}
		args, err := shellWords(c)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		out, errOut, code := gdt(t, args[1:]...)
		if code != 0 {
			t.Errorf("%s: exit %d\nstdout: %s\nstderr: %s", c, code, out, errOut)
		}
	}
	for c := range readmeSkipped {
		if !seen[c] {
			t.Errorf("readmeSkipped lists %q, which README no longer has", c)
		}
	}
}

// TestReadmeTour runs README's five-minute tour exactly as written, from a
// folder beside which ../shared/data is the benchmark data (gdt serve,
// which blocks, is left out: package serve tests the server).
func TestReadmeTour(t *testing.T) {
	if testing.Short() {
		t.Skip("trains and cross-validates GradTree")
	}
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("benchmark data not found (%v)", err)
	}
	root, _ = filepath.Abs(root)
	if filepath.Base(root) != "data" {
		t.Skipf("data root %s is not a shared/data folder", root)
	}
	cmds := readmeCommands(t, "## A five-minute tour")
	top := t.TempDir()
	if err := os.Symlink(filepath.Dir(root), filepath.Join(top, "shared")); err != nil {
		t.Skip(err)
	}
	work := filepath.Join(top, "gdt")
	os.Mkdir(work, 0o755)
	t.Setenv(datasets.EnvDataRoot, "")
	t.Chdir(work)
	ran := 0
	for _, c := range cmds {
		if strings.HasPrefix(c, "gdt serve ") {
			continue
		}
		args, err := shellWords(c)
		if err != nil {
			t.Fatal(err)
		}
		out, errOut, code := gdt(t, args[1:]...)
		if code != 0 {
			t.Fatalf("%s: exit %d\nstdout: %s\nstderr: %s", c, code, out, errOut)
		}
		if strings.HasPrefix(c, "gdt train --dataset grande/wdbc") {
			for _, want := range []string{"target: Class", "task: binary", "classes: B, M", "ignored columns: id"} {
				if !strings.Contains(errOut, want) {
					t.Errorf("%s: stderr lacks %q (the README's comment says it prints it):\n%s", c, want, errOut)
				}
			}
		}
		ran++
	}
	if ran < 5 {
		t.Errorf("ran %d tour commands; want train, show, predict, eval and report", ran)
	}
	if _, err := os.Stat(filepath.Join("wdbc-report", "report.html")); err != nil {
		t.Errorf("the tour's report: %v", err)
	}
}
