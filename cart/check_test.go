package cart

import (
	"math"
	"strings"
	"testing"
)

// TestCheckNodeValues: a damaged node value is rejected at load by Check
// for every node (here a leaf the root's test may never send a row to),
// with an error naming the node and what was expected.
func TestCheckNodeValues(t *testing.T) {
	tree := func(classes int, leaf []float64) *Tree {
		v := func(x ...float64) []float64 { return x }
		root, other := v(0.5, 0.5), v(1, 0)
		if classes == 0 {
			root, other = v(3), v(1)
		}
		return &Tree{NumFeatures: 2, NumClasses: classes, Nodes: []Node{
			{Feature: 0, Threshold: 1e30, Left: 1, Right: 2, Value: root, N: 4, WeightedN: 4, Impurity: 0.5},
			{Feature: -1, Left: -1, Right: -1, Value: other, N: 3, WeightedN: 3},
			{Feature: -1, Left: -1, Right: -1, Value: leaf, N: 1, WeightedN: 1},
		}}
	}
	for _, c := range []struct {
		name    string
		classes int
		leaf    []float64
		want    string // "" = accepted
	}{
		{"probabilities", 2, []float64{0.25, 0.75}, ""},
		{"negative and above 1", 2, []float64{-5, 7}, "node 2 value[0] = -5: expected a class probability in [0, 1]"},
		{"not summing to 1", 2, []float64{0.3, 0.3}, "node 2 values [0.3 0.3] sum to 0.6: expected class probabilities summing to 1"},
		{"NaN", 2, []float64{math.NaN(), 1}, "node 2 value[0] = NaN: expected a finite value"},
		{"regression value", 0, []float64{-12.5}, ""},
		{"regression Inf", 0, []float64{math.Inf(1)}, "node 2 value[0] = +Inf: expected a finite value"},
		{"wrong length", 3, []float64{0.5, 0.5}, "node 0 holds 2 values, expected 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := tree(c.classes, c.leaf).Check()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, expected one containing %q", err, c.want)
			}
		})
	}
}
