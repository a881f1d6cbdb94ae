package hpo

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/c-bata/goptuna"
	"github.com/google/go-cmp/cmp"
)

// testSpace is a small synthetic space.
func testSpace() *Space {
	return &Space{Name: "test", Kind: "synthetic", Params: []Param{
		{Name: "x", Type: Float, Low: -5, High: 5},
		{Name: "y", Type: LogFloat, Low: 0.01, High: 10},
		{Name: "n", Type: Int, Low: 1, High: 8},
		cat("c", "a", "b", "c"),
	}, Fixed: map[string]string{"fixed": "1"}}
}

// synthetic is an objective over testSpace with steps folds, each sleeping
// pause.
func synthetic(steps int, pause time.Duration) Objective {
	return func(ctx context.Context, opts map[string]string, report func(int, float64) error) (float64, error) {
		x := atof(opts["x"])
		y := atof(opts["y"])
		v := -(x-1)*(x-1) - math.Log(y)*math.Log(y)
		if opts["c"] == "b" {
			v += 0.5
		}
		for s := 0; s < steps; s++ {
			select {
			case <-ctx.Done():
				return 0, ctx.Err()
			case <-time.After(pause):
			}
			if err := report(s, v); err != nil {
				return v, err
			}
		}
		return v, nil
	}
}

func atof(s string) float64 {
	f, _ := parseFloat(s)
	return f
}

func TestJournalReplayEqualsLive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "study.jsonl")
	live, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	study, err := NewStudy(live, "replay", testSpace(), map[string]string{AttrTrials: "12"}, Config{Seed: 7, Pruner: "median"})
	if err != nil {
		t.Fatal(err)
	}
	if err := study.Work(context.Background(), 12, synthetic(3, 0)); err != nil {
		t.Fatal(err)
	}
	// A trial left running, a failed one, NaN/Inf values and attributes.
	id, err := live.CreateNewTrial(study.G.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := live.SetTrialIntermediateValue(id, 0, math.NaN()); err != nil {
		t.Fatal(err)
	}
	if err := live.SetTrialUserAttr(id, "note", "running"); err != nil {
		t.Fatal(err)
	}
	id2, _ := live.CreateNewTrial(study.G.ID)
	_ = live.SetTrialValue(id2, math.Inf(-1))
	_ = live.SetTrialState(id2, goptuna.TrialStateFail)
	if err := live.SetTrialValue(id2, 1); err != goptuna.ErrTrialCannotBeUpdated {
		t.Errorf("SetTrialValue on a failed trial = %v, want ErrTrialCannotBeUpdated", err)
	}
	if err := study.G.EnqueueTrial(map[string]float64{"x": 1}); err != nil {
		t.Fatal(err)
	}

	replayed, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer replayed.Close()
	a, err := live.GetAllTrials(study.G.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := replayed.GetAllTrials(study.G.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, b, cmp.Comparer(func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) })); diff != "" {
		t.Errorf("replayed trials differ from live state (-live +replayed):\n%s", diff)
	}
	sa, _ := live.GetAllStudySummaries()
	sb, _ := replayed.GetAllStudySummaries()
	if diff := cmp.Diff(sa, sb); diff != "" {
		t.Errorf("study summaries differ (-live +replayed):\n%s", diff)
	}
	loaded, err := LoadStudy(replayed, "replay", Config{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(study.Space, loaded.Space); diff != "" {
		t.Errorf("loaded space differs:\n%s", diff)
	}
	c, _ := loaded.Counts()
	if c.Complete+c.Pruned != 12 || c.Running != 1 || c.Fail != 1 || c.Waiting != 1 || len(a) != 15 {
		t.Errorf("counts %+v for %d trials", c, len(a))
	}
	best, err := loaded.Best()
	if err != nil {
		t.Fatal(err)
	}
	if best.Options["fixed"] != "1" || best.Options["c"] == "" {
		t.Errorf("best options %v lack fixed or categorical values", best.Options)
	}
}

func TestJournalTornLineAndErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	sid, err := j.CreateNewStudy("s")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.CreateNewStudy("s"); err == nil {
		t.Error("duplicate study name accepted")
	}
	j.Close()
	// A writer killed mid-line leaves a fragment without newline.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"op":"trial","study":1,"tri`)
	f.Close()
	j, err = OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := j.CreateNewTrial(sid)
	if err != nil || id != 0 {
		t.Fatalf("CreateNewTrial after torn line = %d, %v", id, err)
	}
	j.Close()
	j, err = OpenJournal(path)
	if err != nil {
		t.Fatalf("reopen after the torn line was cut: %v", err)
	}
	if tr, err := j.GetAllTrials(sid); err != nil || len(tr) != 1 {
		t.Errorf("trials %v, %v", tr, err)
	}
	j.Close()
	// A corrupt line is reported with file and line number.
	os.WriteFile(path, []byte("{\"op\":\"study\",\"study\":1,\"name\":\"s\"}\nnot json\n"), 0o644)
	_, err = OpenJournal(path)
	if err == nil || !strings.Contains(err.Error(), path+":2:") {
		t.Errorf("corrupt journal error %v, want one naming %s:2", err, path)
	}
}

func TestJournalReapDeadOwner(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	sid, _ := j.CreateNewStudy("s")
	// A trial owned by a dead process of this host, one owned by another
	// host whose lease expired, one owned by another host still fresh, and
	// one of ours.
	me := Self()
	dead := Owner{Host: me.Host, PID: deadPID(t), Token: "x"}
	other := Owner{Host: me.Host + "-elsewhere", PID: 1, Token: "y"}
	old := now().Add(-time.Hour)
	err = j.locked(true, func() error {
		return j.write(
			&jRecord{Op: opTrial, Study: sid, Trial: 0, Owner: &dead},
			&jRecord{Op: opTrial, Study: sid, Trial: 1, Owner: &other, Time: old},
			&jRecord{Op: opTrial, Study: sid, Trial: 2, Owner: &other},
			&jRecord{Op: opTrial, Study: sid, Trial: 3, Owner: &me},
		)
	})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := j.ReapStale(sid, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{0, 1}, ids); diff != "" {
		t.Errorf("reaped %v, want [0 1]", ids)
	}
	tr, _ := j.GetTrial(0)
	if tr.State != goptuna.TrialStateFail || !strings.Contains(tr.SystemAttrs[FailReasonAttr], "gone") {
		t.Errorf("trial 0: state %v, reason %q", tr.State, tr.SystemAttrs[FailReasonAttr])
	}
	if err := j.Heartbeat(0); err != goptuna.ErrTrialCannotBeUpdated {
		t.Errorf("heartbeat of a reaped trial = %v", err)
	}
	if err := j.Heartbeat(3); err != nil {
		t.Errorf("heartbeat of our trial = %v", err)
	}
}

// deadPID returns the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	for pid := 4_000_000; pid > 1000; pid -= 7919 {
		if processGone(pid) {
			return pid
		}
	}
	t.Skip("no free PID found")
	return 0
}

func TestWorkBudgetAndBest(t *testing.T) {
	for _, sampler := range []string{"tpe", "random", "cmaes"} {
		t.Run(sampler, func(t *testing.T) {
			j, err := OpenJournal(filepath.Join(t.TempDir(), "j.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			var events []Event
			s, err := NewStudy(j, "w", testSpace(), nil, Config{Sampler: sampler, Seed: 3, Pruner: "sha", Progress: func(e Event) { events = append(events, e) }})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Work(context.Background(), 10, synthetic(4, 0)); err != nil {
				t.Fatal(err)
			}
			c, _ := s.Counts()
			if c.Complete+c.Pruned != 10 || c.Running != 0 || c.Complete == 0 {
				t.Errorf("counts %+v, want 10 complete or pruned", c)
			}
			if len(events) != c.Complete+c.Pruned {
				t.Errorf("%d events for %+v", len(events), c)
			}
			b, err := s.Best()
			if err != nil {
				t.Fatal(err)
			}
			if b.Value > 0.5+1e-9 {
				t.Errorf("best %v above the maximum", b.Value)
			}
		})
	}
}

func TestWorkStopsOnRepeatedFailures(t *testing.T) {
	j, err := OpenJournal(filepath.Join(t.TempDir(), "j.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	s, err := NewStudy(j, "f", testSpace(), nil, Config{Seed: 1, MaxFailures: 3})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Work(context.Background(), 10, func(context.Context, map[string]string, func(int, float64) error) (float64, error) {
		return 0, os.ErrNotExist
	})
	if err == nil || !strings.Contains(err.Error(), "3 trials in a row failed") {
		t.Errorf("Work = %v", err)
	}
	c, _ := s.Counts()
	if c.Fail != 3 || c.Running != 0 {
		t.Errorf("counts %+v", c)
	}
}

// TestWorkReproducible checks that one worker with a fixed sampler seed
// proposes the same configurations (random search and CMA-ES).
func TestWorkReproducible(t *testing.T) {
	for _, sampler := range []string{"random", "cmaes"} {
		params := func() []map[string]interface{} {
			j, err := OpenJournal(filepath.Join(t.TempDir(), "j.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			s, err := NewStudy(j, "r", testSpace(), nil, Config{Seed: 11, Pruner: "none", Sampler: sampler})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Work(context.Background(), 14, synthetic(1, 0)); err != nil {
				t.Fatal(err)
			}
			tr, _ := s.G.GetTrials()
			var out []map[string]interface{}
			for _, x := range tr {
				out = append(out, x.Params)
			}
			return out
		}
		if diff := cmp.Diff(params(), params()); diff != "" {
			t.Errorf("%s: same seed, different configurations:\n%s", sampler, diff)
		}
	}
}
