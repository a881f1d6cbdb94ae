package loss

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Inputs of the reference values below.
var (
	binLogits = []float32{-3.0, -0.2, 0.0, 0.7, 4.5, 12.0}
	binLabels = []float64{1, 1, 0, 0, 1, 0}
	mcLogits  = []float32{2.0, -1.0, 0.5, 0.1, 0.2, 0.3, -4.0, 6.0, 1.0, 30.0, -30.0, 0.0}
	mcLabels  = []float64{0, 2, 0, 0}
)

// TestReferenceValues checks batch losses against float64 numpy
// implementations of the Keras / focal_loss / torch formulas, printed by
// /usr/bin/python3 testdata/loss_ref.py (numpy 1.24, sklearn 1.2). The
// tolerance covers the float32 rounding of logits such as −0.2.
func TestReferenceValues(t *testing.T) {
	cases := []struct {
		name   string
		cfg    Config
		logits []float32
		labels []float64
		want   float64
	}{
		{"bce", Config{Task: Binary}, binLogits, binLabels, 2.942352223240468},
		{"focal γ2 α.5 balanced (GR-paper)", GRANDEPaperBinary(nil), binLogits, binLabels, 1.3061052851027328},
		{"focal γ3 (GT-paper binary)", Config{Task: Binary, Kind: Focal, Gamma: 3}, binLogits, binLabels, 2.530549693656471},
		{"focal γ2 α.25 balanced smoothing .1", Config{Task: Binary, Kind: Focal, Gamma: 2, Alpha: 0.25, AlphaBalancing: true, LabelSmoothing: 0.1},
			binLogits, binLabels, 1.4390110462153947},
		{"bce smoothing .2", Config{Task: Binary, LabelSmoothing: 0.2}, binLogits, binLabels, 2.752352223240468},
		{"bce + poly 2", Config{Task: Binary, Poly: 2}, binLogits, binLabels, 4.169544454826824},
		{"bce weights per sample", Config{Task: Binary, ClassWeights: []float64{0.75, 1.5}}, binLogits, binLabels, 2.688985913155842},
		{"bce weights batch scale", Config{Task: Binary, ClassWeights: []float64{0.75, 1.5}, Weighting: BatchScale}, binLogits, binLabels, 3.3101462511455266},
		{"bce weights weighted mean", Config{Task: Binary, ClassWeights: []float64{0.75, 1.5}, Weighting: WeightedMean}, binLogits, binLabels, 2.3902097005829708},
		{"ce", Config{Task: Multiclass, Classes: 3}, mcLogits, mcLabels, 2.812503647108404},
		{"ce smoothing .1", Config{Task: Multiclass, Classes: 3, LabelSmoothing: 0.1}, mcLogits, mcLabels, 3.477503647108404},
		{"sparse focal γ3 on softmax (GT-paper)", GradTreePaperMulticlass(3), mcLogits, mcLabels, 2.5654287108422427},
		{"focal γ2 on logits", Config{Task: Multiclass, Classes: 3, Kind: Focal, Gamma: 2}, mcLogits, mcLabels, 2.6045521060352557},
		{"ce + poly 5", Config{Task: Multiclass, Classes: 3, Poly: 5}, mcLogits, mcLabels, 5.121494234931724},
		{"ce weights per sample", Config{Task: Multiclass, Classes: 3, ClassWeights: []float64{0.5, 2, 1.25}}, mcLogits, mcLabels, 1.5941161075971853},
	}
	for _, tc := range cases {
		f, err := New(tc.cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		grad := make([]float32, len(tc.logits))
		got, err := f.Eval(tc.logits, tc.labels, grad)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(got-tc.want) > 1e-7*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s: loss %.16g, want %.16g", tc.name, got, tc.want)
		}
		if got2, _ := f.Eval(tc.logits, tc.labels, nil); got2 != got {
			t.Errorf("%s: loss without gradient %v != %v", tc.name, got2, got)
		}
	}
}

// configs used by the gradient checks: every kind, option and weighting.
func gradConfigs() []Config {
	cw2 := []float64{0.3, 1.7}
	cw4 := []float64{0.5, 1, 2, 0.25}
	return []Config{
		{Task: Binary},
		{Task: Binary, LabelSmoothing: 0.15, Poly: 1.5},
		{Task: Binary, Kind: Focal, Gamma: 2, Alpha: 0.5, AlphaBalancing: true, ClassWeights: cw2},
		{Task: Binary, Kind: Focal, Gamma: 3, Poly: 2, ClassWeights: cw2, Weighting: BatchScale},
		{Task: Binary, Kind: Focal, Gamma: 0.5, Alpha: 0.25, AlphaBalancing: true, LabelSmoothing: 0.1},
		{Task: Binary, Kind: Focal, Gamma: 0},
		{Task: Multiclass, Classes: 4},
		{Task: Multiclass, Classes: 4, LabelSmoothing: 0.2, Poly: 3, ClassWeights: cw4, Weighting: WeightedMean},
		{Task: Multiclass, Classes: 4, Kind: Focal, Gamma: 2},
		{Task: Multiclass, Classes: 4, Kind: Focal, Gamma: 1.5, Poly: 2, ClassWeights: cw4},
		{Task: Multiclass, Classes: 4, Kind: Focal, Gamma: 0.7},
		{Task: Multiclass, Classes: 4, Kind: Focal, Gamma: 3, ProbabilityInput: true},
		{Task: Multiclass, Classes: 4, Kind: Focal, Gamma: 0.5, ProbabilityInput: true, Poly: 1, ClassWeights: cw4, Weighting: BatchScale},
		{Task: Regression, Kind: MSE},
	}
}

func randomTargets(r *rand.Rand, cfg Config, b int) []float64 {
	y := make([]float64, b)
	for i := range y {
		switch cfg.Task {
		case Binary:
			y[i] = float64(r.IntN(2))
		case Multiclass:
			y[i] = float64(r.IntN(cfg.Classes))
		default:
			y[i] = r.NormFloat64()
		}
	}
	return y
}

// TestSampleGradientFD checks dℓ/dy of every per-sample loss against
// central finite differences in float64, over logits of all magnitudes
// (including ones where the focal_loss clip is active).
func TestSampleGradientFD(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for ci, cfg := range gradConfigs() {
		f, err := New(cfg)
		if err != nil {
			t.Fatalf("config %d: %v", ci, err)
		}
		k := f.Outputs()
		for trial := range 200 {
			scale := []float64{0.1, 1, 4, 20}[trial%4]
			y0 := make([]float64, k)
			for j := range y0 {
				y0[j] = r.NormFloat64() * scale
			}
			tgt := randomTargets(r, cfg, 1)[0]
			copy(f.y, y0)
			f.sample(tgt)
			ana := append([]float64(nil), f.d...)
			for j := range k {
				h := 1e-6 * math.Max(1, math.Abs(y0[j]))
				copy(f.y, y0)
				f.y[j] += h
				lp := f.sample(tgt)
				copy(f.y, y0)
				f.y[j] -= h
				lm := f.sample(tgt)
				num := (lp - lm) / (2 * h)
				if math.Abs(num-ana[j]) > 2e-6*math.Max(1, math.Abs(num)) {
					t.Fatalf("config %d (%+v) trial %d: y %v target %v: dℓ/dy[%d] = %.10g, finite difference %.10g",
						ci, cfg, trial, y0, tgt, j, ana[j], num)
				}
			}
		}
	}
}

// TestEvalGradientFD checks the batch gradient of Eval (reduction, class
// weights, 1/B) by finite differences on float32 logits: steps of 2^−12
// keep the perturbed logits exact in float32.
func TestEvalGradientFD(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for ci, cfg := range gradConfigs() {
		f, _ := New(cfg)
		b := 7
		y := randomTargets(r, cfg, b)
		out := make([]float32, b*f.Outputs())
		for i := range out {
			out[i] = float32(math.Round(r.NormFloat64()*2*1024) / 1024)
		}
		grad := make([]float32, len(out))
		if _, err := f.Eval(out, y, grad); err != nil {
			t.Fatal(err)
		}
		const h = 1.0 / 4096
		for i := range out {
			o := out[i]
			out[i] = o + h
			lp, _ := f.Eval(out, y, nil)
			out[i] = o - h
			lm, _ := f.Eval(out, y, nil)
			out[i] = o
			num := (lp - lm) / (2 * h)
			if math.Abs(num-float64(grad[i])) > 1e-5*math.Max(1, math.Abs(num)) {
				t.Fatalf("config %d (%+v): dL/dout[%d] = %.8g, finite difference %.8g", ci, cfg, i, grad[i], num)
			}
		}
	}
}

// TestMulticlassFocalLimits checks the γ → 0 and clipping edge cases.
func TestMulticlassFocalLimits(t *testing.T) {
	ce, _ := New(Config{Task: Multiclass, Classes: 3})
	fo, _ := New(Config{Task: Multiclass, Classes: 3, Kind: Focal, Gamma: 0})
	fp, _ := New(Config{Task: Multiclass, Classes: 3, Kind: Focal, Gamma: 0, ProbabilityInput: true})
	g1, g2, g3 := make([]float32, 12), make([]float32, 12), make([]float32, 12)
	l1, _ := ce.Eval(mcLogits, mcLabels, g1)
	l2, _ := fo.Eval(mcLogits, mcLabels, g2)
	if math.Abs(l1-l2) > 1e-12 {
		t.Fatalf("focal γ=0 %v != CE %v", l2, l1)
	}
	for i := range g1 {
		if math.Abs(float64(g1[i]-g2[i])) > 1e-7 {
			t.Fatalf("focal γ=0 grad %v != CE grad %v", g2, g1)
		}
	}
	// With probability input the last sample (q_0 = 1, others < 1e−7) is
	// clipped: its loss is −log(clip(1)/Σclip), not 0.
	l3, _ := fp.Eval(mcLogits[9:], mcLabels[3:], g3[:3])
	want := -math.Log((1 - ProbClip) / (1 - ProbClip + 2*ProbClip))
	if math.Abs(l3-want) > 1e-12 {
		t.Fatalf("clipped sample: loss %v, want %v", l3, want)
	}
}

func TestEvalErrors(t *testing.T) {
	bin, _ := New(Config{Task: Binary})
	mc, _ := New(Config{Task: Multiclass, Classes: 3})
	reg, _ := New(Config{Task: Regression, Kind: MSE})
	wm, _ := New(Config{Task: Binary, ClassWeights: []float64{0, 1}, Weighting: WeightedMean})
	cases := []struct {
		name string
		f    *Func
		out  []float32
		y    []float64
		grad []float32
		want string
	}{
		{"empty", bin, nil, nil, nil, "empty"},
		{"length", bin, []float32{1, 2}, []float64{1}, nil, "len(out) = 2"},
		{"grad length", bin, []float32{1}, []float64{1}, make([]float32, 2), "len(grad)"},
		{"binary label", bin, []float32{1, 2}, []float64{1, 0.5}, nil, "sample 1: binary label 0.5"},
		{"class range", mc, make([]float32, 6), []float64{2, 3}, nil, "sample 1: label 3"},
		{"class fraction", mc, make([]float32, 3), []float64{1.5}, nil, "label 1.5"},
		{"class nan", mc, make([]float32, 3), []float64{math.NaN()}, nil, "label NaN"},
		{"regression nan", reg, make([]float32, 1), []float64{math.Inf(1)}, nil, "target +Inf"},
		{"zero weights", wm, []float32{1}, []float64{0}, nil, "sum to 0"},
	}
	for _, tc := range cases {
		if _, err := tc.f.Eval(tc.out, tc.y, tc.grad); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestNewErrors(t *testing.T) {
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{Task: Multiclass, Classes: 1}, "Classes = 1"},
		{Config{Task: Regression}, "want mse"},
		{Config{Task: Regression, Kind: MSE, Poly: 1}, "do not apply"},
		{Config{Task: Binary, Kind: MSE}, "Kind mse"},
		{Config{Task: Binary, Kind: Focal, Gamma: -1}, "Gamma"},
		{Config{Task: Binary, Kind: Focal, Alpha: 2, AlphaBalancing: true}, "Alpha"},
		{Config{Task: Multiclass, Classes: 3, Kind: Focal, LabelSmoothing: 0.1}, "hard labels"},
		{Config{Task: Binary, AlphaBalancing: true}, "focal loss only"},
		{Config{Task: Binary, Kind: Focal, ProbabilityInput: true}, "multiclass focal"},
		{Config{Task: Binary, Poly: math.Inf(1)}, "Poly"},
		{Config{Task: Binary, LabelSmoothing: 1}, "LabelSmoothing"},
		{Config{Task: Binary, ClassWeights: []float64{1}}, "len(ClassWeights) = 1, want 2"},
		{Config{Task: Multiclass, Classes: 3, ClassWeights: []float64{1, -1, 1}}, "ClassWeights[1]"},
		{Config{Task: Binary, Weighting: 9}, "Weighting"},
		{Config{Task: 7}, "Task"},
		{Config{Task: Binary, Kind: 9}, "Kind"},
	}
	for _, tc := range cases {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

func TestUnweightedAndAllocs(t *testing.T) {
	f, _ := New(GRANDEPaperBinary([]float64{0.75, 1.5}))
	u := f.Unweighted()
	if u.Config().ClassWeights != nil || f.Config().ClassWeights == nil {
		t.Fatal("Unweighted kept the weights or dropped the original's")
	}
	lw, _ := f.Eval(binLogits, binLabels, nil)
	lu, _ := u.Eval(binLogits, binLabels, nil)
	if lu != 1.3061052851027328 && math.Abs(lu-1.3061052851027328) > 1e-7 || lw == lu {
		t.Fatalf("unweighted %v, weighted %v", lu, lw)
	}
	grad := make([]float32, len(mcLogits))
	mc, _ := New(GradTreePaperMulticlass(3))
	if n := testing.AllocsPerRun(100, func() { _, _ = mc.Eval(mcLogits, mcLabels, grad) }); n != 0 {
		t.Fatalf("Eval allocates %v times per call", n)
	}
}

func TestBalancedWeights(t *testing.T) {
	// sklearn compute_class_weight('balanced', classes=[0,1,2], y=…), from
	// testdata/loss_ref.py.
	w, err := BalancedWeights([]float64{0, 0, 0, 1, 2, 2, 0, 1, 0, 0}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.5555555555555556, 1.6666666666666667, 1.6666666666666667}
	for i := range want {
		if math.Abs(w[i]-want[i]) > 1e-15 {
			t.Fatalf("weights %v, want %v", w, want)
		}
	}
	for _, tc := range []struct {
		y    []float64
		c    int
		want string
	}{
		{[]float64{0, 1}, 1, "classes = 1"},
		{nil, 2, "no labels"},
		{[]float64{0, 0}, 2, "class 1 does not occur"},
		{[]float64{0, 2}, 2, "label 1 = 2"},
	} {
		if _, err := BalancedWeights(tc.y, tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.y, err, tc.want)
		}
	}
}

func TestStandardizer(t *testing.T) {
	y := []float64{3, -1, 2.5, 10, 0}
	s, err := FitStandardizer(y, Standardize)
	if err != nil {
		t.Fatal(err)
	}
	// numpy mean and (population) std, testdata/loss_ref.py.
	if math.Abs(s.Shift-2.9) > 1e-15 || math.Abs(s.Scale-3.8522720568516444) > 1e-15 {
		t.Fatalf("standardizer %+v, want shift 2.9 scale 3.8522720568516444", s)
	}
	z := make([]float64, len(y))
	s.TransformInto(z, y)
	pred := []float32{0.1, -0.5, 0, 1.5, -1}
	f, _ := New(Config{Task: Regression, Kind: MSE})
	grad := make([]float32, 5)
	l, err := f.Eval(pred, z, grad)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(l-0.09152184361808607) > 1e-7 {
		t.Fatalf("mse %v, want 0.09152184361808607", l)
	}
	back := make([]float64, len(y))
	s.InverseInto(back, []float32{float32(z[0]), float32(z[1]), float32(z[2]), float32(z[3]), float32(z[4])})
	for i := range y {
		if math.Abs(back[i]-y[i]) > 1e-5 {
			t.Fatalf("inverse %v, want %v", back, y)
		}
	}
	for _, mode := range []ScaleMode{MinMax, Log} {
		s, err := FitStandardizer(y[:4], mode)
		if err != nil {
			if mode == Log {
				continue
			}
			t.Fatal(err)
		}
		for _, v := range y[:4] {
			if got := s.Inverse(s.Transform(v)); math.Abs(got-v) > 1e-12 {
				t.Fatalf("%v: round trip of %v gave %v", mode, v, got)
			}
		}
	}
	if mm, _ := FitStandardizer(y, MinMax); mm.Transform(10) != 1 || mm.Transform(-1) != 0 {
		t.Fatalf("min-max %+v", mm)
	}
	if c, _ := FitStandardizer([]float64{4, 4}, Standardize); c.Scale != 1 || c.Transform(4) != 0 {
		t.Fatalf("constant target: %+v", c)
	}
	if lg, _ := FitStandardizer([]float64{1, 9}, Log); math.Abs(lg.Inverse(lg.Transform(9))-9) > 1e-12 {
		t.Fatalf("log round trip")
	}
	for _, tc := range []struct {
		y    []float64
		mode ScaleMode
		want string
	}{
		{nil, Standardize, "no targets"},
		{[]float64{1, math.NaN()}, Standardize, "target 1 = NaN"},
		{[]float64{1, -1}, Log, "target 1 = -1"},
		{[]float64{1}, 9, "unknown mode"},
	} {
		if _, err := FitStandardizer(tc.y, tc.mode); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %v: err = %v, want %q", tc.y, tc.mode, err, tc.want)
		}
	}
}

func TestNames(t *testing.T) {
	for _, s := range []fmt.Stringer{Binary, Multiclass, Regression, Task(9), CrossEntropy, Focal, MSE, Kind(9), Standardize, MinMax, Log, ScaleMode(9)} {
		if s.String() == "" {
			t.Errorf("%T %d: empty name", s, s)
		}
	}
}

// TestEvalBCEMatchesGeneral checks the plain binary cross-entropy loop of
// Eval against the per-sample definition (binary), bit for bit, on logits
// of every size and both labels.
func TestEvalBCEMatchesGeneral(t *testing.T) {
	f, err := New(Config{Task: Binary})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 4))
	n := 1000
	out := make([]float32, n)
	y := make([]float64, n)
	for i := range out {
		out[i] = float32(r.NormFloat64() * []float64{0.01, 1, 10, 100}[i%4])
		y[i] = float64(r.IntN(2))
	}
	out[0], out[1], out[2] = 0, float32(math.Copysign(0, -1)), 1e-30
	grad := make([]float32, n)
	l, err := f.Eval(out, y, grad)
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	for i, v := range out {
		li, di := f.binary(float64(v), y[i])
		want += (1 / float64(n)) * li
		if g := float32((1 / float64(n)) * di); math.Float32bits(g) != math.Float32bits(grad[i]) {
			t.Fatalf("sample %d: gradient %v, want %v", i, grad[i], g)
		}
	}
	if math.Float64bits(l) != math.Float64bits(want) {
		t.Fatalf("loss %v, want %v", l, want)
	}
}
