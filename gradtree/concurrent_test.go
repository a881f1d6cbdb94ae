package gradtree

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
)

// A loaded model serves concurrent predictions (the prediction server does
// not serialise them); run with -race to check.
func TestConcurrentPredictions(t *testing.T) {
	tr, va := synthetic(400, 3)
	m := New(Config{Depth: 3, Restarts: 1, Patience: 5, MaxEpochs: 20})
	if err := m.Fit(context.Background(), model.Problem{Task: data.Binary, NumClasses: 2}, tr, va); err != nil {
		t.Fatal(err)
	}
	want, err := m.PredictProba(va.X)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var loaded Model
	if err := json.Unmarshal(b, &loaded); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			got, err := loaded.PredictProba(va.X)
			if err != nil {
				errs <- err
				return
			}
			for i := range got.Data {
				if got.Data[i] != want.Data[i] {
					errs <- errMismatch
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

var errMismatch = errors.New("concurrent prediction differs from the sequential one")
