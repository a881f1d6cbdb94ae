package ensemble

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// FuzzDecode decodes untrusted JSON into an Ensemble: Validate either
// rejects it with an error or the ensemble compiles, and then routing,
// Shares and Predict run without a panic.
func FuzzDecode(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, m := range []*Ensemble{randomComplete(r, 3, 2, 2, 2, LeafWeights, 1), randomIrregular(r, 3, 1, 3, TreeWeights), randomIrregular(r, 2, 2, 1, Mean)} {
		b, err := json.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"features":1,"outputs":1,"weighting":"mean","roots":[0],"feature":[0,-1,-1],"threshold":[0,0,0],"left":[1,-1,-1],"right":[2,-1,-1],"value":[0,1,2]}`))
	f.Add([]byte(`{"features":1,"outputs":1,"weighting":"mean","roots":[0],"feature":[0,-1],"threshold":[0,0],"left":[1,-1],"right":[0,-1],"value":[0,1]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Ensemble
		if json.Unmarshal(b, &m) != nil || m.Validate(0) != nil {
			return
		}
		if m.Features > 1000 || m.Outputs > 100 {
			return
		}
		p, err := m.Compile(m.Features)
		if err != nil {
			t.Fatalf("a valid ensemble did not compile: %v", err)
		}
		rows := Block + 3
		x := make([]float32, rows*m.Features)
		for i := range x {
			x[i] = float32(i%7) - 3
		}
		out := make([]float32, rows*m.Outputs)
		if err := p.Predict(x, rows, out, 2); err != nil {
			t.Fatal(err)
		}
		a := make([]float64, m.Trees())
		if err := m.Shares(x[:m.Features], a); err != nil {
			t.Fatal(err)
		}
		for e := range a {
			m.Path(e, x[:m.Features])
		}
	})
}
