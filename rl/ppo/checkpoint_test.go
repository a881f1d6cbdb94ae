package ppo

import (
	"bytes"
	"encoding/gob"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/internal/corrupt"
	"github.com/gdt-ml/gdt/rl/env"
)

// smallCheckpoint trains a tiny CartPole SYMPOL run for a few iterations
// (with a validation evaluation, so it holds a best policy) and returns
// its checkpoint file's bytes.
func smallCheckpoint(t testing.TB) []byte {
	t.Helper()
	cfg, err := Preset("CartPole-v1", MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.TotalSteps, cfg.CriticWidth, cfg.CriticLayers, cfg.NSteps, cfg.EvalFreq, cfg.EvalEpisodes = 3000, 16, 1, 128, 1000, 2
	tr, err := New(cfg, testNets{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := tr.Iterate(); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "ck.gob")
	if err := tr.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readGobUint reads a gob unsigned integer at b[i:].
func readGobUint(b []byte, i int) (uint64, int) {
	if b[i] < 128 {
		return uint64(b[i]), i + 1
	}
	n := int(-int8(b[i]))
	var x uint64
	for _, c := range b[i+1 : i+1+n] {
		x = x<<8 | uint64(c)
	}
	return x, i + 1 + n
}

// withMapCount returns the gob stream of v (whose only map holds the one
// entry "ZZZZ") with that map's entry count set to n, the message length
// mended so that the decoder reaches the count.
func withMapCount(t *testing.T, v any, n uint64) []byte {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	at := bytes.Index(b, []byte{1, 4, 'Z', 'Z', 'Z', 'Z'})
	if at < 0 {
		t.Fatal("map entry not found in the stream")
	}
	var out []byte
	for i := 0; i < len(b); {
		size, start := readGobUint(b, i)
		msg := b[start : start+int(size)]
		if at >= start && at < start+int(size) {
			k := at - start
			msg = append(corrupt.GobUint(append([]byte(nil), msg[:k]...), n), msg[k+1:]...)
		}
		out = append(corrupt.GobUint(out, uint64(len(msg))), msg...)
		i = start + int(size)
	}
	return out
}

// TestCheckpointMapCount: gob sizes a map it creates by the entry count
// in the stream; a damaged count must not allocate by it (the maps are
// made before decoding, readCheckpoint). 2²² entries would ask for about
// 200 MB; the load must fail with an error, allocating a few MB at most.
func TestCheckpointMapCount(t *testing.T) {
	entry := map[string][]float32{"ZZZZ": {1}}
	type best struct{ Actor map[string][]float32 }
	for _, c := range []struct {
		name string
		v    any
	}{
		{"Actor", struct {
			Version int
			Actor   map[string][]float32
		}{1, entry}},
		{"Critic", struct {
			Version int
			Critic  map[string][]float32
		}{1, entry}},
		{"Best.Actor", struct {
			Version int
			Best    *best
		}{1, &best{entry}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := withMapCount(t, c.v, 1<<22)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := readCheckpoint(bytes.NewReader(b))
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), "not a gdt rl checkpoint") {
				t.Fatalf("error %v: want one saying the file is not a checkpoint", err)
			}
			if d := after.TotalAlloc - before.TotalAlloc; d > 8<<20 {
				t.Fatalf("decoding a map count of 2^22 allocated %d MB", d>>20)
			}
		})
	}
}

// busy returns the state of an environment instance of ck with an
// episode in progress.
func busy(ck *checkpoint) *env.EpisodeState {
	for i := range ck.Envs.Envs {
		if len(ck.Envs.Envs[i].Actions) > 0 {
			return &ck.Envs.Envs[i]
		}
	}
	panic("no episode in progress")
}

// TestCheckpointDamage: a checkpoint damaged field by field gives an error
// naming the file and the field, before anything is built from it.
func TestCheckpointDamage(t *testing.T) {
	good := smallCheckpoint(t)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, err := Load(write("good.gob", good), testNets{}, nil); err != nil {
		t.Fatalf("the undamaged checkpoint: %v", err)
	}
	cases := []struct {
		name   string
		damage func(ck *checkpoint)
		want   string
	}{
		{"version", func(ck *checkpoint) { ck.Version = 4 }, "checkpoint version 4"},
		{"no environment state", func(ck *checkpoint) { ck.Envs = nil }, "Envs missing"},
		{"instances", func(ck *checkpoint) { ck.Envs.Envs = ck.Envs.Envs[1:] }, "environment state: 6 instances, want 7"},
		{"NaN return", func(ck *checkpoint) { ck.Envs.Envs[2].Return = math.NaN() }, "Envs[2].Return[0] = NaN"},
		{"NaN observation", func(ck *checkpoint) { ck.Envs.Envs[1].Obs[0] = float32(math.Inf(1)) }, "Envs[1].Obs[0] = +Inf"},
		{"short observation", func(ck *checkpoint) { ck.Envs.Envs[1].Obs = ck.Envs.Envs[1].Obs[:2] }, "instance 1: Obs holds 2 values, want 4"},
		{"other observation", func(ck *checkpoint) { ck.Envs.Envs[0].Obs[3] += 1 }, "instance 0: Obs[3] = "},
		{"other return", func(ck *checkpoint) { ck.Envs.Envs[0].Return += 1 }, "instance 0: Return "},
		{"bad action", func(ck *checkpoint) { busy(ck).Actions[0] = 7 }, "Actions[0]: environment \"CartPole-v1\": action 7"},
		{"NaN action", func(ck *checkpoint) { busy(ck).Actions[0] = float32(math.NaN()) }, ".Actions[0] = NaN"},
		{"other action", func(ck *checkpoint) { a := busy(ck).Actions; a[len(a)-1] = 1 - a[len(a)-1] }, "but replaying the saved actions gives"},
		{"long episode", func(ck *checkpoint) { ck.Envs.Envs[0].Actions = make([]float32, 500) }, "instance 0: Actions holds 500 steps, an episode ends at the time limit 500"},
		{"random state", func(ck *checkpoint) { ck.Envs.Envs[3].RandState = ck.Envs.Envs[3].RandState[:5] }, "instance 3: RandState: "},
		{"other random state", func(ck *checkpoint) { ck.Envs.Envs[3].RandState[9] ^= 1 }, "instance 3: "},
		{"NaN selection", func(ck *checkpoint) { ck.History[0].Selection = math.Inf(-1) }, "History[0][1] = -Inf"},
		{"negative spread", func(ck *checkpoint) { ck.History[0].SelectionSD = -1 }, "History[0]: SelectionSD = -1"},
		{"negative RecentN", func(ck *checkpoint) { ck.RecentN = -1 }, "RecentN = -1"},
		{"NaN seconds", func(ck *checkpoint) { ck.TrainSec = math.NaN() }, "TrainSec = NaN"},
		{"NaN history", func(ck *checkpoint) { ck.History[0].Validation = math.NaN() }, "History[0][0] = NaN"},
		{"NaN actor value", func(ck *checkpoint) { ck.Actor["split_values"][3] = float32(math.Inf(1)) }, `actor tensor "split_values"[3] = +Inf`},
		{"NaN critic value", func(ck *checkpoint) {
			for _, v := range ck.Critic {
				v[0] = float32(math.NaN())
			}
		}, "critic tensor"},
		{"negative second moment", func(ck *checkpoint) { ck.ActorOpt.Groups[0].Params[0].V[0] = -1 }, "expected Adam's second moment ≥ 0"},
		{"best step", func(ck *checkpoint) { ck.Best.Step = -5 }, "best policy: iteration"},
		{"NaN best actor", func(ck *checkpoint) { ck.Best.Actor["leaf_array"][0] = float32(math.NaN()) }, `best-policy actor tensor "leaf_array"[0] = NaN`},
		{"huge critic width", func(ck *checkpoint) { ck.Config.CriticWidth = 1 << 30 }, "describes a critic of at least"},
		{"huge critic depth", func(ck *checkpoint) { ck.Config.CriticLayers = 1 << 40 }, "describes a critic of at least"},
		{"deeper tree", func(ck *checkpoint) { ck.Config.Depth = 16 }, "describes an actor of at least"},
		{"MLP actor", func(ck *checkpoint) { ck.Config.Method, ck.Config.MLPWidth, ck.Config.MLPLayers = MethodMLP, 1<<20, 3 }, "describes an actor of at least"},
		{"many environments", func(ck *checkpoint) { ck.Config.NEnvs = 1 << 20 }, "n_envs = 1048576: expected at most 4096"},
		{"long rollouts", func(ck *checkpoint) { ck.Config.NSteps = 1 << 30 }, "n_steps = 1073741824"},
		{"rollout buffers", func(ck *checkpoint) { ck.Config.NEnvs, ck.Config.NSteps = 4096, 1<<20 }, "rollout buffers of"},
		{"depth out of range", func(ck *checkpoint) { ck.Config.Depth = 40 }, "depth"},
		{"unknown environment", func(ck *checkpoint) { ck.Config.Env = "Nope-v0" }, "Nope-v0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ck, err := readCheckpoint(bytes.NewReader(good))
			if err != nil {
				t.Fatal(err)
			}
			if ck.Best == nil {
				t.Fatal("the checkpoint has no best policy")
			}
			c.damage(ck)
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(ck); err != nil {
				t.Fatal(err)
			}
			p := write(strings.ReplaceAll(c.name, " ", "-")+".gob", buf.Bytes())
			_, err = Load(p, testNets{}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), p+": ") {
				t.Fatalf("error %v: want %q, prefixed by the file name", err, c.want)
			}
		})
	}
	for _, n := range []int{0, 1, len(good) / 3, len(good) - 1} {
		p := write("truncated.gob", good[:n])
		if _, err := Load(p, testNets{}, nil); err == nil || !strings.HasPrefix(err.Error(), p+": not a gdt rl checkpoint") {
			t.Errorf("truncated at %d: error %v", n, err)
		}
	}
}

// TestValidateSizeLimits: training refuses the configurations a
// checkpoint could not be loaded with (the same limits, checkSizes), with
// an error naming the hyperparameter, and accepts the largest sizes within
// them.
func TestValidateSizeLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(c *Config)
		want string // "" : accepted
	}{
		{"envs at the limit", func(c *Config) { c.NEnvs, c.NSteps = maxEnvs, 8 }, ""},
		{"too many envs", func(c *Config) { c.NEnvs = maxEnvs + 1 }, "hyperparameter n_envs = 4097: expected at most 4096"},
		{"too long rollouts", func(c *Config) { c.NSteps = maxSteps + 1 }, "hyperparameter n_steps = 16777217: expected at most 16777216"},
		{"rollout buffers", func(c *Config) { c.NEnvs, c.NSteps = maxEnvs, 1<<16 }, "n_envs = 4096, n_steps = 65536"},
		{"a2c's whole-rollout batch", func(c *Config) { c.NEnvs, c.NSteps = 1024, 1<<15; _ = c.SetAlgorithm(AlgoA2C) }, "rollout buffers of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Preset("CartPole-v1", MethodSYMPOL)
			if err != nil {
				t.Fatal(err)
			}
			c.TotalSteps = 1 << 40
			tc.set(&c)
			err = c.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate: %v; want %q", err, tc.want)
			}
			if _, err := New(c, testNets{}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New: %v; want %q", err, tc.want)
			}
		})
	}
}

// TestCheckpointFreshEpisodes: a version 2 checkpoint (no episodes saved)
// and a version 3 one loaded with another n_envs load with fresh episodes.
func TestCheckpointFreshEpisodes(t *testing.T) {
	good := smallCheckpoint(t)
	for _, c := range []struct {
		name   string
		damage func(ck *checkpoint)
		modify func(cfg *Config) error
	}{
		{"version 2", func(ck *checkpoint) { ck.Version, ck.Envs = 2, nil }, nil},
		{"version 2 with a state", func(ck *checkpoint) { ck.Version = 2; busy(ck).Actions[0] = 9 }, nil}, // ignored
		{"other n_envs", func(ck *checkpoint) {}, func(cfg *Config) error { cfg.NEnvs++; return nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			ck, err := readCheckpoint(bytes.NewReader(good))
			if err != nil {
				t.Fatal(err)
			}
			c.damage(ck)
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(ck); err != nil {
				t.Fatal(err)
			}
			tr, err := load(&buf, "ck.gob", testNets{}, c.modify)
			if err != nil {
				t.Fatal(err)
			}
			s, err := tr.vec.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range s.Envs {
				if len(e.Actions) != 0 {
					t.Fatalf("instance %d: %d actions: not a fresh episode", i, len(e.Actions))
				}
			}
			if _, err := tr.Iterate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
