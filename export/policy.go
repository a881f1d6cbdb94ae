package export

import (
	"fmt"
	"github.com/gdt-ml/gdt/ensemble"
	"math"

	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rl/policy"
)

// How a policy tree is pruned for export (Policy.Prune).
const (
	// PruneFull is spec §1.7's pruning, the tree of `gdt rl show`: nodes
	// decided by the observation bounds or by an ancestor's test are
	// removed and, for discrete actions, sibling leaves with the same
	// greedy action are merged (the merged node keeps the left leaf's
	// logits). The greedy action is the policy's on every observation
	// within the bounds; the logits, and so the probabilities, of a merged
	// leaf are its left leaf's.
	PruneFull = "full"
	// PruneRanges applies only the bound and ancestor rules: on every
	// observation within the bounds the tree reaches a leaf with the
	// policy's own values (logits or mean action).
	PruneRanges = "ranges"
	// PruneNone keeps the trained tree whole (all 2^d leaves): exact on
	// every observation, also outside the bounds.
	PruneNone = "none"
	// PruneVisited prunes with the observations the greedy policy met in
	// its episodes (env.Visits, policy.PruneVisited): a split one side of
	// which none of them reaches is replaced by its other side, then
	// PruneFull's ancestor rule and same-action merge. The greedy action is
	// the policy's on every one of those observations; where the episodes
	// started from all of a deterministic task's start states
	// (Visits.Complete) that is every observation the policy meets on the
	// task, otherwise only the recorded ones. PolicyOfVisited builds it.
	PruneVisited = "visited"
)

// Policy is a trained tree policy (SYMPOL) in exportable form: the plain
// tree that maps an observation to the action logits (discrete actions) or
// the mean action (continuous), as the policy reads it.
type Policy struct {
	Env    string // environment ID, e.g. "CartPole-v1"
	Method string // training method, e.g. "sympol"
	Steps  int    // environment steps of training
	// Discrete is true for discrete actions: leaves hold one logit per
	// action and the greedy action is the first arg-max; otherwise leaves
	// hold the mean action per dimension (the greedy action, unclipped:
	// the environment clips it to its bounds).
	Discrete bool
	// Tree is the (pruned) plain tree: left iff x[feature] < threshold.
	Tree *interpret.Tree
	// route is Tree's trained form, which Act routes with (built by
	// PolicyOf, or on first use).
	route *ensemble.Ensemble
	// Prune is how Tree was pruned (PruneFull, PruneRanges, PruneNone,
	// PruneVisited).
	Prune string
	// Low and High bound the observations on which the pruned tree acts
	// exactly as the policy (nil for PruneNone: every observation; nil for
	// PruneVisited, exact on the observations of Visits).
	Low, High []float32
	// Visits, for PruneVisited, are the observations the tree was pruned
	// with and what they cover.
	Visits *env.Visits
	// Features is the observation width.
	Features int
	// FeatureNames and ActionNames name the observation components and
	// the actions (continuous: the action components).
	FeatureNames, ActionNames []string
	// ActionLow and ActionHigh are the continuous action bounds the
	// environment clips to (nil for discrete actions or unbounded).
	ActionLow, ActionHigh []float32
	// LogStd holds the learned log standard deviations of a continuous
	// policy (not used by the greedy policy).
	LogStd []float32
	// Scaling, if not nil, is the fixed observation scaling the policy was
	// trained with (spec §1.5, LunarLander): the tree, Low and High are in
	// scaled units, while Act, Inside and the ONNX graph take the raw
	// observation and scale it first, in float32, as training did.
	Scaling *env.Scaling
}

// input returns x as the tree reads it (scaled when p.Scaling is set).
func (p *Policy) input(x []float32) []float32 {
	if p.Scaling == nil {
		return x
	}
	y := make([]float32, len(x))
	p.Scaling.Apply(y, x)
	return y
}

// PolicyOf returns the exportable form of a trained actor on an
// environment with spec: its plain tree pruned as prune says ("" =
// PruneFull; PruneVisited needs the observations: PolicyOfVisited). Only
// tree actors (SYMPOL) have one.
func PolicyOf(a policy.Actor, spec env.Spec, prune string) (*Policy, error) {
	if prune == PruneVisited {
		return nil, fmt.Errorf("export: pruning %q needs the observations the policy met (PolicyOfVisited)", prune)
	}
	return policyOf(a, spec, prune, nil)
}

// PolicyOfVisited returns the exportable form of a trained actor pruned
// with the observations v its greedy policy met (PruneVisited; env.Visit
// records them).
func PolicyOfVisited(a policy.Actor, spec env.Spec, v *env.Visits) (*Policy, error) {
	if v == nil || v.Rows == 0 {
		return nil, fmt.Errorf("export: pruning %q: no observations", PruneVisited)
	}
	if v.Features != spec.Observation.Dim {
		return nil, fmt.Errorf("export: pruning %q: observations of %d features, environment %s has %d", PruneVisited, v.Features, spec.ID, spec.Observation.Dim)
	}
	return policyOf(a, spec, PruneVisited, v)
}

func policyOf(a policy.Actor, spec env.Spec, prune string, v *env.Visits) (*Policy, error) {
	ta, ok := a.(*policy.TreeActor)
	if !ok {
		return nil, fmt.Errorf("export: a %T policy has no tree (only SYMPOL policies are trees)", a)
	}
	d := ta.Dist()
	p := &Policy{Env: spec.ID, Discrete: d.Discrete, Features: spec.Observation.Dim, Prune: prune,
		FeatureNames: append([]string(nil), spec.FeatureNames...), ActionNames: append([]string(nil), spec.ActionNames...)}
	if p.Prune == "" {
		p.Prune = PruneFull
	}
	if ta.In() != p.Features {
		return nil, fmt.Errorf("export: the policy reads %d observation features, environment %s has %d", ta.In(), spec.ID, p.Features)
	}
	if p.Discrete && d.A != spec.Action.N || !p.Discrete && d.A != spec.Action.Dim {
		return nil, fmt.Errorf("export: the policy has %d outputs for the %d actions of %s", d.A, max(spec.Action.N, spec.Action.Dim), spec.ID)
	}
	plain, err := ta.Plain()
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	low, high := spec.Observation.Low, spec.Observation.High
	switch p.Prune {
	case PruneFull, PruneRanges:
		p.Tree, err = policy.PruneRanges(plain, low, high, p.Discrete && p.Prune == PruneFull)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		if low != nil {
			p.Low = append([]float32(nil), low...)
		}
		if high != nil {
			p.High = append([]float32(nil), high...)
		}
	case PruneNone:
		p.Tree = plain
	case PruneVisited:
		if p.Tree, err = policy.PruneVisited(plain, v.Obs, v.Rows, p.Discrete); err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		p.Visits = v
	default:
		return nil, fmt.Errorf("export: pruning %q: expected %q, %q, %q or %q", prune, PruneFull, PruneRanges, PruneNone, PruneVisited)
	}
	if p.route, err = p.Tree.Ensemble(p.Features); err != nil {
		return nil, fmt.Errorf("export: policy tree: %w", err)
	}
	if !p.Discrete {
		p.LogStd = append([]float32(nil), ta.LogStd()...)
		if spec.Action.Low != nil && spec.Action.High != nil {
			p.ActionLow = append([]float32(nil), spec.Action.Low...)
			p.ActionHigh = append([]float32(nil), spec.Action.High...)
		}
	}
	if len(p.ActionNames) != p.Tree.Outputs {
		p.ActionNames = make([]string, p.Tree.Outputs)
		for i := range p.ActionNames {
			p.ActionNames[i] = fmt.Sprintf("action %d", i)
		}
	}
	if len(p.FeatureNames) != p.Features {
		p.FeatureNames = make([]string, p.Features)
		for i := range p.FeatureNames {
			p.FeatureNames[i] = fmt.Sprintf("x%d", i)
		}
	}
	return p, nil
}

// Inside reports whether observation x lies within the bounds on which the
// pruned tree is exact (always true without bounds).
func (p *Policy) Inside(x []float32) bool {
	x = p.input(x)
	for j, v := range x {
		if p.Low != nil && j < len(p.Low) && float64(v) < float64(p.Low[j]) || p.High != nil && j < len(p.High) && float64(v) > float64(p.High[j]) {
			return false
		}
		if math.IsNaN(float64(v)) && (p.Low != nil || p.High != nil) {
			return false
		}
	}
	return true
}

// Act writes the greedy action of the exported tree for observation x
// into action (len 1 for discrete actions: the index as a float32;
// otherwise the mean per dimension), as the policy does (policy.Dist.Greedy).
func (p *Policy) Act(x, action []float32) {
	if p.route == nil || p.route.Features != len(x) {
		m, err := p.Tree.Ensemble(len(x))
		if err != nil {
			panic(fmt.Sprintf("export: Policy.Act: %v", err)) // PolicyOf validated the tree for this width
		}
		p.route = m
	}
	v := p.route.LeafValue(p.route.Leaf(0, p.input(x)))
	if p.Discrete {
		action[0] = float32(policy.Argmax(v))
		return
	}
	copy(action, v)
}
