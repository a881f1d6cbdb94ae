package bench

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/gob"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/distill"
	"github.com/gdt-ml/gdt/rl/methods"
	"github.com/gdt-ml/gdt/rl/ppo"

	_ "github.com/gdt-ml/gdt/rl/env/classic"
)

func TestCohensDHandExample(t *testing.T) {
	cases := []struct {
		val, test []float64
		want      float64
	}{
		// means 2 and 3, sample variances 1 and 1 → pooled SD 1.
		{[]float64{1, 2, 3}, []float64{2, 3, 4}, -1},
		// means 5 and 2; variances 4 and 1 (n 3, 3) → sqrt((2·4+2·1)/4) = sqrt(2.5).
		{[]float64{3, 5, 7}, []float64{1, 2, 3}, 3 / math.Sqrt(2.5)},
		{[]float64{500, 500}, []float64{500, 500, 500}, 0},
		{[]float64{500, 500}, []float64{400, 400}, math.Inf(1)},
		{[]float64{1}, []float64{2}, math.NaN()},
	}
	for _, c := range cases {
		got := CohensD(c.val, c.test)
		if !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want) || math.Abs(got-c.want) < 1e-12) {
			t.Errorf("CohensD(%v, %v) = %v, want %v", c.val, c.test, got, c.want)
		}
	}
}

func TestQuantileNumpy(t *testing.T) {
	// numpy.quantile([5, 1, 4, 2, 3], 0.2) == 1.8; ([1, 10], 0.2) == 2.8
	if q := Quantile([]float64{5, 1, 4, 2, 3}, 0.2); math.Abs(q-1.8) > 1e-12 {
		t.Errorf("quantile %v, want 1.8", q)
	}
	if q := Quantile([]float64{1, 10}, 0.2); math.Abs(q-2.8) > 1e-12 {
		t.Errorf("quantile %v, want 2.8", q)
	}
}

func sampleRows() []Row {
	mk := func(env, m string, seed int, val, test []float64, nodes int) Row {
		return Row{Env: env, Method: m, Seed: seed, Algorithm: "ppo", Profile: "default", Steps: 1000, TrainedSteps: 1024,
			ValEpisodes: val, TestEpisodes: test, ValReturn: metrics.Mean(val), TestReturn: metrics.Mean(test), TreeNodes: nodes, Seconds: 1.5,
			Curve: []Point{{500, 10, 12, 8, 11, 9.5, 2.25, 7}, {1024, 20, 30, math.NaN(), 31, 29, 0, 0}}}
	}
	return []Row{
		mk("CartPole-v1", SYMPOL, 142, []float64{500, 500}, []float64{500, 500}, 31),
		mk("CartPole-v1", MLP, 142, []float64{500, 500}, []float64{500, 500}, 0),
		mk("CartPole-v1", SADT5, 142, []float64{500, 500}, []float64{300, 400}, 45),
		mk("Acrobot-v1", SYMPOL, 142, []float64{-80, -90}, []float64{-85, -75}, 41),
		mk("Acrobot-v1", SADT5, 142, []float64{-70, -72}, []float64{-100, -120}, 59),
		{Env: "Acrobot-v1", Method: VIPER5, Seed: 142, Algorithm: "ppo", Profile: "default", Steps: 1000,
			ValReturn: math.NaN(), TestReturn: math.NaN(), Err: "boom, \"quoted\""},
	}
}

func TestCSVRoundTrip(t *testing.T) {
	rows := sampleRows()
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(buf.String(), "\n", 2)[0]
	if !strings.HasPrefix(first, "env,method,seed,steps,val_return,test_return,tree_nodes,seconds,") {
		t.Fatalf("header %q", first)
	}
	back, err := ReadCSV(&buf, "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(rows) {
		t.Fatalf("%d rows back, wrote %d", len(back), len(rows))
	}
	for i := range rows {
		a, b := rows[i], back[i]
		// NaN never equals itself: compare the CSV renderings.
		if strings.Join(record(a), "|") != strings.Join(record(b), "|") {
			t.Errorf("row %d:\n wrote %v\n read  %v", i, record(a), record(b))
		}
		if a.Key() != b.Key() {
			t.Errorf("row %d: key changed", i)
		}
	}
	bad := "env,method,seed,val_return,test_return\nCartPole-v1,mlp,x,1,2\n"
	if _, err := ReadCSV(strings.NewReader(bad), "bad.csv"); err == nil || !strings.Contains(err.Error(), "bad.csv:2: column seed") {
		t.Errorf("error %v, want one naming bad.csv:2 and column seed", err)
	}
	if _, err := ReadCSV(strings.NewReader("a,b\n1,2\n"), "x.csv"); err == nil {
		t.Error("foreign CSV accepted")
	}
}

func TestTablesMarkdownAndHTML(t *testing.T) {
	rows := sampleRows()
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rows); err != nil {
		t.Fatal(err)
	}
	s := md.String()
	for _, want := range []string{
		"### Mean test return (PPO)",
		"| method | CP | AB | norm. mean (control) |",
		"| sympol | 500 (500) | -80.0 (-80) |",
		"| sa-dt-d5 | 350 (446) | -110 (-97) |",
		"### Information loss, Cohen's d (PPO)",
		"| sympol | 0.000 (0) | -0.707 (0.104) | -0.354 (-0.019) |",
		"### Tree size, nodes after pruning (PPO)",
		"| sympol | 31.0 (39.4) | 41.0 (78.6) | 36.0 (50.5) |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("markdown lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "viper") {
		t.Errorf("failed row shown:\n%s", s)
	}
	var h bytes.Buffer
	if err := WriteHTML(&h, rows); err != nil {
		t.Fatal(err)
	}
	page := h.String()
	for _, want := range []string{"<table>", "<svg", "<polyline", "CP (CartPole-v1)", "stroke-dasharray"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, ""), "http") {
		t.Error("page refers to the network")
	}
}

// Without control environments there is no normalised mean to show: the
// column is left out rather than filled with zeros.
func TestTablesWithoutControlEnvs(t *testing.T) {
	mk := func(m string, test float64) Row {
		return Row{Env: "MiniGrid-DoorKey-5x5-v0", Method: m, Seed: 142, Algorithm: "ppo", Profile: "default", Steps: 1000,
			ValEpisodes: []float64{test}, TestEpisodes: []float64{test}, ValReturn: test, TestReturn: test}
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, []Row{mk(SYMPOL, 0.95), mk(MLP, 0.9)}); err != nil {
		t.Fatal(err)
	}
	s := md.String()
	if !strings.Contains(s, "| method | DK |\n") || strings.Contains(s, "norm. mean") || strings.Contains(s, "Normalised mean") {
		t.Errorf("MiniGrid-only table:\n%s", s)
	}
}

func TestAblationTable(t *testing.T) {
	var rows []Row
	for i, v := range []string{VariantFull, VariantNoAdamW} {
		rows = append(rows, Row{Env: "CartPole-v1", Method: SYMPOL, Seed: 142, Algorithm: "ppo", Profile: "default", Variant: v,
			TestEpisodes: []float64{500 - 100*float64(i), 500 - 100*float64(i)}, TestReturn: 500 - 100*float64(i),
			ValEpisodes: []float64{500, 500}})
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rows); err != nil {
		t.Fatal(err)
	}
	// 20 % quantile of {500, 500, 400, 400} is 400: full → 1, w/o AdamW → 0.
	for _, want := range []string{"### Ablation of SYMPOL", "| SYMPOL | 500 (500) | 1.000 (0.988) |", "| w/o AdamW | 400 (416.1) | 0.000 (0.865) |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
}

func TestJobsAndOptions(t *testing.T) {
	o := Options{Envs: []string{"cp", "Acrobot-v1"}, Methods: []string{SADT5, SYMPOL, DSDT}, Seeds: 2, Variants: []string{"", VariantNoAdamW}}
	if err := o.defaults(); err != nil {
		t.Fatal(err)
	}
	js, err := o.jobs()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range js {
		got = append(got, j.String())
	}
	want := []string{
		"CP sympol seed 142", "CP sympol seed 242", "CP mlp seed 142", "CP mlp seed 242", "CP sdt seed 142", "CP sdt seed 242",
		"CP sympol seed 142 (no-adamw)", "CP sympol seed 242 (no-adamw)",
		"AB sympol seed 142", "AB sympol seed 242", "AB mlp seed 142", "AB mlp seed 242", "AB sdt seed 142", "AB sdt seed 242",
		"AB sympol seed 142 (no-adamw)", "AB sympol seed 242 (no-adamw)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("jobs\n%v\nwant\n%v", got, want)
	}
	for _, bad := range []Options{{Methods: []string{"nope"}}, {Variants: []string{"x"}}, {Algorithm: "dqn"}, {Profile: "p"}} {
		if err := bad.defaults(); err == nil {
			if _, err := bad.jobs(); err == nil {
				t.Errorf("options %+v accepted", bad)
			}
		}
	}
}

// TestResumeSkipsDone checks that jobs whose rows are all present do not
// train again.
func TestResumeSkipsDone(t *testing.T) {
	done := []Row{{Env: "CartPole-v1", Method: SYMPOL, Seed: 142, Algorithm: "ppo", Profile: "default", Steps: 5000,
		TestReturn: 9, ValReturn: 9, TestEpisodes: []float64{9}}}
	called := false
	rows, err := Run(context.Background(), Options{Envs: []string{"CartPole-v1"}, Methods: []string{SYMPOL}, Seeds: 1,
		Steps: 5000, Done: done, OnRows: func([]Row) error { called = true; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if called || len(rows) != 1 || rows[0].TestReturn != 9 {
		t.Errorf("rows %+v, hook called %v", rows, called)
	}
}

// TestSmallRun trains SYMPOL and the MLP briefly on CartPole, extracts
// SA-DT and VIPER, and checks the rows and that the result does not
// depend on the number of workers.
func TestSmallRun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for a few seconds")
	}
	opt := Options{Envs: []string{"CartPole-v1"}, Methods: []string{SYMPOL, MLP, SADT5, VIPER5}, Seeds: 1, Steps: 3000, Curves: true, Level: 4}
	var streamed int
	opt.OnRows = func(rs []Row) error { streamed += len(rs); return nil }
	opt.Workers = 2
	rows, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || streamed != 4 {
		t.Fatalf("%d rows (%d streamed): %+v", len(rows), streamed, rows)
	}
	for _, r := range rows {
		if r.Err != "" {
			t.Fatalf("%s: %s", r.Method, r.Err)
		}
		if len(r.TestEpisodes) != 5 || len(r.ValEpisodes) != 5 || r.TrainedSteps < 3000 || len(r.Curve) == 0 {
			t.Errorf("%s: row %+v", r.Method, r)
		}
		if (r.Method != MLP) != (r.TreeNodes > 0) {
			t.Errorf("%s: %d tree nodes", r.Method, r.TreeNodes)
		}
		// The trained methods have a best-validation policy, the derived ones none.
		trained := r.Method == SYMPOL || r.Method == MLP
		// (Its validation return is over ppo's val_episodes, the row's
		// val_return over the protocol's 5: they are not comparable.)
		if trained != (r.BestStep > 0) || trained && (math.IsNaN(r.BestTestReturn) || math.IsNaN(r.BestValReturn)) ||
			!trained && !math.IsNaN(r.BestTestReturn) {
			t.Errorf("%s: best step %d, validation %v (final %v), test %v", r.Method, r.BestStep, r.BestValReturn, r.ValReturn, r.BestTestReturn)
		}
		// A trained method's row carries its delivered policy's level on
		// the 4 level episodes, a derived method's none.
		if trained != (r.Level != nil) || trained && (r.Level.N != 4 || !(r.Level.Mean > 0) || !(r.Level.SD >= 0)) {
			t.Errorf("%s: level %+v", r.Method, r.Level)
		}
		// Every evaluation carries the trained model's test return and the
		// spread of its validation returns; at the last one (the end of the
		// training) that test return is the final policy's.
		for _, p := range r.Curve {
			if math.IsNaN(p.Test) || !(p.SelectionSD >= 0) {
				t.Errorf("%s: curve point %+v", r.Method, p)
			}
		}
		if trained {
			if p := r.Curve[len(r.Curve)-1]; p.Step != r.TrainedSteps || p.Test != r.TestReturn {
				t.Errorf("%s: last evaluation at step %d: test return %v; final policy at step %d: %v", r.Method, p.Step, p.Test, r.TrainedSteps, r.TestReturn)
			}
		}
		// Each evaluation counts the evaluated tree's pruned nodes (none for
		// the MLP); the last is the final policy's.
		if r.Method == SYMPOL || r.Method == MLP {
			for _, p := range r.Curve {
				if (p.Nodes > 0) != (r.Method == SYMPOL) {
					t.Errorf("%s: curve point %+v: %d nodes", r.Method, p, p.Nodes)
				}
			}
			if p := r.Curve[len(r.Curve)-1]; p.Nodes != r.TreeNodes {
				t.Errorf("%s: last evaluation's tree has %d nodes, the final policy's %d", r.Method, p.Nodes, r.TreeNodes)
			}
		}
		t.Logf("%s: val %.1f test %.1f nodes %d %.2fs", r.Method, r.ValReturn, r.TestReturn, r.TreeNodes, r.Seconds)
	}
	opt.Workers = 1
	again, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		a, b := rows[i], again[i]
		a.Seconds, b.Seconds = 0, 0
		if strings.Join(record(a), "|") != strings.Join(record(b), "|") {
			t.Errorf("workers 2 vs 1:\n%v\n%v", record(a), record(b))
		}
	}
}

// TestCheckpointResume leaves a finished training's checkpoint where Run
// looks for it: Run must evaluate that model instead of training again,
// then remove the checkpoint.
func TestCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	opt := Options{Envs: []string{"CartPole-v1"}, Methods: []string{SYMPOL}, Seeds: 1, Steps: 1500, CheckpointDir: dir}
	if err := opt.defaults(); err != nil {
		t.Fatal(err)
	}
	js, err := opt.jobs()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := trainConfig(&opt, js[0])
	if err != nil {
		t.Fatal(err)
	}
	tr, err := methods.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, checkpointName(&opt, js[0]))
	if err := tr.Save(path); err != nil {
		t.Fatal(err)
	}
	want, err := distill.Episodes(tr.Maker(), distill.Seeds(cfg.TestSeed, 5), distill.Greedy(tr.Actor()), nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Err != "" || !reflect.DeepEqual(rows[0].TestEpisodes, want) || rows[0].TrainedSteps != tr.Step() {
		t.Fatalf("rows %+v, want test episodes %v after %d steps", rows, want, tr.Step())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("checkpoint %s not removed (%v)", path, err)
	}
	b, ok := tr.Best()
	if r := rows[0]; !ok || r.BestStep != b.Step || r.BestValReturn != b.Validation || r.BestTestReturn != metrics.Mean(b.Test) {
		t.Errorf("row best (step %d, %v, %v), trainer's %+v", r.BestStep, r.BestValReturn, r.BestTestReturn, b)
	}
}

// TestCSVBestColumns checks that the best-validation columns, the
// restart count and reasons, the divergence step and the recheck come last
// and survive a round trip, and that a file written before they existed
// (its header and rows end at "error") still reads, as rows without a
// best.
func TestCSVBestColumns(t *testing.T) {
	if n := len(Header); !slices.Equal(Header[n-8:], []string{"best_val_return", "best_test_return", "best_step", "restarts", "restart_reasons", "diverged_step", "recheck", "level"}) {
		t.Fatalf("header ends %v", Header[n-8:])
	}
	rows := sampleRows()
	rows[0].BestValReturn, rows[0].BestTestReturn, rows[0].BestStep, rows[0].Restarts = 480.5, 500, 2048, 2
	rows[0].RestartReasons, rows[0].DivergedStep = []string{ppo.RestartNotLearned, ppo.RestartDiverged}, 4096
	rows[0].Recheck = &ppo.Recheck{Steps: []int{1024, 2048}, Returns: []float64{-80.5, -75}, SDs: []float64{40, 38.25}}
	rows[0].Level = &Level{Mean: -81.25, SD: 20.5, N: 1000}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if !strings.HasSuffix(lines[1], ",480.5,500,2048,2,not learned;diverged,4096,1024 -80.5 40;2048 -75 38.25,-81.25 20.5 1000") || !strings.HasSuffix(lines[2], ",,,,0,,,,") {
		t.Errorf("rows end %q and %q", lines[1], lines[2])
	}
	back, err := ReadCSV(&buf, "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	if b := back[0]; b.BestValReturn != 480.5 || b.BestTestReturn != 500 || b.BestStep != 2048 || b.Restarts != 2 ||
		!slices.Equal(b.RestartReasons, rows[0].RestartReasons) || b.DivergedStep != 4096 {
		t.Errorf("read back best (%v, %v, %d), restarts %d %v, diverged at %d", b.BestValReturn, b.BestTestReturn, b.BestStep, b.Restarts, b.RestartReasons, b.DivergedStep)
	}
	if diff := cmp.Diff(rows[0].Recheck, back[0].Recheck); diff != "" {
		t.Errorf("recheck read back (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(rows[0].Level, back[0].Level); diff != "" {
		t.Errorf("level read back (-want +got):\n%s", diff)
	}
	if b := back[1]; b.RestartReasons != nil || b.DivergedStep != 0 || b.Recheck != nil || b.Level != nil {
		t.Errorf("row without restarts read as %v, diverged at %d, recheck %v, level %v", b.RestartReasons, b.DivergedStep, b.Recheck, b.Level)
	}
	for _, l := range []string{"-81.25 20.5", "-81.25 x 1000", "-81.25 20.5 0"} {
		odd := strings.Replace(strings.Join(lines, "\n"), "-81.25 20.5 1000", l, 1)
		if _, err := ReadCSV(strings.NewReader(odd), "odd.csv"); err == nil || !strings.Contains(err.Error(), "level") {
			t.Errorf("level %q: %v", l, err)
		}
	}
	for _, r := range []string{"1024 -80.5", "x -80.5 40", "1024 -80.5 y"} {
		odd := strings.Replace(strings.Join(lines, "\n"), "1024 -80.5 40", r, 1)
		if _, err := ReadCSV(strings.NewReader(odd), "odd.csv"); err == nil || !strings.Contains(err.Error(), "recheck") {
			t.Errorf("recheck %q: %v", r, err)
		}
	}
	bad := strings.Replace(strings.Join(lines, "\n"), "not learned;diverged", "bored", 1)
	if _, err := ReadCSV(strings.NewReader(bad), "bad.csv"); err == nil || !strings.Contains(err.Error(), "restart_reasons") {
		t.Errorf("unknown restart reason: %v", err)
	}
	if b := back[1]; b.BestStep != 0 || !math.IsNaN(b.BestValReturn) || !math.IsNaN(b.BestTestReturn) {
		t.Errorf("row without a best read as (%v, %v, %d)", b.BestValReturn, b.BestTestReturn, b.BestStep)
	}

	// A results file of an older gdt: 16 columns.
	old := "env,method,seed,steps,val_return,test_return,tree_nodes,seconds,algorithm,profile,variant,trained_steps,val_episodes,test_episodes,curve,error\n" +
		"CartPole-v1,sympol,142,1000,500,450,31,1.500,ppo,default,,1024,500;500,400;500,500 10 12 8,\n"
	got, err := ReadCSV(strings.NewReader(old), "old.csv")
	if err != nil {
		t.Fatalf("old-format file: %v", err)
	}
	if len(got) != 1 {
		t.Fatalf("%d rows from the old-format file", len(got))
	}
	r := got[0]
	if r.TestReturn != 450 || r.TreeNodes != 31 || len(r.TestEpisodes) != 2 || len(r.Curve) != 1 || r.Err != "" {
		t.Errorf("old-format row %+v", r)
	}
	if r.BestStep != 0 || !math.IsNaN(r.BestValReturn) || !math.IsNaN(r.BestTestReturn) {
		t.Errorf("old-format row has a best (%v, %v, %d)", r.BestValReturn, r.BestTestReturn, r.BestStep)
	}
	// Written again, it gains the (empty) best columns.
	var again bytes.Buffer
	if err := WriteCSV(&again, got); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&again).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if l := recs[1]; len(l) != len(Header) || l[len(l)-8]+l[len(l)-7]+l[len(l)-6] != "" || l[len(l)-5] != "0" || l[len(l)-4]+l[len(l)-3]+l[len(l)-2]+l[len(l)-1] != "" {
		t.Errorf("rewritten old row %q", l)
	}
}

// TestTablesDelivered checks the "Delivered and final policy" table: only
// for methods with a best-validation policy, the delivered policy being
// the best one where a row has it and the final one otherwise, with the
// minimum and the count of failed trainings.
func TestTablesDelivered(t *testing.T) {
	rows := sampleRows()
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rows); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "### Delivered and final policy") {
		t.Errorf("delivered table without best data:\n%s", md.String())
	}
	rows[0].BestValReturn, rows[0].BestTestReturn, rows[0].BestStep = 500, 450, 2048
	second := rows[0] // no best: delivers its final policy (500)
	second.Seed, second.BestValReturn, second.BestTestReturn, second.BestStep = 242, math.NaN(), math.NaN(), 0
	third := rows[0]
	third.Seed, third.BestTestReturn, third.TestReturn = 342, 490, 100
	rows = append(rows, second, third)
	if d, best := second.Delivered(); best || d != second.TestReturn {
		t.Errorf("row without a best delivers (%v, %v)", d, best)
	}
	md.Reset()
	if err := WriteMarkdown(&md, rows); err != nil {
		t.Fatal(err)
	}
	s := md.String()
	// Delivered 450, 500, 490: mean 480, min 450, 1 below 475; final 500,
	// 500, 100: mean 367, min 100, 1 failed.
	for _, want := range []string{
		"### Delivered and final policy, sympol (PPO)",
		"| CP | 3 | 480 | 450 | 1 | 367 | 100 | 1 | 500 | 475 |\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("markdown lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "Delivered and final policy, mlp") {
		t.Errorf("delivered table for a method without best policies:\n%s", s)
	}
}

// TestTablesOneLayoutNote checks that the delivered table marks an
// environment with one fixed layout and says what that means.
func TestTablesOneLayoutNote(t *testing.T) {
	r := Row{Env: "MiniGrid-DistShift1-v0", Method: SYMPOL, Seed: 142, Algorithm: "ppo", Profile: "default", Steps: 1000,
		ValReturn: 0.9, TestReturn: 0, BestValReturn: 0.94, BestTestReturn: 0.94, BestStep: 500}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, []Row{r}); err != nil {
		t.Fatal(err)
	}
	s := md.String()
	if !strings.Contains(s, "| DS ¹ | 1 | 0.940 | 0.940 | 0 | 0.000 | 0.000 | 1 |") ||
		!strings.Contains(s, "MiniGrid-DistShift1-v0 has one fixed layout: its validation and test episodes are the same episode") {
		t.Errorf("DistShift1's delivered table does not say its episodes coincide:\n%s", s)
	}
}

// TestFirstSeed checks that FirstSeed S gives the seeds S, S+100, … and
// that a first seed whose trainings' validation episodes would share a
// seed with the test episodes is refused before any training.
func TestFirstSeed(t *testing.T) {
	o := Options{Envs: []string{"CP"}, Methods: []string{SYMPOL}, Seeds: 3, FirstSeed: 7}
	if err := o.defaults(); err != nil {
		t.Fatal(err)
	}
	js, err := o.jobs()
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, j := range js {
		got = append(got, j.seed)
	}
	if !reflect.DeepEqual(got, []int{7, 107, 207}) {
		t.Errorf("seeds %v, want [7 107 207]", got)
	}
	// Seeds 123256, 123356, 123456: the last one's validation episodes
	// are the test episodes.
	bad := Options{Envs: []string{"CP"}, Methods: []string{SYMPOL}, Seeds: 3, FirstSeed: 123256, Steps: 1000}
	if _, err := JobCount(bad); err == nil || !strings.Contains(err.Error(), "overlap the test episodes") {
		t.Errorf("JobCount with overlapping seeds: %v", err)
	}
	if _, err := Run(context.Background(), bad); err == nil {
		t.Error("Run with overlapping seeds accepted")
	}
	if _, err := JobCount(Options{FirstSeed: -1}); err == nil {
		t.Error("negative first seed accepted")
	}
}

func TestPresenceRules(t *testing.T) {
	tr := &interpret.Tree{Outputs: 3, Nodes: []interpret.Node{
		{Feature: 1, Threshold: 0, Left: 1, Right: 2},
		{Feature: -1, Left: -1, Right: -1, Value: []float32{0, 0, 1}},
		{Feature: 0, Threshold: 5, Left: 3, Right: 4},
		{Feature: -1, Left: -1, Right: -1, Value: []float32{1, 0, 0}},
		{Feature: -1, Left: -1, Right: -1, Value: []float32{0, 1, 0}},
	}}
	got := PresenceRules(tr, []string{"x", "cell ahead is lava"}, []string{"turn left", "turn right", "move forward"})
	want := "if cell ahead is lava:\n    if x ≥ 5:\n        → turn right\n    else:\n        → turn left\nelse:\n    → move forward\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func FuzzReadCSV(f *testing.F) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, sampleRows()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.String())
	f.Add("env,method,seed,val_return,test_return\nCP,mlp,1,2,3\n")
	f.Add("env,method,seed,val_return,test_return,curve\nCP,mlp,1,2,3,1 2 3\n")
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := ReadCSV(strings.NewReader(s), "fuzz.csv")
		if err != nil {
			return
		}
		// Whatever parses must survive a round trip.
		var out bytes.Buffer
		if err := WriteCSV(&out, rows); err != nil {
			t.Fatal(err)
		}
		back, err := ReadCSV(&out, "again.csv")
		if err != nil {
			t.Fatalf("re-reading: %v", err)
		}
		if len(back) != len(rows) {
			t.Fatalf("%d rows, then %d", len(rows), len(back))
		}
	})
}

func TestSeedInterval(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name      string
		x         []float64
		m, lo, hi float64
		ok        bool
	}{
		// scipy.stats.t.interval(0.95, 4, loc=mean, scale=sem) of SYMPOL's
		// Acrobot seeds 142…542 (results/rl-control.csv)
		{"acrobot 5 seeds", []float64{-79.6, -93.8, -84.2, -79.4, -85.4}, -84.48, -91.757465, -77.202535, true},
		{"two values", []float64{1, 3}, 2, 2 - 12.706205, 2 + 12.706205, true},
		{"non-finite dropped", []float64{1, nan, 3, math.Inf(1)}, 2, 2 - 12.706205, 2 + 12.706205, true},
		{"constant", []float64{5, 5, 5}, 5, 5, 5, true},
		{"one value", []float64{5}, nan, nan, nan, false},
		{"none", nil, nan, nan, nan, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, lo, hi, ok := SeedInterval(tc.x)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				if !math.IsNaN(m) || !math.IsNaN(lo) || !math.IsNaN(hi) {
					t.Fatalf("got %v [%v, %v], want NaNs", m, lo, hi)
				}
				return
			}
			for _, p := range [][2]float64{{m, tc.m}, {lo, tc.lo}, {hi, tc.hi}} {
				if math.Abs(p[0]-p[1]) > 1e-5 {
					t.Fatalf("got %v [%v, %v], want %v [%v, %v]", m, lo, hi, tc.m, tc.lo, tc.hi)
				}
			}
		})
	}
}

// TestCurvesFile checks the ".curves" file beside a running training's
// checkpoint: points round-trip, and those of a file written before
// Point.Test existed (a bare gob map) read with Test and SelectionSD NaN
// rather than 0, so a resumed study never reports a test return nobody
// measured.
func TestCurvesFile(t *testing.T) {
	dir := t.TempDir()
	pts := map[string][]Point{SYMPOL: {{Step: 100, Train: 1, Trained: 2, Applied: 2, Selection: 3, Test: 4, SelectionSD: 0.5}}}
	path := filepath.Join(dir, "new.curves")
	if err := writeCurves(path, pts); err != nil {
		t.Fatal(err)
	}
	got := map[string][]Point{}
	readCurves(path, got)
	if len(got[SYMPOL]) != 1 || got[SYMPOL][0] != pts[SYMPOL][0] {
		t.Errorf("round trip: %+v, want %+v", got, pts)
	}

	old := filepath.Join(dir, "old.curves")
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(map[string][]Point{SYMPOL: {{Step: 100, Train: 1, Trained: 2, Applied: 2, Selection: 3}}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got = map[string][]Point{}
	readCurves(old, got)
	if p := got[SYMPOL]; len(p) != 1 || p[0].Selection != 3 || !math.IsNaN(p[0].Test) || !math.IsNaN(p[0].SelectionSD) {
		t.Errorf("old file read as %+v", got)
	}

	// Unreadable files add nothing.
	if err := os.WriteFile(old, []byte("not gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	got = map[string][]Point{}
	readCurves(old, got)
	readCurves(filepath.Join(dir, "missing.curves"), got)
	if len(got) != 0 {
		t.Errorf("damaged or missing file read as %+v", got)
	}
}

// TestDivergedTraining leaves the checkpoint of a training that diverged
// with no restart left (a NaN put into its actor after two evaluated
// iterations) where Run looks for it: the rows are no errors, say where
// the training diverged, have no final policy (NaN, no episodes) nor a
// model extracted from it, and the trained method's row delivers the
// best-validation policy; the tables count the training as failed in the
// final columns and say so.
func TestDivergedTraining(t *testing.T) {
	for _, methods_ := range [][]string{{SYMPOL}, {MLP, SADT5}} {
		t.Run(methods_[0], func(t *testing.T) {
			dir := t.TempDir()
			opt := Options{Envs: []string{"CartPole-v1"}, Methods: methods_, Seeds: 1, Steps: 3000, CheckpointDir: dir,
				Set: []string{"restarts=0", "eval_freq=500"}}
			if err := opt.defaults(); err != nil {
				t.Fatal(err)
			}
			js, err := opt.jobs()
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := trainConfig(&opt, js[0])
			if err != nil {
				t.Fatal(err)
			}
			tr, err := methods.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 3; i++ {
				if i == 2 {
					ts := tr.Actor().Tensors()
					ts[0].Value[0] = float32(math.NaN())
					tr.Actor().Changed()
				}
				if _, err := tr.Iterate(); err != nil {
					t.Fatal(err)
				}
			}
			d, ok := tr.Diverged()
			b, _ := tr.Best()
			if !ok {
				t.Fatal("the training did not end diverged")
			}
			path := filepath.Join(dir, checkpointName(&opt, js[0]))
			if err := tr.Save(path); err != nil {
				t.Fatal(err)
			}
			rows, err := Run(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(methods_) {
				t.Fatalf("%d rows", len(rows))
			}
			for _, r := range rows {
				if r.Err != "" || r.DivergedStep != d.Step || r.TrainedSteps != d.Step || !math.IsNaN(r.TestReturn) || !math.IsNaN(r.ValReturn) || r.TestEpisodes != nil || r.ValEpisodes != nil {
					t.Errorf("%s row %+v", r.Method, r)
				}
				if d, best := r.Delivered(); best != (r.Method == methods_[0]) || best && d != metrics.Mean(b.Test) {
					t.Errorf("%s row delivers %v (best %v), trainer's best %+v", r.Method, d, best, b)
				}
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("checkpoint %s not removed (%v)", path, err)
			}
			var buf bytes.Buffer
			if err := WriteCSV(&buf, rows); err != nil {
				t.Fatal(err)
			}
			back, err := ReadCSV(&buf, "d.csv")
			if err != nil || back[0].DivergedStep != d.Step || back[0].Err != "" {
				t.Fatalf("read back %+v: %v", back, err)
			}
			var md bytes.Buffer
			if err := WriteMarkdown(&md, rows); err != nil {
				t.Fatal(err)
			}
			wants := []string{"Trainings that diverged have no final policy and are left out of these cells: ",
				"Trainings that diverged (CP " + methods_[0] + ": 1) have no final policy: they count as failed in the final columns."}
			for _, m := range methods_ {
				wants = append(wants, "CP "+m+": 1")
			}
			for _, want := range wants {
				if !strings.Contains(md.String(), want) {
					t.Errorf("tables lack %q:\n%s", want, md.String())
				}
			}
		})
	}
}
