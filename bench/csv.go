package bench

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/gdt-ml/gdt/data"
)

// csvHeader is the column order of the results file.
var csvHeader = []string{"suite", "dataset", "task", "model", "trial", "seed",
	"f1_macro", "accuracy", "balanced_accuracy", "roc_auc", "r2", "mse",
	"fit_seconds", "predict_seconds", "n_nodes", "n_train", "n_test", "error", "valid_f1_macro", "fit_cpu_seconds"}

// WriteCSV writes results as CSV with a header row.
func WriteCSV(w io.Writer, rs []Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }
	for _, r := range rs {
		rec := []string{r.Suite, r.Dataset, r.Task, r.Model, strconv.Itoa(r.Trial), strconv.Itoa(r.Seed),
			f(r.F1Macro), f(r.Accuracy), f(r.BalancedAccuracy), f(r.ROCAUC), f(r.R2), f(r.MSE),
			strconv.FormatFloat(r.FitSeconds, 'f', 4, 64), strconv.FormatFloat(r.PredictSeconds, 'f', 5, 64),
			strconv.Itoa(r.NNodes), strconv.Itoa(r.NTrain), strconv.Itoa(r.NTest), r.Err, f(r.ValidF1Macro), strconv.FormatFloat(r.FitCPUSeconds, 'f', 4, 64)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads a results file written by WriteCSV (used to resume a run
// and to rebuild tables). name is used in error messages.
func ReadCSV(r io.Reader, name string) ([]Result, error) {
	kc, err := data.NewKeyedCSV(r, name, "gdt bench results file", "suite", "dataset", "model", "trial", "f1_macro")
	if err != nil {
		return nil, err
	}
	var out []Result
	for {
		ok, err := kc.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		var r Result
		r.Suite, r.Dataset, r.Task, r.Model, r.Err = kc.Get("suite"), kc.Get("dataset"), kc.Get("task"), kc.Get("model"), kc.Get("error")
		ints := []struct {
			k string
			p *int
		}{{"trial", &r.Trial}, {"seed", &r.Seed}, {"n_nodes", &r.NNodes}, {"n_train", &r.NTrain}, {"n_test", &r.NTest}}
		for _, f := range ints {
			if *f.p, err = kc.Int(f.k); err != nil {
				return nil, err
			}
		}
		floats := []struct {
			k string
			p *float64
		}{{"f1_macro", &r.F1Macro}, {"accuracy", &r.Accuracy}, {"balanced_accuracy", &r.BalancedAccuracy}, {"roc_auc", &r.ROCAUC},
			{"valid_f1_macro", &r.ValidF1Macro}, {"fit_seconds", &r.FitSeconds}, {"fit_cpu_seconds", &r.FitCPUSeconds}, {"predict_seconds", &r.PredictSeconds}, {"r2", &r.R2}, {"mse", &r.MSE}}
		for _, f := range floats {
			if *f.p, err = kc.Float(f.k, 0); err != nil {
				return nil, err
			}
		}
		out = append(out, r)
	}
}
