package ppo

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gdt-ml/gdt/rl/policy"
)

var (
	fuzzSeedsOnce sync.Once
	fuzzSeeds     [][]byte
)

// trainedCheckpoints trains two tiny CartPole runs to the end (3,000
// steps: SYMPOL with an MLP critic, the MLP actor with a tree critic; both
// with validation evaluations, so they hold a best policy) and returns
// their checkpoint files' bytes.
func trainedCheckpoints(t testing.TB) [][]byte {
	fuzzSeedsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gdt-ppo-fuzz-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		for _, method := range []string{MethodSYMPOL, MethodMLP} {
			cfg, err := Preset("CartPole-v1", method)
			if err != nil {
				t.Fatal(err)
			}
			cfg.TotalSteps, cfg.NSteps, cfg.EvalFreq, cfg.EvalEpisodes, cfg.Depth = 3000, 128, 1000, 2, 3
			cfg.CriticWidth, cfg.CriticLayers, cfg.MLPWidth, cfg.MLPLayers = 8, 1, 8, 2
			if method == MethodMLP {
				cfg.Critic = CriticTree
			}
			tr := trained(t, cfg)
			if _, _, ok := tr.BestActor(); !ok {
				t.Fatalf("%s: the run kept no best policy", method)
			}
			p := filepath.Join(dir, method+".gob")
			if err := tr.Save(p); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			fuzzSeeds = append(fuzzSeeds, b)
		}
	})
	if len(fuzzSeeds) != 2 {
		t.Fatal("training the seed checkpoints failed")
	}
	return fuzzSeeds
}

// FuzzLoadCheckpoint: whatever the bytes, loading a checkpoint gives a
// trainer or an error naming the file, never a panic or an allocation
// sized by a damaged count; a trainer that loads serves its policies as
// gdt rl eval, show and export use them (a greedy forward pass; the pruned
// tree of a tree actor). Seeds: two tiny real trainings
// (trainedCheckpoints), one saved with episodes in progress
// (smallCheckpoint), and their truncations.
func FuzzLoadCheckpoint(f *testing.F) {
	for _, b := range trainedCheckpoints(f) {
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	mid := smallCheckpoint(f)
	f.Add(mid)
	f.Add(mid[:len(mid)-len(mid)/4])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		const name = "fuzz.gob"
		tr, err := load(bytes.NewReader(b), name, testNets{}, nil)
		if err != nil {
			if !strings.HasPrefix(err.Error(), name+": ") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		actors := []policy.Actor{tr.Actor()}
		if a, _, ok := tr.BestActor(); ok {
			actors = append(actors, a)
		}
		spec := tr.Spec()
		x := make([]float32, spec.Observation.Dim)
		for _, a := range actors {
			out := make([]float32, a.Out())
			if err := a.Predict(x, 1, out); err != nil {
				continue
			}
			if ta, ok := a.(*policy.TreeActor); ok {
				ta.Pruned(tr.PruneBounds())
			}
		}
	})
}
