//go:build ignore

// Command rl-split-logits describes how far a trained SYMPOL tree's split
// parameters moved from the initial tree (the preset's, parameter seed 42,
// the same for every training) and how decided its choices are: per run
// directory of `gdt rl train`, for the delivered and the final policy,
//
//	changed   internal nodes whose feature (argmax of the split-index
//	          logits) differs from the initial tree's, of all
//	|dQ|      mean and largest change of a split-index logit
//	margin    mean gap between a node's best and second-best logit
//	support   mean number of features with entmax-1.5 weight > 0 (all of
//	          them get a gradient)
//	constant  nodes whose threshold on their ±1-coded MiniGrid feature is
//	          outside (−1, 1), so every sample goes one way
//	leaf p    median over leaves of the greedy action's probability
//
//	go run scripts/rl-split-logits.go DIR ...
package main

import (
	"fmt"
	"math"
	"os"
	"sort"

	_ "github.com/gdt-ml/gdt/rl/env/all"
	"github.com/gdt-ml/gdt/rl/methods"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/ppo"
	"github.com/gdt-ml/gdt/tree"
)

func groups(a policy.Actor) (q, th, lv []float32) {
	for _, t := range a.Tensors() {
		switch t.Group {
		case policy.GroupSplitIndex:
			q = t.Value
		case policy.GroupSplitValues:
			th = t.Value
		case policy.GroupLeaves:
			lv = t.Value
		}
	}
	return q, th, lv
}

func argmax(r []float32) int {
	b := 0
	for i, x := range r {
		if x > r[b] {
			b = i
		}
	}
	return b
}

func describe(a, init policy.Actor, cfg ppo.Config) string {
	q, th, lv := groups(a)
	q0, _, _ := groups(init)
	nodes := 1<<cfg.Depth - 1
	F := len(q) / nodes
	A := len(lv) / (nodes + 1)
	changed, supp, constant := 0, 0, 0
	var sumd, maxd, marg float64
	p := make([]float32, F)
	for i := 0; i < nodes; i++ {
		row, row0 := q[i*F:(i+1)*F], q0[i*F:(i+1)*F]
		f := argmax(row)
		if f != argmax(row0) {
			changed++
		}
		for n := range row {
			d := math.Abs(float64(row[n] - row0[n]))
			sumd += d
			maxd = math.Max(maxd, d)
		}
		s := append([]float32(nil), row...)
		sort.Slice(s, func(x, y int) bool { return s[x] > s[y] })
		marg += float64(s[0] - s[1])
		tree.Entmax15(p, row)
		for _, x := range p {
			if x > 0 {
				supp++
			}
		}
		if t := th[i*F+f]; t > 1 || t <= -1 {
			constant++
		}
	}
	probs := make([]float64, 0, nodes+1)
	for l := 0; l <= nodes; l++ {
		o := lv[l*A : (l+1)*A]
		m, z := float64(o[argmax(o)]), 0.0
		for _, x := range o {
			z += math.Exp(float64(x) - m)
		}
		probs = append(probs, 1/z)
	}
	sort.Float64s(probs)
	return fmt.Sprintf("changed %d/%d, |dQ| mean %.3f max %.3f, margin %.4f, support %.1f/%d, constant %d, leaf p %.2f",
		changed, nodes, sumd/float64(len(q)), maxd, marg/float64(nodes), float64(supp)/float64(nodes), F, constant, probs[len(probs)/2])
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/rl-split-logits.go DIR ...")
		os.Exit(2)
	}
	for _, dir := range os.Args[1:] {
		tr, err := methods.Load(dir+"/checkpoint.gob", nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		cfg := tr.Config()
		if cfg.Method != ppo.MethodSYMPOL {
			fmt.Fprintf(os.Stderr, "%s: method %s, want sympol\n", dir, cfg.Method)
			os.Exit(1)
		}
		fresh, err := methods.New(cfg) // the same parameter seed: the initial tree
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		init := fresh.Actor()
		d, _ := tr.Delivered()
		fmt.Printf("%s at step %d of %d\n", dir, tr.Step(), cfg.TotalSteps)
		fmt.Printf("  initial:   %s\n", describe(init, init, cfg))
		fmt.Printf("  delivered: %s\n", describe(d, init, cfg))
		fmt.Printf("  final:     %s\n", describe(tr.Actor(), init, cfg))
	}
}
