package sdt

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/rl/policy"
)

var (
	_ policy.Actor = (*Tree)(nil)
	_ policy.Net   = (*Tree)(nil)
)

// Discrete is a D-SDT (spec §6.3): the SDT discretised into a hard,
// axis-aligned tree. Inner node i (breadth first) sends x LEFT (to 2i+1)
// iff x[Feature[i]] > Threshold[i]; leaf l holds Leaves[l] (one-hot of the
// SDT leaf's arg-max for discrete actions, the leaf's means otherwise).
// Rows are routed by its trained form (Plain as an ensemble.Ensemble, the
// one routing of every tree model), which reaches the same leaf for every
// observation without NaN.
type Discrete struct {
	Depth     int
	Feature   []int       // [N] tested feature per inner node
	Threshold []float32   // [N] b_i / β_{j,i}
	Leaves    [][]float32 // [L][A]
	Dist      policy.Dist

	trained *ensemble.Ensemble // Plain's trained form
	leafOf  []int32            // trained node → leaf number l (−1 inside)
}

// Discretize converts the actor into its D-SDT: per node j = argmax β_i
// (lowest index on ties) and threshold b_i/β_{j,i}; discrete leaves become
// one-hot(argmax K_l), continuous leaves keep their means (the log-std is
// dropped: the D-SDT acts greedily).
func (t *Tree) Discretize() (*Discrete, error) {
	if !t.actor {
		return nil, fmt.Errorf("sdt: Discretize needs an actor, not a critic")
	}
	F, N, L, A := t.in, t.nInt, t.nLeaf, t.out
	d := &Discrete{Depth: t.depth, Feature: make([]int, N), Threshold: make([]float32, N),
		Leaves: make([][]float32, L), Dist: t.dist}
	for i := 0; i < N; i++ {
		br := t.beta[i*F : (i+1)*F]
		j := policy.Argmax(br)
		if !(br[j] > 0) {
			return nil, fmt.Errorf("sdt: node %d has no positive feature weight", i)
		}
		d.Feature[i] = j
		d.Threshold[i] = t.b[i] / br[j]
	}
	for l := 0; l < L; l++ {
		row := make([]float32, A)
		kr := t.k[l*A : (l+1)*A]
		if t.dist.Discrete {
			row[policy.Argmax(kr)] = 1
		} else {
			copy(row, kr)
		}
		d.Leaves[l] = row
	}
	p := d.Plain()
	m, err := p.Ensemble(F)
	if err != nil {
		return nil, fmt.Errorf("sdt: Discretize: %w", err)
	}
	d.trained, d.leafOf = m, make([]int32, len(p.Nodes))
	for n, nd := range p.Nodes {
		d.leafOf[n] = -1
		if nd.IsLeaf() {
			d.leafOf[n] = int32(nd.Origin - N)
		}
	}
	return d, nil
}

// Leaf returns the leaf index (0…L−1) that x reaches.
func (d *Discrete) Leaf(x []float32) int {
	return int(d.leafOf[d.trained.Leaf(0, x)])
}

// Act writes the greedy action for observation x into action (len
// Dist.ActionDim()). It does not allocate.
func (d *Discrete) Act(x, action []float32) {
	d.Dist.Greedy(d.Leaves[d.Leaf(x)], action)
}

// Plain returns the D-SDT as an interpret.Tree (whose rule is "left iff
// x < τ") that reaches the same leaf for every observation without NaN:
// each node's children are swapped and τ is the next float32 above the
// D-SDT threshold, since x ≤ t ⇔ x < nextafter(t, +∞) in float32.
// Nodes are numbered breadth first; Origin holds the SDT node index.
func (d *Discrete) Plain() *interpret.Tree {
	return d.plain(false)
}

// PlainReference returns the tree the reference code prints and prunes
// (spec §6.3 ⚠ REF, switch dsdt_prune_orientation): the SDT's left child
// kept on the left, as if routing were "left iff x ≤ t". It does not act
// like the D-SDT; it exists to reproduce the reference's node counts.
func (d *Discrete) PlainReference() *interpret.Tree {
	return d.plain(true)
}

func (d *Discrete) plain(reference bool) *interpret.Tree {
	N := len(d.Feature)
	A := d.Dist.A
	out := &interpret.Tree{Outputs: A}
	type item struct{ src, depth int }
	queue := []item{{0, 0}}
	for h := 0; h < len(queue); h++ {
		it := queue[h]
		n := interpret.Node{Depth: it.depth, Origin: it.src, Feature: -1, Left: -1, Right: -1}
		if it.src >= N {
			n.Value = append([]float32(nil), d.Leaves[it.src-N]...)
		} else {
			n.Feature = d.Feature[it.src]
			l, r := 2*it.src+1, 2*it.src+2
			if reference {
				n.Threshold = d.Threshold[it.src]
			} else {
				n.Threshold = math.Nextafter32(d.Threshold[it.src], float32(math.Inf(1)))
				l, r = r, l
			}
			n.Left = len(queue)
			queue = append(queue, item{l, it.depth + 1})
			n.Right = len(queue)
			queue = append(queue, item{r, it.depth + 1})
		}
		out.Nodes = append(out.Nodes, n)
	}
	return out
}

// Size returns the number of nodes of the D-SDT after the pruning of spec
// §1.7 with the observation bounds low and high (nil: no range rule), the
// tree-size metric of spec §7.4. reference counts the reference's
// mis-oriented tree (PlainReference) instead of the exact one.
func (d *Discrete) Size(low, high []float32, reference bool) (int, error) {
	p := d.Plain()
	if reference {
		p = d.PlainReference()
	}
	pr, err := policy.PruneRanges(p, low, high, d.Dist.Discrete)
	if err != nil {
		return 0, err
	}
	return pr.NumNodes(), nil
}

// Pruned returns the exact D-SDT tree pruned with the observation bounds
// (spec §1.7); it acts as the D-SDT on every observation inside the box.
func (d *Discrete) Pruned(low, high []float32) (*interpret.Tree, error) {
	return policy.PruneRanges(d.Plain(), low, high, d.Dist.Discrete)
}
