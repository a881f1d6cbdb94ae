package forest

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/rng"
)

// randn returns numpy's RandomState(seed).randn(rows, cols) as float32.
func randn(seed uint32, rows, cols int) *data.Matrix {
	r := rng.New(seed)
	m := data.NewMatrix(rows, cols)
	for i := range m.Data {
		m.Data[i] = float32(r.NormFloat64())
	}
	return m
}

// referenceData is the data of the sklearn reference below: X =
// RandomState(1).randn(300, 6), test rows RandomState(2).randn(20, 6)
// (float32), and three targets computed in float64 from the float32
// values.
func referenceData() (X, Xt *data.Matrix, yb, ym, yr []float64) {
	X, Xt = randn(1, 300, 6), randn(2, 20, 6)
	for i := 0; i < X.Rows; i++ {
		x := X.Row(i)
		v := float64(x[0]) + float64(x[1])
		yb = append(yb, map[bool]float64{true: 1}[v > 0.2])
		ym = append(ym, map[bool]float64{true: 1}[x[2] > 0]+map[bool]float64{true: 1}[float64(x[3]) > 0.5])
		yr = append(yr, float64(x[0])+2*float64(x[4]))
	}
	return
}

// TestMatchesScikitLearn compares with scikit-learn 1.2.1 (numpy 1.24):
//
//	X = np.random.RandomState(1).randn(300, 6).astype(np.float32)
//	Xt = np.random.RandomState(2).randn(20, 6).astype(np.float32)
//	x = X.astype(np.float64)
//	yb = ((x[:,0] + x[:,1]) > 0.2).astype(float)
//	ym = (x[:,2] > 0).astype(int) + (x[:,3] > 0.5).astype(int)
//	yr = x[:,0] + 2*x[:,4]
//	RandomForestClassifier(n_estimators=10, random_state=42).fit(X, yb).predict_proba(Xt)[:, 1]
//	RandomForestClassifier(n_estimators=7, random_state=3, max_depth=4).fit(X, ym).predict_proba(Xt)[:, 2]
//	RandomForestRegressor(n_estimators=5, random_state=42).fit(X, yr).predict(Xt)
//
// with the total node counts of the trees; values are float32(sklearn's).
func TestMatchesScikitLearn(t *testing.T) {
	X, Xt, yb, ym, yr := referenceData()
	for _, tc := range []struct {
		name  string
		cfg   Config
		p     model.Problem
		y     []float64
		nodes int
		want  []float32
	}{
		{"binary", Config{Trees: 10, Seed: 42}, model.Problem{Task: data.Binary, NumClasses: 2}, yb, 552,
			[]float32{0.2, 0.2, 0.0, 0.1, 0.1, 0.6, 0.1, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0, 0.2, 0.0, 0.8, 0.3, 0.0, 0.0, 0.3}},
		{"multiclass", Config{Trees: 7, Seed: 3, MaxDepth: 4}, model.Problem{Task: data.Multiclass, NumClasses: 3}, ym, 151,
			[]float32{0.0, 0.0, 0.06779661029577255, 0.0, 0.0, 0.0, 0.35351088643074036, 0.040816325694322586, 0.06779661029577255, 0.0,
				0.0, 0.8677965998649597, 0.0, 0.0, 0.7555516958236694, 0.8590053915977478, 0.030612245202064514, 0.21978022158145905, 0.0, 0.0}},
		{"regression", Config{Trees: 5, Seed: 42}, model.Problem{Task: data.Regression, NumClasses: 1}, yr, 1813,
			[]float32{-4.419709205627441, 1.8814003467559814, 0.03365029767155647, -0.3031066060066223, -3.319950819015503,
				0.7460381984710693, 0.017037099227309227, -0.2559376358985901, -1.7614995241165161, 0.8162760138511658,
				-4.130223274230957, -2.106058120727539, -4.905470371246338, 2.5426204204559326, -0.948846161365509,
				-3.8766543865203857, 2.445885181427002, 2.4005825519561768, -2.243361234664917, 4.432109832763672}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, workers := range []int{1, 3} {
				tc.cfg.Workers = workers
				f := New(tc.cfg)
				if err := f.Fit(context.Background(), tc.p, &model.Data{X: X, Y: tc.y}, nil); err != nil {
					t.Fatal(err)
				}
				if f.NumNodes() != tc.nodes {
					t.Fatalf("%d nodes, sklearn %d", f.NumNodes(), tc.nodes)
				}
				p, err := f.PredictProba(Xt)
				if err != nil {
					t.Fatal(err)
				}
				for i, w := range tc.want {
					// The trees are scikit-learn's; the prediction averages
					// their leaf values rounded to float32 (the trained
					// form's), so it differs from scikit-learn's float64
					// average by the float32 rounding of the leaf values
					// (≈ 1e−7 of their size; more than the last bit of a
					// small mean of large regression values).
					got := p.At(i, p.Cols-1)
					if d := math.Abs(float64(got - w)); d > 1e-6*math.Max(1, math.Abs(float64(w))) {
						t.Fatalf("workers %d, row %d: %v, sklearn %v", workers, i, got, w)
					}
				}
			}
		})
	}
}

func TestLearnsAndRoundTrips(t *testing.T) {
	X, Xt, yb, _, _ := referenceData()
	k, err := model.LookupKind("random-forest")
	if err != nil {
		t.Fatal(err)
	}
	l, err := k.New(map[string]string{"n_estimators": "50", "max_features": "0.5"}, 7)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Fit(context.Background(), model.Problem{Task: data.Binary, NumClasses: 2}, &model.Data{X: X, Y: yb}, nil); err != nil {
		t.Fatal(err)
	}
	f := l.(*Forest)
	if len(f.Trees) != 50 {
		t.Fatalf("%d trees", len(f.Trees))
	}
	// accuracy on fresh rows of the same rule
	Xn := randn(5, 500, 6)
	p, err := f.PredictProba(Xn)
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for i := 0; i < Xn.Rows; i++ {
		x := Xn.Row(i)
		want := float64(x[0])+float64(x[1]) > 0.2
		if (p.At(i, 1) > 0.5) == want {
			ok++
		}
	}
	if acc := float64(ok) / float64(Xn.Rows); acc < 0.85 {
		t.Fatalf("accuracy %.3f, want ≥ 0.85", acc)
	}
	imp := f.FeatureImportances()
	if imp[0] < imp[2] || imp[1] < imp[3] {
		t.Fatalf("importances %v: x0 and x1 should dominate", imp)
	}
	if d := f.Describe([]string{"a", "b", "c", "d", "e", "f"}, nil); !strings.Contains(d, "50 trees") {
		t.Fatalf("describe: %q", d)
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	back, err := k.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := back.PredictProba(Xt)
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := f.PredictProba(Xt)
	for i := range p1.Data {
		if p1.Data[i] != p2.Data[i] {
			t.Fatalf("prediction %d changed after save/load", i)
		}
	}
	if _, err := k.Unmarshal([]byte(`{"Trees": []}`)); err == nil {
		t.Fatal("empty forest accepted")
	}
}

func TestErrors(t *testing.T) {
	X, _, yb, _, yr := referenceData()
	bin := model.Problem{Task: data.Binary, NumClasses: 2}
	for _, tc := range []struct {
		name string
		cfg  Config
		p    model.Problem
		y    []float64
		want string
	}{
		{"max_features", Config{MaxFeatures: "9"}, bin, yb, "max_features"},
		{"max_features_text", Config{MaxFeatures: "most"}, bin, yb, "max_features"},
		{"depth", Config{MaxDepth: -2}, bin, yb, "depth = -2"},
		{"criterion", Config{Criterion: "hinge"}, bin, yb, "criterion"},
		{"class_weight", Config{ClassWeight: "auto"}, bin, yb, "class_weight"},
		{"regression_weights", Config{ClassWeight: "balanced"}, model.Problem{Task: data.Regression}, yr, "regression"},
		{"seed", Config{Seed: -1}, bin, yb, "seed"},
		{"label", Config{}, bin, yr, "label"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := New(tc.cfg).Fit(context.Background(), tc.p, &model.Data{X: X, Y: tc.y}, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %s", err, tc.want)
			}
		})
	}
	if _, err := New(Config{}).PredictProba(X); err == nil {
		t.Fatal("unfitted forest predicted")
	}
	for _, bad := range []map[string]string{{"nope": "1"}, {"n_estimators": "0"}, {"bootstrap": "perhaps"},
		{"max_depth": "0"}, {"min_samples_split": "0"}, {"min_samples_leaf": "0"}, {"max_features": ""}} {
		if _, err := ParseOptions(bad); err == nil {
			t.Fatalf("%v accepted", bad)
		}
	}
	c, err := ParseOptions(map[string]string{"n_estimators": "20", "max_depth": "none", "bootstrap": "false", "criterion": "entropy", "max_features": "log2"})
	if err != nil || c.Trees != 20 || !c.NoBootstrap || c.Criterion != "entropy" || c.MaxFeatures != "log2" {
		t.Fatalf("%+v %v", c, err)
	}
	if k, _ := (Config{MaxFeatures: "log2"}).maxFeatures(46, false); k != 5 {
		t.Fatalf("log2 of 46 features: %d", k)
	}
	if k, _ := (Config{}).maxFeatures(46, false); k != 6 {
		t.Fatalf("sqrt of 46 features: %d", k)
	}
	if k, _ := (Config{}).maxFeatures(46, true); k != 46 {
		t.Fatalf("regression default: %d", k)
	}
}
