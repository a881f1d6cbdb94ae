package grande

import (
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/rng"
)

// TestStepAllocations: a training step in steady state allocates nothing
// (the kernel's workspaces, the dropout mask's and the optimiser's
// parallel helpers are reused), at the reference configuration's shape
// with fewer trees.
func TestStepAllocations(t *testing.T) {
	const n, features = 1024, 32
	x, y := benchData(n, features, 1)
	vx, vy := benchData(64, features, 2)
	m := &Model{Task: data.Binary, Features: features, Outputs: 1, Classes: 2}
	c := Config{Trees: 128, Depth: 5, BatchSize: 256, Dropout: 0.2, Loss: "crossentropy"}.Defaults(data.Binary)
	m.Config = c
	lc, err := lossConfig(c, data.Binary, 1, y)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.newRun(c, 42, lc, 256, SubsetSize(c.SelectedVariables, features), x, y, vx, vy)
	if err != nil {
		t.Fatal(err)
	}
	order := rng.New(3).Perm(n)
	i := 0
	step := func() {
		lo := (i * 256) % (n - 256)
		i++
		if _, err := r.Step(order[lo : lo+256]); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		step()
	}
	if a := testing.AllocsPerRun(10, step); a != 0 {
		t.Errorf("%v allocations per step: expected 0", a)
	}
}
