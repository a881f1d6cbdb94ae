package interpret

// Test helpers: a display tree routes through its trained form.

// leafOf is the node of t that x reaches (Tree.LeafOf; panics on a bad
// tree, which the tests build themselves).
func leafOf(t *Tree, x []float32) int {
	l, err := t.LeafOf(x)
	if err != nil {
		panic(err)
	}
	return l
}

// predictOf is the value of the leaf of t that x reaches.
func predictOf(t *Tree, x []float32) []float32 { return t.Nodes[leafOf(t, x)].Value }

// pathOf is the path of x in t.
func pathOf(t *Tree, x []float32) []int {
	p, err := t.PathOf(x)
	if err != nil {
		panic(err)
	}
	return p
}
