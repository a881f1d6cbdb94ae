package nn

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/rng"
	"github.com/gdt-ml/gdt/tree"
)

func buildStateNet(seed uint64) Module {
	c := must(NewConv2D(Shape{C: 2, H: 4, W: 4}, 3, 3, 1, 1, HeInit(), seed))
	bn := must(NewBatchNorm2D(c.OutShape(), 0, 0))
	g := must(NewGlobalAvgPool(c.OutShape()))
	img := must(NewSequential(c, bn, g))
	tr := must(NewTree(TreeConfig{Kernel: tree.Config{Trees: 2, Depth: 2, Features: 3, Outputs: 2, Split: tree.Softsign, Weights: tree.LeafWeights},
		Init: tree.InitNormal, Seed: seed}))
	cat := must(NewConcat(img, tr))
	return must(NewSequential(cat, must(NewDense(5, 2, GlorotInit(), seed))))
}

func TestStateRoundTrip(t *testing.T) {
	a := buildStateNet(1)
	x := normals(rng.New(1), 4*a.In())
	a.Forward(x, 4, true) // moves the running statistics
	js, err := json.Marshal(SaveState(a))
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(js, &st); err != nil {
		t.Fatal(err)
	}
	b := buildStateNet(2)
	if err := LoadState(b, &st); err != nil {
		t.Fatal(err)
	}
	ya := append([]float32(nil), a.Forward(x, 4, false)...)
	yb := b.Forward(x, 4, false)
	for i := range ya {
		if ya[i] != yb[i] || math.IsNaN(float64(ya[i])) {
			t.Fatalf("output %d: %v after reload, want %v", i, yb[i], ya[i])
		}
	}
	if len(st.Buffers) != 2 || st.Buffers[0].Name != "0.0.1.running_mean" {
		t.Fatalf("buffers %+v", st.Buffers)
	}
	// mismatches are errors naming the tensor
	bad := st
	bad.Params = st.Params[1:]
	if err := LoadState(b, &bad); err == nil || !strings.Contains(err.Error(), st.Params[0].Name) {
		t.Errorf("missing tensor: %v", err)
	}
	bad.Params = append([]Tensor{{Name: st.Params[0].Name, Data: st.Params[0].Data[1:]}}, st.Params[1:]...)
	if err := LoadState(b, &bad); err == nil || !strings.Contains(err.Error(), "values") {
		t.Errorf("short tensor: %v", err)
	}
	var f Float32s
	if err := json.Unmarshal([]byte(`"AAA="`), &f); err == nil {
		t.Error("3 bytes: no error")
	}
}
