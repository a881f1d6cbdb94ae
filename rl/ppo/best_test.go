package ppo

import (
	"bytes"
	"context"
	"encoding/gob"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/metrics"
	"github.com/gdt-ml/gdt/rl/policy"
)

// trained is a Trainer of cfg run to its end; any error fails the test.
func trained(t testing.TB, cfg Config) *Trainer {
	t.Helper()
	tr, err := New(cfg, testNets{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return tr
}

// smallCartPole is a fast SYMPOL CartPole configuration: a narrow critic,
// short rollouts, evalFreq steps between evaluations.
func smallCartPole(t *testing.T, steps, evalFreq int) Config {
	t.Helper()
	cfg, err := Preset("CartPole-v1", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.TotalSteps, cfg.CriticWidth, cfg.CriticLayers, cfg.NSteps, cfg.EvalFreq = steps, 16, 1, 128, evalFreq
	return cfg
}

// sameTensors reports whether two actors hold the same values bit for bit.
func sameTensors(a, b policy.Actor) bool {
	x, y := a.Tensors(), b.Tensors()
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Name != y[i].Name || len(x[i].Value) != len(y[i].Value) {
			return false
		}
		for k := range x[i].Value {
			if math.Float32bits(x[i].Value[k]) != math.Float32bits(y[i].Value[k]) {
				return false
			}
		}
	}
	return true
}

// checkBest checks the best-validation policy of a finished trainer
// against its history: its validation return is the last maximum of the
// history's selection figures (all ValidationEpisodes), replaying the validation and test episodes with its actor
// gives its record's returns, and its actor is not the trained one.
func checkBest(t *testing.T, tr *Trainer) BestPolicy {
	t.Helper()
	a, b, ok := tr.BestActor()
	if !ok {
		t.Fatal("no best-validation policy after training")
	}
	h := tr.History()
	last := -1
	for i, r := range h {
		if r.Selection > b.Validation {
			t.Errorf("evaluation at step %d has validation %v > best %v (step %d)", r.Step, r.Selection, b.Validation, b.Step)
		}
		if r.Selection == b.Validation {
			last = i
		}
	}
	if last < 0 || h[last].Step != b.Step || h[last].Iteration != b.Iteration {
		t.Errorf("best at step %d (iteration %d) with %v is not the last maximum of the history %+v", b.Step, b.Iteration, b.Validation, h)
	}
	if a == tr.Actor() {
		t.Error("BestActor returns the trained actor itself, not a copy")
	}
	checkReplay(t, tr, a, b)
	return b
}

// checkReplay checks that the best-validation actor a of tr replays its
// record b: the mean over the validation episodes and the test returns.
func checkReplay(t *testing.T, tr *Trainer, a policy.Actor, b BestPolicy) {
	t.Helper()
	cfg := tr.Config()
	val, err := Returns(tr.Maker(), cfg.ValidationSeed(), cfg.ValidationEpisodes(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if metrics.Mean(val) != b.Validation {
		t.Errorf("best actor replays validation %v, recorded %v", metrics.Mean(val), b.Validation)
	}
	test, err := Returns(tr.Maker(), cfg.TestSeed, cfg.EvalEpisodes, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Test) != cfg.EvalEpisodes || !slices.Equal(test, b.Test) {
		t.Errorf("best test returns %v, replayed %v", b.Test, test)
	}
}

// TestBestPolicyTracked trains with frequent evaluations and checks the
// best-validation policy against the history; a second run with a single
// evaluation (the final one) checks that the best then is the final policy
// with the final test returns, bit for bit.
func TestBestPolicyTracked(t *testing.T) {
	tr, err := New(smallCartPole(t, 6000, 500), testNets{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tr.Best(); ok {
		t.Fatal("a best policy before the first evaluation")
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if n := len(tr.History()); n < 4 {
		t.Fatalf("only %d evaluations; the test needs several", n)
	}
	b := checkBest(t, tr)
	t.Logf("%d evaluations, best at step %d of %d: validation %v, test %v", len(tr.History()), b.Step, tr.Step(), b.Validation, b.Test)

	// The first iteration's batch covers the budget: the first evaluation
	// is the final one.
	one, err := New(smallCartPole(t, 100, 50_000), testNets{})
	if err != nil {
		t.Fatal(err)
	}
	if err := one.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	h := one.History()
	b = checkBest(t, one)
	last := h[len(h)-1]
	if len(h) != 1 || b.Step != last.Step {
		t.Fatalf("%d evaluations, best at step %d, want one, the final at step %d", len(h), b.Step, last.Step)
	}
	a, _, _ := one.BestActor()
	if !sameTensors(a, one.Actor()) {
		t.Error("the best policy is the final evaluation's but its parameters differ from the final actor's")
	}
	if !slices.Equal(b.Test, last.Test) || b.Validation != last.Selection {
		t.Errorf("best validation %v, test returns %v; final %v, %v", b.Validation, b.Test, last.Validation, last.Test)
	}
}

// TestBestTieGoesToLater checks that of evaluations validating alike the
// later one becomes the best-validation policy, and that a worse one does
// not.
func TestBestTieGoesToLater(t *testing.T) {
	tr, err := New(smallCartPole(t, 3000, 500), testNets{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	before, ok := tr.Best()
	if !ok {
		t.Fatal("no best-validation policy after training")
	}
	top := math.Inf(-1)
	for _, r := range tr.History() {
		top = max(top, r.Selection)
	}
	tr.global++ // a later evaluation of the same actor
	if err := tr.trackBest(tr.actor, math.Nextafter(top, math.Inf(-1))); err != nil {
		t.Fatal(err)
	}
	if b, _ := tr.Best(); b.Step != before.Step {
		t.Fatalf("a later evaluation validating worse (%v < %v) became the best: step %d, was %d", math.Nextafter(top, math.Inf(-1)), top, b.Step, before.Step)
	}
	if err := tr.trackBest(tr.actor, top); err != nil {
		t.Fatal(err)
	}
	if b, _ := tr.Best(); b.Step != tr.global || b.Validation != top {
		t.Fatalf("a later evaluation validating alike (%v) is not the best: best at step %d with %v, want step %d", top, b.Step, b.Validation, tr.global)
	}
}

// TestBestNotWithoutValidation checks that a run without validation
// episodes keeps no best policy.
func TestBestNotWithoutValidation(t *testing.T) {
	cfg := smallCartPole(t, 1000, 500)
	cfg.EvalEpisodes = 0
	tr := trained(t, cfg)
	if b, ok := tr.Best(); ok {
		t.Errorf("best policy %+v without validation episodes", b)
	}
}

// TestBestCheckpoint checks that a checkpoint keeps the best policy, that a
// checkpoint without one (as written before gdt kept it) loads with no
// best, and that training on from it names a best only when it validates
// at least as well as every earlier evaluation.
func TestBestCheckpoint(t *testing.T) {
	a, err := New(smallCartPole(t, 5000, 500), testNets{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if _, err := a.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	want, ok := a.Best()
	if !ok {
		t.Fatal("no best policy after 4 iterations with evaluations")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "ck")
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := Load(path, testNets{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := b.Best()
	if !ok || got.Step != want.Step || got.Iteration != want.Iteration || got.Validation != want.Validation || !slices.Equal(got.Test, want.Test) {
		t.Fatalf("loaded best %+v (%v), want %+v", got, ok, want)
	}
	ab, _, _ := a.BestActor()
	bb, _, _ := b.BestActor()
	if !sameTensors(ab, bb) {
		t.Fatal("the loaded best actor differs from the saved one")
	}
	if err := b.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	checkBest(t, b)

	// The same checkpoint without the best, as an older gdt wrote it.
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ck checkpoint
	if err := gob.NewDecoder(bytes.NewReader(raw)).Decode(&ck); err != nil {
		t.Fatal(err)
	}
	ck.Best = nil
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&ck); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old")
	if err := os.WriteFile(old, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(old, testNets{}, nil)
	if err != nil {
		t.Fatalf("checkpoint without a best: %v", err)
	}
	if _, ok := c.Best(); ok {
		t.Fatal("a checkpoint without a best loads with one")
	}
	if err := c.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if cb, ok := c.Best(); ok {
		h := c.History()
		for _, r := range h {
			if r.Step < cb.Step && !(cb.Validation >= r.Selection) {
				t.Errorf("best after resuming (step %d, %v) validates worse than the earlier evaluation at step %d (%v)", cb.Step, cb.Validation, r.Step, r.Selection)
			}
		}
		checkBest(t, c)
	} else {
		t.Logf("no evaluation after resuming beat the earlier ones: no best")
	}
}

// TestValidationSeedsDisjoint checks that a configuration whose validation
// episodes would share a seed with the test episodes is rejected (by
// Validate and by New), and that the neighbours just outside the test
// seeds are accepted.
func TestValidationSeedsDisjoint(t *testing.T) {
	base := smallCartPole(t, 1000, 500)
	n, v := base.EvalEpisodes, base.ValidationEpisodes()
	if n < 1 || v < n {
		t.Fatalf("preset has %d test and %d validation episodes", n, v)
	}
	for _, tc := range []struct {
		seed int
		ok   bool
	}{
		{142, true},
		{base.TestSeed - v, true},
		{base.TestSeed - v + 1, false},
		{base.TestSeed, false},
		{base.TestSeed + n - 1, false},
		{base.TestSeed + n, true},
	} {
		cfg := base
		cfg.Seed = tc.seed
		err := cfg.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("seed %d (test seeds %d…%d): Validate error %v, want ok %v", tc.seed, cfg.TestSeed, cfg.TestSeed+n-1, err, tc.ok)
		}
		if _, err := New(cfg, testNets{}); (err == nil) != tc.ok {
			t.Errorf("seed %d: New error %v, want ok %v", tc.seed, err, tc.ok)
		}
	}
	// A separate validation seed is what is checked then.
	cfg := base
	cfg.Seed, cfg.ValSeed = base.TestSeed, 142
	if err := cfg.Validate(); err != nil {
		t.Errorf("seed on the test seeds, val_seed 142: %v", err)
	}
	cfg.Seed, cfg.ValSeed = 142, base.TestSeed-v+1
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "val_seed") {
		t.Errorf("val_seed overlapping the test seeds: error %v, want one naming val_seed", err)
	}
	cfg = base
	cfg.Seed, cfg.EvalEpisodes = base.TestSeed, 0
	if err := cfg.Validate(); err != nil {
		t.Errorf("no evaluation episodes: %v", err)
	}
}

// TestDelivered checks that a run delivers its best-validation policy, and
// its final policy when it has none.
func TestDelivered(t *testing.T) {
	tr, err := New(smallCartPole(t, 3000, 500), testNets{})
	if err != nil {
		t.Fatal(err)
	}
	if a, best := tr.Delivered(); best || a != tr.Actor() {
		t.Errorf("before any evaluation: Delivered gives best=%v, want the final actor", best)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	ba, _, ok := tr.BestActor()
	a, best := tr.Delivered()
	if !ok || !best || a != ba {
		t.Errorf("after training: Delivered gives best=%v (has best %v), want the best-validation actor", best, ok)
	}
}

// TestValEvery trains the same run with and without validations between
// evaluations (val_every): the training is the same bit for bit (the
// final actor and every evaluation), the looks land between evaluations,
// and the delivered policy is the last maximum over evaluations and looks
// together, its record replaying as checkBest replays one.
func TestValEvery(t *testing.T) {
	run := func(valEvery int) *Trainer {
		cfg := smallCartPole(t, 12000, 4000)
		cfg.ValEvery = valEvery
		return trained(t, cfg)
	}
	base, looked := run(0), run(500)
	if len(base.Looks()) != 0 {
		t.Fatalf("val_every 0 looked %d times", len(base.Looks()))
	}
	if !sameTensors(base.Actor(), looked.Actor()) {
		t.Fatal("val_every changed the training: final actors differ")
	}
	if !slices.EqualFunc(base.History(), looked.History(), func(a, b EvalRecord) bool {
		return a.Step == b.Step && a.Selection == b.Selection && a.Validation == b.Validation && slices.Equal(a.Test, b.Test)
	}) {
		t.Fatal("val_every changed the evaluations")
	}
	looks := looked.Looks()
	if len(looks) < 5 {
		t.Fatalf("%d looks over 12000 steps every 500 (evaluations every 4000)", len(looks))
	}
	evalAt := map[int]bool{}
	for _, r := range looked.History() {
		evalAt[r.Step] = true
	}
	type cand struct {
		step int
		sel  float64
	}
	var all []cand
	for _, r := range looked.History() {
		all = append(all, cand{r.Step, r.Selection})
	}
	for _, l := range looks {
		if evalAt[l.Step] {
			t.Errorf("a look at step %d, where an evaluation validated", l.Step)
		}
		all = append(all, cand{l.Step, l.Selection})
	}
	slices.SortFunc(all, func(a, b cand) int { return a.step - b.step })
	want := all[0]
	for _, c := range all {
		if c.sel >= want.sel {
			want = c
		}
	}
	a, b, ok := looked.BestActor()
	if !ok || b.Step != want.step || b.Validation != want.sel {
		t.Fatalf("delivered step %d validation %v, want the last maximum: step %d validation %v", b.Step, b.Validation, want.step, want.sel)
	}
	checkReplay(t, looked, a, b)
	t.Logf("%d evaluations, %d looks; delivered step %d (a look: %v), validation %v", len(looked.History()), len(looks), b.Step, !evalAt[b.Step], b.Validation)
}
