package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdt-ml/gdt/internal/corrupt"
)

// TestCorruptCheckpointsCLI sends damaged SYMPOL and MLP-policy checkpoints
// (the gob file `gdt rl train` writes and `gdt rl eval|show` and `gdt
// export` read; corrupt.MutateGob: counts and string lengths set to 2³⁰ and
// 2⁴⁰, bytes overwritten, deleted and duplicated with the framing mended,
// truncations and bit flips) through gdt rl show, gdt rl eval and gdt
// export, every process under `ulimit -v 4000000`. Counted as in
// TestCorruptModelsCLI: panics, fatal errors, deaths by a signal, hangs,
// a rejection whose error does not name the file, and an exit 0 printing a
// non-finite value. The checkpoints come from three tiny real trainings
// (3,000 steps: SYMPOL on CartPole and Pendulum, the MLP actor on
// CartPole). GDT_CORRUPT_CLI=N sends N damaged files per checkpoint (1 by
// default; scripts/corrupt-cli.sh: 30).
func TestCorruptCheckpointsCLI(t *testing.T) {
	perBase := corpusPerBase(t)
	dir := t.TempDir()
	small := []string{"--steps", "3000", "--quiet", "--set", "n_steps=128", "--set", "eval_freq=1000", "--set", "n_eval_episodes=2",
		"--set", "critic_width=8", "--set", "critic_layers=1"}
	bases := []struct {
		name string
		args []string
	}{
		{"sympol-cartpole", []string{"--env", "CartPole-v1", "--set", "depth=3"}},
		{"sympol-pendulum", []string{"--env", "Pendulum-v1", "--set", "depth=3"}},
		{"mlp-cartpole", []string{"--env", "CartPole-v1", "--method", "mlp", "--set", "neurons_per_layer=8", "--set", "num_layers=2"}},
	}
	tally := &corpusTally{}
	start := time.Now()
	for bi, base := range bases {
		run := filepath.Join(dir, base.name)
		args := append(append([]string{"rl", "train", "--out", run}, base.args...), small...)
		if _, errOut, code := gdt(t, args...); code != 0 {
			t.Fatalf("training %s: exit %d: %s", base.name, code, errOut)
		}
		b, err := os.ReadFile(filepath.Join(run, rlCheckpoint))
		if err != nil {
			t.Fatal(err)
		}
		muts, err := corrupt.MutateGob(b, uint64(bi))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < perBase && i < len(muts); i++ {
			m := muts[(i*len(muts)/perBase+bi*5)%len(muts)]
			tally.files++
			d := filepath.Join(dir, fmt.Sprintf("%s-%03d", base.name, i))
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			ck := filepath.Join(d, rlCheckpoint)
			if err := os.WriteFile(ck, m.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%s (%s)", ck, m.What)
			for _, args := range [][]string{{"rl", "show", d}, {"rl", "eval", d, "--episodes", "1"}, {"export", ck, "--out", filepath.Join(d, "policy.onnx")}} {
				tally.runs++
				out, errOut, code, err := runGdt(args...)
				name := args[0]
				if name == "rl" {
					name += " " + args[1]
				}
				label := fmt.Sprintf("gdt %s %s", name, what)
				if tally.outcome(label, errOut, code, err, d, "with an error that does not name the file") {
					if strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
						tally.fail("wrong", label+": exit 0 printing a non-finite value: "+firstLines(out, 3))
					}
				}
			}
		}
	}
	t.Logf("%d damaged checkpoints of %d runs, %d runs of rl show/rl eval/export in %v: %d rejected with an error, %d accepted; "+
		"%d panics, %d fatal errors, %d killed by a signal, %d hangs, %d wrong",
		tally.files, len(bases), tally.runs, time.Since(start).Round(time.Second), tally.rejected, tally.accepted,
		tally.panics, tally.fatals, tally.signals, tally.hangs, tally.wrong)
	for _, f := range tally.failures {
		t.Error(f)
	}
}
