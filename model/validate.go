package model

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/modelfile"
	"github.com/gdt-ml/gdt/preprocess"
)

// checkHeader checks what a model file says about its task, classes and
// input columns against each other and the fitted pipeline, before the
// learner section is decoded: the classes a classification task needs
// (binary: exactly 2, multiclass: at least 2, distinct), none for a
// regression, and the inputs matching the pipeline's input columns by
// name and kind.
func checkHeader(f *modelfile.File, task data.Task, pipe *preprocess.Pipeline) error {
	switch task {
	case data.Regression:
		if len(f.Classes) != 0 {
			return fmt.Errorf("classes: %d names for task %q: expected none", len(f.Classes), f.Task)
		}
	case data.Binary:
		if len(f.Classes) != 2 {
			return fmt.Errorf("classes: %d names for task %q: expected 2", len(f.Classes), f.Task)
		}
	default:
		if len(f.Classes) < 2 {
			return fmt.Errorf("classes: %d names for task %q: expected at least 2", len(f.Classes), f.Task)
		}
	}
	seen := map[string]bool{}
	for i, c := range f.Classes {
		if seen[c] {
			return fmt.Errorf("classes[%d] = %q is repeated: expected distinct class names", i, c)
		}
		seen[c] = true
	}
	if err := data.CheckNAValues(f.NAValues); err != nil {
		return err
	}
	if err := pipe.Validate(); err != nil {
		return err
	}
	if len(f.Inputs) != len(pipe.Inputs) {
		return fmt.Errorf("inputs: %d columns: expected the pipeline's %d", len(f.Inputs), len(pipe.Inputs))
	}
	for i, c := range f.Inputs {
		ic := pipe.Inputs[i]
		if c.Name != ic.Name || c.Kind != ic.Kind.String() {
			return fmt.Errorf("inputs[%d]: %s column %q: expected the pipeline's %s column %q", i, c.Kind, c.Name, ic.Kind, ic.Name)
		}
	}
	return nil
}

// probe predicts two rows (all zeros, all ones) with the loaded
// learner and checks the answer's shape — one column per class, or one
// for a regression — and that it is finite (class probabilities in [0, 1]
// summing to 1): what a learner section that
// disagrees with the file's task, classes or pipeline width gives away. A
// panic inside the learner is turned into an error.
func probe(t *Trained) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("model: predicting a probe row failed: %v", r)
		}
	}()
	F := t.Pipeline.NumFeatures()
	x := data.NewMatrix(2, F)
	for j := 0; j < F; j++ {
		x.Data[F+j] = 1
	}
	p, err := t.Learner.PredictProba(x)
	if err != nil {
		return fmt.Errorf("model: predicting a probe row over the pipeline's %d features: %w", F, err)
	}
	want := len(t.Classes)
	if t.Task == data.Regression {
		want = 1
	}
	if p == nil || p.Rows != 2 || p.Cols != want || len(p.Data) != p.Rows*p.Cols {
		got := "nothing"
		if p != nil {
			got = fmt.Sprintf("%d×%d values", p.Rows, p.Cols)
		}
		return fmt.Errorf("model: the %s model predicts %s for 2 rows: expected %d column(s) (task %s, %d classes)", t.Spec.Kind, got, want, t.Task, len(t.Classes))
	}
	for i, v := range p.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("model: the %s model predicts %v for probe row %d: expected finite values", t.Spec.Kind, v, i/want)
		}
	}
	if t.Task == data.Regression {
		return nil
	}
	for r := 0; r < p.Rows; r++ {
		sum := 0.0
		for _, v := range p.Row(r) {
			if v < 0 || v > 1 {
				return fmt.Errorf("model: the %s model predicts the class probability %v for probe row %d: expected values in [0, 1]", t.Spec.Kind, v, r)
			}
			sum += float64(v)
		}
		if math.Abs(sum-1) > 1e-3 {
			return fmt.Errorf("model: the %s model's class probabilities for probe row %d sum to %v: expected 1", t.Spec.Kind, r, sum)
		}
	}
	return nil
}
