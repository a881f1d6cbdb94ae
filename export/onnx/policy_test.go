package onnx

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/export"
	"github.com/gdt-ml/gdt/export/exporttest"
	"github.com/gdt-ml/gdt/rl/env"
	_ "github.com/gdt-ml/gdt/rl/env/all"
	"github.com/gdt-ml/gdt/rl/methods"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/ppo"
	"github.com/gdt-ml/gdt/rng"
)

// policyCase is a SYMPOL policy to export: trained for steps environment
// steps (0: the initial tree, whose random splits and leaves exercise
// every part of the graph as well).
type policyCase struct {
	env   string
	steps int
}

var policyCases = []policyCase{
	{"CartPole-v1", 3000},
	{"Acrobot-v1", 0},
	{"LunarLander-v2", 0},
	{"MiniGrid-DoorKey-5x5-v0", 0},
	{"Pendulum-v1", 0},
	{"MountainCarContinuous-v0", 0},
}

func trainPolicy(t *testing.T, c policyCase) *ppo.Trainer {
	t.Helper()
	cfg, err := methods.Preset(c.env, ppo.MethodSYMPOL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.TotalSteps, cfg.CriticWidth, cfg.EvalEpisodes = max(c.steps, 1), 16, 0
	tr, err := methods.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c.steps > 0 {
		if err := tr.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// observations returns the observations the policy acts on in n greedy
// episodes (at most limit), then, for every split of tree, observations
// placed exactly on and just below its threshold, then random ones within
// the bounds.
func observations(t *testing.T, tr *ppo.Trainer, tree *policy.TreeActor, n, limit int) []float32 {
	t.Helper()
	spec := tr.Spec()
	F := spec.Observation.Dim
	var xs []float32
	var stop error
	_, err := ppo.Returns(tr.Maker(), 777, n, tr.Actor(), func(obs []float32) {
		if len(xs) < limit*F {
			xs = append(xs, obs...)
		}
	})
	if err != nil || stop != nil {
		t.Fatal(err, stop)
	}
	if len(xs) < 10*F {
		t.Fatalf("only %d observations from %d episodes", len(xs)/F, n)
	}
	plain, err := tree.Plain()
	if err != nil {
		t.Fatal(err)
	}
	base := append([]float32(nil), xs[:F]...)
	for _, nd := range plain.Nodes {
		if nd.IsLeaf() {
			continue
		}
		for _, v := range []float32{nd.Threshold, math.Nextafter32(nd.Threshold, float32(math.Inf(-1)))} {
			x := append([]float32(nil), base...)
			x[nd.Feature] = v
			xs = append(xs, x...)
		}
	}
	r := rng.New(5)
	for k := 0; k < 200; k++ {
		for j := 0; j < F; j++ {
			lo, hi := float64(-1), float64(1)
			if spec.Observation.Low != nil {
				lo, hi = math.Max(float64(spec.Observation.Low[j]), -10), math.Min(float64(spec.Observation.High[j]), 10)
			}
			xs = append(xs, float32(lo+(hi-lo)*r.Float64()))
		}
	}
	return xs
}

// TestPolicyExportMatchesPolicy exports SYMPOL policies of every action
// kind with each pruning and checks, with the operator evaluator, that the
// graph's action is the policy's greedy action on observations from real
// episodes, on split thresholds and at random within the bounds (and,
// without the merging of PruneFull, that the logits or means are the
// policy's outputs bit for bit).
func TestPolicyExportMatchesPolicy(t *testing.T) {
	for _, c := range policyCases {
		t.Run(c.env, func(t *testing.T) {
			tr := trainPolicy(t, c)
			ta := tr.Actor().(*policy.TreeActor)
			spec := tr.Spec()
			F := spec.Observation.Dim
			xs := observations(t, tr, ta, 5, 1500)
			N := len(xs) / F
			A := ta.Out()
			want := make([]float32, N*A)
			if err := ta.Predict(xs, N, want); err != nil {
				t.Fatal(err)
			}
			for _, prune := range []string{export.PruneFull, export.PruneRanges, export.PruneNone, export.PruneVisited} {
				var p *export.Policy
				var err error
				if prune == export.PruneVisited { // pruned with the very observations checked below
					p, err = export.PolicyOfVisited(ta, spec, &env.Visits{Obs: xs, Rows: N, Features: F, Episodes: 1})
				} else {
					p, err = export.PolicyOf(ta, spec, prune)
				}
				if err != nil {
					t.Fatal(err)
				}
				p.Method, p.Steps = "sympol", tr.Step()
				m, err := BuildPolicy(p)
				if err != nil {
					t.Fatal(err)
				}
				dm, err := decodeModel(m.Marshal())
				if err != nil {
					t.Fatal(err)
				}
				in := newTensor(TypeFloat, []int{N, F})
				copy(in.f, xs)
				out, err := evaluate(&dm.Graph, map[string]*tensor{PolicyInput: in})
				if err != nil {
					t.Fatal(err)
				}
				checked, actions := 0, map[int64]bool{}
				for i := 0; i < N; i++ {
					x := xs[i*F : (i+1)*F]
					if !p.Inside(x) {
						continue
					}
					checked++
					o := want[i*A : (i+1)*A]
					if spec.Action.Discrete() {
						if got, w := out[OutputAction].i[i], int64(policy.Argmax(o)); got != w {
							t.Fatalf("%s, row %d %v: ONNX action %d, policy %d", prune, i, x, got, w)
						}
						actions[out[OutputAction].i[i]] = true
						if out[OutputActionName].s[i] != spec.ActionNames[policy.Argmax(o)] {
							t.Fatalf("%s, row %d: action name %q", prune, i, out[OutputActionName].s[i])
						}
						var sum float64
						for a := 0; a < A; a++ {
							sum += float64(out[OutputProbabilities].f[i*A+a])
						}
						if math.Abs(sum-1) > 1e-5 {
							t.Fatalf("%s, row %d: probabilities sum to %v", prune, i, sum)
						}
					}
					if (prune == export.PruneFull || prune == export.PruneVisited) && spec.Action.Discrete() {
						continue
					}
					name := OutputLogits
					if !spec.Action.Discrete() {
						name = OutputAction
					}
					for a := 0; a < A; a++ {
						if got := out[name].f[i*A+a]; got != o[a] {
							t.Fatalf("%s, row %d: ONNX %s[%d] = %v, policy %v", prune, i, name, a, got, o[a])
						}
					}
				}
				if spec.Action.Discrete() && len(actions) < 2 {
					t.Errorf("%s: the policy takes one action on all %d observations: a weak test", prune, checked)
				}
				if checked < N/2 {
					t.Errorf("%s: only %d of %d observations within the bounds", prune, checked, N)
				}
				if !strings.Contains(m.Doc, "raw observation") || !strings.Contains(m.Doc, spec.FeatureNames[0]) {
					t.Errorf("doc string: %s", m.Doc)
				}
			}
		})
	}
}

// TestPolicyONNXChecker runs onnx.checker.check_model(full_check=True) on a
// discrete and a continuous policy export.
func TestPolicyONNXChecker(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	var paths []string
	for _, c := range []policyCase{{"CartPole-v1", 0}, {"Pendulum-v1", 0}} {
		tr := trainPolicy(t, c)
		p, err := export.PolicyOf(tr.Actor(), tr.Spec(), "")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, c.env+".onnx")
		if err := WritePolicy(p, path); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	script := `
import sys, onnx
for path in sys.argv[1:]:
    onnx.checker.check_model(onnx.load(path), full_check=True)
    print("ok", path)
`
	out, err := exec.Command(py, append([]string{"-c", script}, paths...)...).CombinedOutput()
	if err != nil || strings.Count(string(out), "ok ") != len(paths) {
		t.Fatalf("onnx.checker: %v\n%s", err, out)
	}
}

// TestPolicyCheckpoint compares the export of the policy in the checkpoint
// named by GDT_POLICY_CHECKPOINT (a `gdt rl train` run) with the policy on
// 25 real episodes; it is skipped without it.
func TestPolicyCheckpoint(t *testing.T) {
	path := os.Getenv("GDT_POLICY_CHECKPOINT")
	if path == "" {
		t.Skip("set GDT_POLICY_CHECKPOINT to a gdt rl train checkpoint to check its export on real episodes")
	}
	tr, err := methods.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ta, ok := tr.Actor().(*policy.TreeActor)
	if !ok {
		t.Skipf("%s holds a %s policy, not a tree", path, tr.Config().Method)
	}
	spec := tr.Spec()
	p, err := export.PolicyOf(ta, spec, "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := BuildPolicy(p)
	if err != nil {
		t.Fatal(err)
	}
	dm, err := decodeModel(m.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	F, A := spec.Observation.Dim, ta.Out()
	var xs []float32
	if _, err := ppo.Returns(tr.Maker(), 123456, 25, ta, func(obs []float32) { xs = append(xs, obs...) }); err != nil {
		t.Fatal(err)
	}
	N := len(xs) / F
	in := newTensor(TypeFloat, []int{N, F})
	copy(in.f, xs)
	out, err := evaluate(&dm.Graph, map[string]*tensor{PolicyInput: in})
	if err != nil {
		t.Fatal(err)
	}
	o := make([]float32, N*A)
	if err := ta.Predict(xs, N, o); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < N; i++ {
		if spec.Action.Discrete() {
			if out[OutputAction].i[i] != int64(policy.Argmax(o[i*A:(i+1)*A])) {
				t.Fatalf("observation %d %v: ONNX action %d, policy %d", i, xs[i*F:(i+1)*F], out[OutputAction].i[i], policy.Argmax(o[i*A:(i+1)*A]))
			}
		} else {
			for a := 0; a < A; a++ {
				if out[OutputAction].f[i*A+a] != o[i*A+a] {
					t.Fatalf("observation %d: ONNX action %v, policy %v", i, out[OutputAction].f[i*A:(i+1)*A], o[i*A:(i+1)*A])
				}
			}
		}
	}
	t.Logf("%s: %d-node tree, identical actions on %d observations of 25 episodes", spec.ID, p.Tree.NumNodes(), N)
}

func TestPolicyExportRejects(t *testing.T) {
	tr := trainPolicy(t, policyCase{"CartPole-v1", 0})
	if _, err := export.PolicyOf(tr.Actor(), tr.Spec(), "sometimes"); err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Errorf("unknown pruning: %v", err)
	}
	if _, err := BuildPolicy(&export.Policy{}); err == nil {
		t.Error("an empty policy was exported")
	}
	cfg, _ := methods.Preset("CartPole-v1", ppo.MethodMLP)
	cfg.TotalSteps = 1
	mlp, err := methods.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := export.PolicyOf(mlp.Actor(), mlp.Spec(), ""); err == nil || !strings.Contains(err.Error(), "only SYMPOL") {
		t.Errorf("MLP policy: %v", err)
	}
}

// ortPolicyScript runs ONNX Runtime (onnxruntime-node) on policy exports:
// every case is a model and a [N, F] float observation matrix; it prints
// the action and logits (or mean action) of every case.
const ortPolicyScript = `
const ort = require(require('path').join(process.argv[2], 'onnxruntime-node'));
const fs = require('fs');
(async () => {
  const cases = JSON.parse(fs.readFileSync(process.argv[3]));
  const out = [];
  for (const c of cases) {
    const s = await ort.InferenceSession.create(c.model);
    const r = await s.run({observation: new ort.Tensor('float32', Float32Array.from(c.x), [c.n, c.f])});
    const o = {};
    for (const [k, v] of Object.entries(r)) o[k] = Array.from(v.data, x => typeof x === 'bigint' ? Number(x) : x);
    out.push(o);
  }
  process.stdout.write(JSON.stringify(out));
})().catch(e => { console.error(e); process.exit(1); });
`

// TestPolicyONNXRuntime runs policy exports in ONNX Runtime and compares
// the actions (and logits or means) with the policies'. It needs node and
// onnxruntime-node (GDT_ORT_NODE_MODULES, as TestONNXRuntime).
func TestPolicyONNXRuntime(t *testing.T) {
	node, mods := exporttest.ORT(t)
	dir := t.TempDir()
	type ortCase struct {
		Model string    `json:"model"`
		X     []float32 `json:"x"`
		N     int       `json:"n"`
		F     int       `json:"f"`
	}
	var cases []ortCase
	var want [][]float32
	for i, c := range policyCases {
		tr := trainPolicy(t, c)
		ta := tr.Actor().(*policy.TreeActor)
		p, err := export.PolicyOf(ta, tr.Spec(), export.PruneNone)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "p"+string(rune('a'+i))+".onnx")
		if err := WritePolicy(p, path); err != nil {
			t.Fatal(err)
		}
		xs := observations(t, tr, ta, 3, 500)
		F := tr.Spec().Observation.Dim
		o := make([]float32, len(xs)/F*ta.Out())
		if err := ta.Predict(xs, len(xs)/F, o); err != nil {
			t.Fatal(err)
		}
		cases, want = append(cases, ortCase{Model: path, X: xs, N: len(xs) / F, F: F}), append(want, o)
	}
	results := exporttest.RunORT(t, node, mods, dir, ortPolicyScript, cases)
	for i, c := range policyCases {
		o, r, N := want[i], results[i], cases[i].N
		A := len(o) / N
		values, actions := 0, 0
		key := OutputLogits
		if _, ok := r[OutputLogits]; !ok {
			key = OutputAction
		}
		for k, v := range r[key] {
			if float32(v.(float64)) != o[k] {
				values++
			}
		}
		if key == OutputLogits {
			for n := 0; n < N; n++ {
				if int(r[OutputAction][n].(float64)) != policy.Argmax(o[n*A:(n+1)*A]) {
					actions++
				}
			}
		}
		t.Logf("%s: %d observations, %d of %d %s and %d actions differ from the policy", c.env, N, values, len(r[key]), key, actions)
		if values > 0 || actions > 0 || len(r[key]) != len(o) {
			t.Errorf("%s: ONNX Runtime disagrees with the policy", c.env)
		}
	}
}

// TestPolicyExportScaledObservations checks a policy trained on scaled
// observations (LunarLander, spec §1.5): the graph takes the raw
// observation, scales it in float32 as training did, and gives the
// policy's greedy action; Act and Inside take raw observations too.
func TestPolicyExportScaledObservations(t *testing.T) {
	tr := trainPolicy(t, policyCase{"LunarLander-v2", 0})
	cfg := tr.Config()
	if !cfg.ScaleObs {
		t.Fatal("the LunarLander preset does not scale observations")
	}
	sc, ok := env.ScalingOf(cfg.Env)
	if !ok {
		t.Fatal("no registered scaling")
	}
	ta := tr.Actor().(*policy.TreeActor)
	spec := tr.Spec()
	F, A := spec.Observation.Dim, ta.Out()
	// Raw observations of greedy episodes of the policy.
	m, err := env.MakerOf(cfg.Env)
	if err != nil {
		t.Fatal(err)
	}
	e := m()
	var raw []float32
	obs, scaled, out, act := make([]float32, F), make([]float32, F), make([]float32, A), make([]float32, 1)
	for seed := uint64(1); seed <= 3; seed++ {
		e.Seed(seed)
		e.Reset(obs)
		for step := 0; step < 300; step++ {
			raw = append(raw, obs...)
			sc.Apply(scaled, obs)
			if err := ta.Predict(scaled, 1, out); err != nil {
				t.Fatal(err)
			}
			act[0] = float32(policy.Argmax(out))
			if _, done := e.Step(act, obs); done {
				break
			}
		}
	}
	N := len(raw) / F
	want := make([]float32, N*A)
	xs := make([]float32, len(raw))
	for i := 0; i < N; i++ {
		sc.Apply(xs[i*F:(i+1)*F], raw[i*F:(i+1)*F])
	}
	if err := ta.Predict(xs, N, want); err != nil {
		t.Fatal(err)
	}
	for _, prune := range []string{export.PruneFull, export.PruneNone} {
		p, err := export.PolicyOf(ta, spec, prune)
		if err != nil {
			t.Fatal(err)
		}
		p.Scaling = &sc
		mdl, err := BuildPolicy(p)
		if err != nil {
			t.Fatal(err)
		}
		dm, err := decodeModel(mdl.Marshal())
		if err != nil {
			t.Fatal(err)
		}
		in := newTensor(TypeFloat, []int{N, F})
		copy(in.f, raw)
		res, err := evaluate(&dm.Graph, map[string]*tensor{PolicyInput: in})
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		goAct := make([]float32, 1)
		for i := 0; i < N; i++ {
			x := raw[i*F : (i+1)*F]
			if !p.Inside(x) {
				continue
			}
			checked++
			w := int64(policy.Argmax(want[i*A : (i+1)*A]))
			if got := res[OutputAction].i[i]; got != w {
				t.Fatalf("%s, row %d raw %v: ONNX action %d, policy %d", prune, i, x, got, w)
			}
			p.Act(x, goAct)
			if int64(goAct[0]) != w {
				t.Fatalf("%s, row %d: Policy.Act %v, policy %d", prune, i, goAct[0], w)
			}
		}
		if checked < N/2 {
			t.Fatalf("%s: only %d of %d raw observations inside the bounds", prune, checked, N)
		}
	}
	// Without the scaling the graph would read raw values as scaled ones:
	// make sure the test can tell (some action differs).
	p, _ := export.PolicyOf(ta, spec, export.PruneNone)
	mdl, _ := BuildPolicy(p)
	dm, _ := decodeModel(mdl.Marshal())
	in := newTensor(TypeFloat, []int{N, F})
	copy(in.f, raw)
	res, err := evaluate(&dm.Graph, map[string]*tensor{PolicyInput: in})
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for i := 0; i < N; i++ {
		if res[OutputAction].i[i] != int64(policy.Argmax(want[i*A:(i+1)*A])) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the unscaled graph agrees everywhere: the test cannot detect a missing scaling")
	}
}
