package multimodal

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/metrics"
)

// synthInputs loads the synthetic set and splits it: tab holds
// standardised age and a one-hot of sex.
func synthInputs(t *testing.T, n int) (train, valid *Inputs, all *Multimodal) {
	dir := t.TempDir()
	writeSynthetic(t, dir, n, 8)
	m, err := LoadHAM10000(dir, LoadOptions{Size: 8, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	tab := data.NewMatrix(len(m.Y), 4)
	age := m.Tab.Col("age")
	sex := m.Tab.Col("sex")
	for i := range m.Y {
		a := 40.0
		if !age.IsMissing(i) {
			a = age.Num[i]
		}
		tab.Set(i, 0, float32((a-40)/20))
		if sex.Codes[i] >= 0 {
			tab.Set(i, 1+int(sex.Codes[i]), 1)
		}
	}
	var tr, va []int
	for i := range m.Y {
		if i%4 == 3 {
			va = append(va, i)
		} else {
			tr = append(tr, i)
		}
	}
	mk := func(idx []int) *Inputs {
		y := make([]float64, len(idx))
		for j, i := range idx {
			y[j] = m.Y[i]
		}
		return &Inputs{Images: m.Images, Rows: idx, Tab: tab.SubsetRows(idx), Y: y}
	}
	return mk(tr), mk(va), m
}

func tinyConfig(image bool, tabular string) Config {
	return Config{Image: image, Tabular: tabular, Channels: []int{4, 8}, ImageEmbed: 8, MLPHidden: []int{16, 8},
		Trees: 16, Depth: 3, TreeEmbed: 4, BatchSize: 16, Epochs: 30, Patience: 5, PretrainEpochs: 10, PretrainPatience: 3,
		LR: 0.01, Workers: 2}
}

func TestVariantsLearnAndRoundTrip(t *testing.T) {
	train, valid, _ := synthInputs(t, 96)
	var enc *Model
	for _, tc := range []struct {
		name    string
		image   bool
		tabular string
		minAcc  float64
	}{
		{"cnn", true, "", 0.6},
		{"mlp", false, "mlp", 0.6},
		{"grande", false, "grande", 0.6},
		{"cnn+mlp", true, "mlp", 0.6},
		{"cnn+grande", true, "grande", 0.6},
		{"cnn+grande fine-tune all", true, "grande", 0.6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyConfig(tc.image, tc.tabular)
			cfg.FineTuneAll = strings.HasSuffix(tc.name, "fine-tune all")
			m := New(cfg)
			if tc.image && tc.tabular != "" {
				if err := m.UseEncoder(enc); err != nil {
					t.Fatal(err)
				}
			}
			epochs := 0
			m.Progress = func(p Progress) { epochs++ }
			if err := m.Fit(context.Background(), train, valid, 3); err != nil {
				t.Fatal(err)
			}
			if epochs == 0 {
				t.Error("no progress reported")
			}
			if tc.name == "cnn" {
				enc = m
			}
			p, err := m.PredictProba(valid)
			if err != nil {
				t.Fatal(err)
			}
			acc := metrics.Accuracy(valid.Y, metrics.Argmax(p.Data, 3))
			t.Logf("%s: validation accuracy %.3f, reports %+v", tc.name, acc, m.Reports)
			if acc < tc.minAcc {
				t.Errorf("accuracy %.3f < %.2f", acc, tc.minAcc)
			}
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			var back Model
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			q, err := back.PredictProba(valid)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Data, q.Data) {
				t.Error("predictions differ after save/load")
			}
		})
	}
}

func TestFitDeterministic(t *testing.T) {
	train, valid, _ := synthInputs(t, 48)
	var outs [][]float32
	for _, workers := range []int{1, 3} {
		cfg := tinyConfig(true, "grande")
		cfg.Workers = workers
		cfg.PretrainEpochs, cfg.Epochs = 2, 3
		m := New(cfg)
		if err := m.Fit(context.Background(), train, valid, 3); err != nil {
			t.Fatal(err)
		}
		p, err := m.PredictProba(valid)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, p.Data)
	}
	if !reflect.DeepEqual(outs[0], outs[1]) {
		t.Error("results depend on the number of workers")
	}
}

func TestFitErrors(t *testing.T) {
	train, valid, _ := synthInputs(t, 24)
	noTab := *train
	noTab.Tab = nil
	badY := *train
	badY.Y = append([]float64(nil), train.Y...)
	badY.Y[2] = 7
	for _, tc := range []struct {
		name string
		cfg  Config
		tr   *Inputs
		want string
	}{
		{"nothing", Config{}, train, "neither an image branch"},
		{"backbone", Config{Tabular: "xgb"}, train, `tabular="xgb": expected one of none, mlp, grande`},
		{"no tab", Config{Tabular: "mlp"}, &noTab, "no tabular rows"},
		{"label", Config{Tabular: "mlp"}, &badY, "label 2 is 7"},
	} {
		err := New(tc.cfg).Fit(context.Background(), tc.tr, valid, 3)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := New(Config{Tabular: "mlp"}).PredictProba(valid); err == nil || !strings.Contains(err.Error(), "not fitted") {
		t.Errorf("unfitted predict: %v", err)
	}
	if _, err := ParseOptions(Config{}, map[string]string{"depht": "3"}); err == nil || !strings.Contains(err.Error(), "unknown option") {
		t.Errorf("unknown option: %v", err)
	}
	c, err := ParseOptions(Config{}, map[string]string{"channels": "8,16", "tabular": "grande", "image": "true"})
	if err != nil || !reflect.DeepEqual(c.Channels, []int{8, 16}) || c.Tabular != "grande" || !c.Image {
		t.Errorf("ParseOptions: %+v %v", c, err)
	}
}

func TestTrainDatasetCSVAndPredictFile(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 40, 8)
	ds, err := LoadCSV(dir+"/ham10000.csv", dir, CSVOptions{LoadOptions: LoadOptions{Size: 8}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ds.Tab.Names(); !reflect.DeepEqual(got, []string{"age", "sex", "localization"}) {
		t.Fatalf("features %v (dx_type, dataset and ids must be dropped)", got)
	}
	if !reflect.DeepEqual(ds.Classes, []string{"akiec", "bcc", "bkl"}) {
		t.Fatalf("classes %v", ds.Classes)
	}
	cfg := tinyConfig(true, "grande")
	cfg.PretrainEpochs, cfg.Epochs = 3, 3
	tr, err := TrainDataset(context.Background(), ds, TrainOptions{Config: cfg, ValidFraction: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/m.json"
	if err := tr.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadTrained(path)
	if err != nil {
		t.Fatal(err)
	}
	row := ds.Tab.Subset([]int{0})
	p1, err := tr.PredictFile(dir+"/images/ISIC_0.png", row)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := back.PredictFile(dir+"/images/ISIC_0.png", row)
	if err != nil {
		t.Fatal(err)
	}
	if len(p1) != 3 || !reflect.DeepEqual(p1, p2) {
		t.Errorf("predictions %v vs %v after load", p1, p2)
	}
	if _, err := LoadCSV(dir+"/ham10000.csv", dir, CSVOptions{Target: "nope"}); err == nil || !strings.Contains(err.Error(), `no column "nope"`) {
		t.Errorf("missing target column: %v", err)
	}
}
