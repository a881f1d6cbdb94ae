package onnx

import (
	"encoding/binary"
	"fmt"
	"math"
)

// An evaluator of the operators the exported graphs use, following the
// ONNX operator specifications literally (sums in index order, each
// operation rounded to its tensor type).

type tensor struct {
	dtype int32
	shape []int
	f     []float32
	d     []float64
	i     []int64
	s     []string
}

func (t *tensor) size() int {
	n := 1
	for _, d := range t.shape {
		n *= d
	}
	return n
}

// num returns element k as float64 (float, double, int64).
func (t *tensor) num(k int) float64 {
	switch t.dtype {
	case TypeFloat:
		return float64(t.f[k])
	case TypeDouble:
		return t.d[k]
	case TypeInt64:
		return float64(t.i[k])
	}
	panic("num of a string tensor")
}

func newTensor(dtype int32, shape []int) *tensor {
	t := &tensor{dtype: dtype, shape: append([]int(nil), shape...)}
	n := t.size()
	switch dtype {
	case TypeFloat:
		t.f = make([]float32, n)
	case TypeDouble:
		t.d = make([]float64, n)
	case TypeInt64:
		t.i = make([]int64, n)
	case TypeString:
		t.s = make([]string, n)
	}
	return t
}

func fromProto(p *Tensor) (*tensor, error) {
	shape := make([]int, len(p.Dims))
	for i, d := range p.Dims {
		shape[i] = int(d)
	}
	t := newTensor(p.DataType, shape)
	n := t.size()
	switch p.DataType {
	case TypeDouble:
		if len(p.Raw) != 8*n {
			return nil, fmt.Errorf("tensor %s: %d bytes for %d doubles", p.Name, len(p.Raw), n)
		}
		for k := range t.d {
			t.d[k] = math.Float64frombits(binary.LittleEndian.Uint64(p.Raw[8*k:]))
		}
	case TypeFloat:
		if len(p.Raw) != 4*n {
			return nil, fmt.Errorf("tensor %s: %d bytes for %d floats", p.Name, len(p.Raw), n)
		}
		for k := range t.f {
			t.f[k] = math.Float32frombits(binary.LittleEndian.Uint32(p.Raw[4*k:]))
		}
	case TypeInt64:
		if len(p.Raw) != 8*n {
			return nil, fmt.Errorf("tensor %s: %d bytes for %d int64", p.Name, len(p.Raw), n)
		}
		for k := range t.i {
			t.i[k] = int64(binary.LittleEndian.Uint64(p.Raw[8*k:]))
		}
	default:
		return nil, fmt.Errorf("tensor %s: unsupported type %d", p.Name, p.DataType)
	}
	return t, nil
}

type attrs map[string]*Attr

func (a attrs) int(name string, def int64) int64 {
	if x, ok := a[name]; ok {
		return x.I
	}
	return def
}

func (a attrs) str(name string) string {
	if x, ok := a[name]; ok {
		return string(x.S)
	}
	return ""
}

func (a attrs) strs(name string) []string {
	x, ok := a[name]
	if !ok {
		return nil
	}
	out := make([]string, len(x.Strings))
	for i, s := range x.Strings {
		out[i] = string(s)
	}
	return out
}

// evaluate runs graph g on the named inputs and returns every value.
func evaluate(g *Graph, inputs map[string]*tensor) (map[string]*tensor, error) {
	env := map[string]*tensor{}
	for k, v := range inputs {
		env[k] = v
	}
	for i := range g.Initializers {
		t, err := fromProto(&g.Initializers[i])
		if err != nil {
			return nil, err
		}
		env[g.Initializers[i].Name] = t
	}
	for _, in := range g.Inputs {
		if env[in.Name] == nil {
			return nil, fmt.Errorf("input %q not given", in.Name)
		}
	}
	for _, n := range g.Nodes {
		args := make([]*tensor, len(n.Inputs))
		for i, name := range n.Inputs {
			if args[i] = env[name]; args[i] == nil {
				return nil, fmt.Errorf("node %s (%s): input %q is not computed", n.Name, n.OpType, name)
			}
		}
		a := attrs{}
		for i := range n.Attrs {
			a[n.Attrs[i].Name] = &n.Attrs[i]
		}
		outs, err := run(n.OpType, n.Domain, args, a)
		if err != nil {
			return nil, fmt.Errorf("node %s (%s): %w", n.Name, n.OpType, err)
		}
		if len(outs) < len(n.Outputs) {
			return nil, fmt.Errorf("node %s (%s): %d outputs, %d declared", n.Name, n.OpType, len(outs), len(n.Outputs))
		}
		for i, name := range n.Outputs {
			env[name] = outs[i]
		}
	}
	return env, nil
}

func run(op, domain string, in []*tensor, a attrs) ([]*tensor, error) {
	switch op {
	case "Identity":
		return []*tensor{in[0]}, nil
	case "Cast":
		return []*tensor{cast(in[0], int32(a.int("to", 0)))}, nil
	case "Concat":
		return concat(in, int(a.int("axis", 0)))
	case "LabelEncoder":
		return labelEncoder(in[0], a)
	case "TreeEnsembleRegressor", "TreeEnsembleClassifier":
		return treeEnsemble(op, in[0], a)
	case "Slice":
		return slice(in)
	case "Reshape":
		return reshape(in[0], in[1])
	case "Unsqueeze":
		t := *in[0]
		ax := int(in[1].i[0])
		t.shape = append(append(append([]int(nil), t.shape[:ax]...), 1), t.shape[ax:]...)
		return []*tensor{&t}, nil
	case "Add", "Sub", "Mul", "Div":
		return binary2(op, in[0], in[1])
	case "Exp", "Sigmoid":
		x := in[0]
		if x.dtype != TypeDouble {
			return nil, fmt.Errorf("%s on type %d: the exports use double", op, x.dtype)
		}
		out := newTensor(TypeDouble, x.shape)
		for k, v := range x.d {
			if op == "Exp" {
				out.d[k] = math.Exp(v)
			} else {
				out.d[k] = 1 / (1 + math.Exp(-v))
			}
		}
		return []*tensor{out}, nil
	case "ReduceSum", "ReduceMax":
		var axes []int64
		if op == "ReduceMax" {
			axes = a["axes"].Ints
		} else {
			axes = in[1].i
		}
		if len(axes) != 1 {
			return nil, fmt.Errorf("axes %v: the evaluator reduces one axis", axes)
		}
		return reduce(op, in[0], int(axes[0]), a.int("keepdims", 1) == 1)
	case "ArgMax":
		x := in[0]
		if len(x.shape) != 2 || a.int("axis", 0) != 1 || a.int("keepdims", 1) != 0 {
			return nil, fmt.Errorf("unsupported ArgMax form")
		}
		out := newTensor(TypeInt64, x.shape[:1])
		for r := 0; r < x.shape[0]; r++ {
			best := 0
			for c := 1; c < x.shape[1]; c++ {
				if x.num(r*x.shape[1]+c) > x.num(r*x.shape[1]+best) {
					best = c
				}
			}
			out.i[r] = int64(best)
		}
		return []*tensor{out}, nil
	}
	return nil, fmt.Errorf("operator %s.%s is not implemented by the test evaluator", domain, op)
}

func cast(x *tensor, to int32) *tensor {
	out := newTensor(to, x.shape)
	for k := 0; k < x.size(); k++ {
		v := x.num(k)
		switch to {
		case TypeFloat:
			out.f[k] = float32(v)
		case TypeDouble:
			out.d[k] = v
		case TypeInt64:
			out.i[k] = int64(v)
		}
	}
	return out
}

func concat(in []*tensor, axis int) ([]*tensor, error) {
	if axis != 1 {
		return nil, fmt.Errorf("concat on axis %d", axis)
	}
	rows, cols := in[0].shape[0], 0
	for _, t := range in {
		if len(t.shape) != 2 || t.shape[0] != rows || t.dtype != in[0].dtype {
			return nil, fmt.Errorf("concat of shapes/types that differ")
		}
		cols += t.shape[1]
	}
	out := newTensor(in[0].dtype, []int{rows, cols})
	for r := 0; r < rows; r++ {
		c0 := 0
		for _, t := range in {
			w := t.shape[1]
			for c := 0; c < w; c++ {
				switch out.dtype {
				case TypeFloat:
					out.f[r*cols+c0+c] = t.f[r*w+c]
				case TypeDouble:
					out.d[r*cols+c0+c] = t.d[r*w+c]
				default:
					return nil, fmt.Errorf("concat of type %d", out.dtype)
				}
			}
			c0 += w
		}
	}
	return []*tensor{out}, nil
}

func labelEncoder(x *tensor, a attrs) ([]*tensor, error) {
	switch {
	case x.dtype == TypeString && a["values_floats"] != nil:
		keys, vals := a.strs("keys_strings"), a["values_floats"].Floats
		if len(keys) != len(vals) {
			return nil, fmt.Errorf("%d keys, %d values", len(keys), len(vals))
		}
		def := float32(-0.0)
		if d, ok := a["default_float"]; ok {
			def = d.F
		}
		out := newTensor(TypeFloat, x.shape)
		for k, s := range x.s {
			out.f[k] = def
			for i, key := range keys {
				if key == s {
					out.f[k] = vals[i]
					break
				}
			}
		}
		return []*tensor{out}, nil
	case x.dtype == TypeInt64 && a["values_strings"] != nil:
		keys, vals := a["keys_int64s"].Ints, a.strs("values_strings")
		out := newTensor(TypeString, x.shape)
		for k, v := range x.i {
			out.s[k] = a.str("default_string")
			for i, key := range keys {
				if key == v {
					out.s[k] = vals[i]
					break
				}
			}
		}
		return []*tensor{out}, nil
	}
	return nil, fmt.Errorf("unsupported LabelEncoder form")
}

// treeEnsemble evaluates TreeEnsembleRegressor / TreeEnsembleClassifier
// (ai.onnx.ml opset 3) with post_transform NONE and SUM aggregation.
func treeEnsemble(op string, x *tensor, a attrs) ([]*tensor, error) {
	if a.str("post_transform") != "NONE" {
		return nil, fmt.Errorf("post_transform %q", a.str("post_transform"))
	}
	if op == "TreeEnsembleRegressor" && a.str("aggregate_function") != "SUM" {
		return nil, fmt.Errorf("aggregate_function %q", a.str("aggregate_function"))
	}
	if a["nodes_values"] != nil {
		return nil, fmt.Errorf("float thresholds: the exports use nodes_values_as_tensor")
	}
	thr, err := fromProto(a["nodes_values_as_tensor"].T)
	if err != nil {
		return nil, err
	}
	treeIDs, nodeIDs := a["nodes_treeids"].Ints, a["nodes_nodeids"].Ints
	feats, trues, falses := a["nodes_featureids"].Ints, a["nodes_truenodeids"].Ints, a["nodes_falsenodeids"].Ints
	missing := a["nodes_missing_value_tracks_true"].Ints
	modes := a.strs("nodes_modes")
	n := len(treeIDs)
	for _, l := range [][]int64{nodeIDs, feats, trues, falses, missing} {
		if len(l) != n {
			return nil, fmt.Errorf("node attributes of different lengths")
		}
	}
	if len(modes) != n || len(thr.d) != n {
		return nil, fmt.Errorf("node attributes of different lengths")
	}
	type key struct{ tree, node int64 }
	index := map[key]int{}
	var trees []int64
	for k := range treeIDs {
		kk := key{treeIDs[k], nodeIDs[k]}
		if _, dup := index[kk]; dup {
			return nil, fmt.Errorf("node %v defined twice", kk)
		}
		index[kk] = k
		if nodeIDs[k] == 0 {
			trees = append(trees, treeIDs[k])
		}
	}
	prefix := "target_"
	width := int(a.int("n_targets", 0))
	var labels []string
	var intLabels []int64
	if op == "TreeEnsembleClassifier" {
		prefix = "class_"
		labels = a.strs("classlabels_strings")
		width = len(labels)
		if x, ok := a["classlabels_int64s"]; ok {
			intLabels = x.Ints
			width = len(intLabels)
		}
	}
	tTree, tNode, tID := a[prefix+"treeids"].Ints, a[prefix+"nodeids"].Ints, a[prefix+"ids"].Ints
	tW := a[prefix+"weights"].Floats
	leafTargets := map[key][]int{}
	for k := range tTree {
		kk := key{tTree[k], tNode[k]}
		leafTargets[kk] = append(leafTargets[kk], k)
	}
	rows, cols := x.shape[0], x.shape[1]
	out := newTensor(TypeFloat, []int{rows, width})
	acc := make([]float64, width)
	for r := 0; r < rows; r++ {
		clear(acc)
		for _, t := range trees {
			k := index[key{t, 0}]
			for steps := 0; modes[k] != "LEAF"; steps++ {
				if steps > n {
					return nil, fmt.Errorf("tree %d has a cycle", t)
				}
				f := int(feats[k])
				if f >= cols {
					return nil, fmt.Errorf("feature %d of %d", f, cols)
				}
				v := x.num(r*cols + f)
				var left bool
				switch {
				case math.IsNaN(v):
					left = missing[k] == 1
				case modes[k] == "BRANCH_LEQ":
					left = v <= thr.d[k]
				case modes[k] == "BRANCH_LT":
					left = v < thr.d[k]
				default:
					return nil, fmt.Errorf("mode %s", modes[k])
				}
				next := falses[k]
				if left {
					next = trues[k]
				}
				var ok bool
				if k, ok = index[key{t, next}]; !ok {
					return nil, fmt.Errorf("tree %d: node %d missing", t, next)
				}
			}
			for _, j := range leafTargets[key{t, nodeIDs[k]}] {
				acc[tID[j]] += float64(tW[j])
			}
		}
		for c := range acc {
			out.f[r*width+c] = float32(acc[c])
		}
	}
	if op == "TreeEnsembleRegressor" {
		return []*tensor{out}, nil
	}
	label := newTensor(TypeString, []int{rows})
	if intLabels != nil {
		label = newTensor(TypeInt64, []int{rows})
	}
	for r := 0; r < rows; r++ {
		best := 0
		for c := 1; c < width; c++ {
			if out.f[r*width+c] > out.f[r*width+best] {
				best = c
			}
		}
		if intLabels != nil {
			label.i[r] = intLabels[best]
		} else {
			label.s[r] = labels[best]
		}
	}
	return []*tensor{label, out}, nil
}

func slice(in []*tensor) ([]*tensor, error) {
	x := in[0]
	start, end, axis := int(in[1].i[0]), int(in[2].i[0]), int(in[3].i[0])
	if len(x.shape) != 2 || axis != 1 || x.dtype != TypeFloat {
		return nil, fmt.Errorf("unsupported Slice form")
	}
	rows, cols := x.shape[0], x.shape[1]
	end = min(end, cols)
	out := newTensor(TypeFloat, []int{rows, end - start})
	for r := 0; r < rows; r++ {
		copy(out.f[r*(end-start):], x.f[r*cols+start:r*cols+end])
	}
	return []*tensor{out}, nil
}

func reshape(x, shape *tensor) ([]*tensor, error) {
	dims := make([]int, len(shape.i))
	known, free := 1, -1
	for k, d := range shape.i {
		if d == -1 {
			free = k
			continue
		}
		dims[k] = int(d)
		known *= int(d)
	}
	if free >= 0 {
		dims[free] = x.size() / known
	}
	t := *x
	t.shape = dims
	if t.size() != x.size() {
		return nil, fmt.Errorf("reshape %v to %v", x.shape, dims)
	}
	return []*tensor{&t}, nil
}

// binary2 applies an arithmetic operator with numpy broadcasting.
func binary2(op string, x, y *tensor) ([]*tensor, error) {
	if x.dtype != y.dtype {
		return nil, fmt.Errorf("%s of types %d and %d", op, x.dtype, y.dtype)
	}
	rank := max(len(x.shape), len(y.shape))
	pad := func(s []int) []int {
		out := make([]int, rank)
		for i := range out {
			out[i] = 1
		}
		copy(out[rank-len(s):], s)
		return out
	}
	xs, ys := pad(x.shape), pad(y.shape)
	shape := make([]int, rank)
	for i := range shape {
		switch {
		case xs[i] == ys[i] || ys[i] == 1:
			shape[i] = xs[i]
		case xs[i] == 1:
			shape[i] = ys[i]
		default:
			return nil, fmt.Errorf("%s: shapes %v and %v do not broadcast", op, x.shape, y.shape)
		}
	}
	out := newTensor(x.dtype, shape)
	idx := make([]int, rank)
	for k := 0; k < out.size(); k++ {
		rem := k
		for i := rank - 1; i >= 0; i-- {
			idx[i] = rem % shape[i]
			rem /= shape[i]
		}
		xi, yi := 0, 0
		for i := 0; i < rank; i++ {
			xi = xi*xs[i] + idx[i]%xs[i]
			yi = yi*ys[i] + idx[i]%ys[i]
		}
		switch x.dtype {
		case TypeFloat:
			a, b := x.f[xi], y.f[yi]
			switch op {
			case "Add":
				out.f[k] = a + b
			case "Sub":
				out.f[k] = a - b
			case "Mul":
				out.f[k] = a * b
			case "Div":
				out.f[k] = a / b
			}
		case TypeDouble:
			a, b := x.d[xi], y.d[yi]
			switch op {
			case "Add":
				out.d[k] = a + b
			case "Sub":
				out.d[k] = a - b
			case "Mul":
				out.d[k] = a * b
			case "Div":
				out.d[k] = a / b
			}
		default:
			return nil, fmt.Errorf("%s of type %d", op, x.dtype)
		}
	}
	return []*tensor{out}, nil
}

// reduce sums or maximises over one axis, in index order.
func reduce(op string, x *tensor, axis int, keep bool) ([]*tensor, error) {
	outer, inner := 1, 1
	for i := 0; i < axis; i++ {
		outer *= x.shape[i]
	}
	for i := axis + 1; i < len(x.shape); i++ {
		inner *= x.shape[i]
	}
	k := x.shape[axis]
	shape := append([]int(nil), x.shape...)
	if keep {
		shape[axis] = 1
	} else {
		shape = append(shape[:axis], shape[axis+1:]...)
	}
	out := newTensor(x.dtype, shape)
	for o := 0; o < outer; o++ {
		for in := 0; in < inner; in++ {
			switch x.dtype {
			case TypeDouble:
				var s float64
				if op == "ReduceMax" {
					s = math.Inf(-1)
				}
				for j := 0; j < k; j++ {
					v := x.d[(o*k+j)*inner+in]
					if op == "ReduceMax" {
						s = math.Max(s, v)
					} else {
						s += v
					}
				}
				out.d[o*inner+in] = s
			case TypeFloat:
				s := float32(0)
				if op == "ReduceMax" {
					s = float32(math.Inf(-1))
				}
				for j := 0; j < k; j++ {
					v := x.f[(o*k+j)*inner+in]
					if op == "ReduceMax" {
						s = max(s, v)
					} else {
						s += v
					}
				}
				out.f[o*inner+in] = s
			default:
				return nil, fmt.Errorf("%s of type %d", op, x.dtype)
			}
		}
	}
	return []*tensor{out}, nil
}
