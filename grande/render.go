package grande

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/preprocess"
)

// Formats lists the renderings Render supports.
var Formats = []string{"text", "json", "dot", "svg", "go"}

// ViewOptions returns display options for the model's trees and
// explanations: the task's head, class names, raw-unit conditions through
// the pipeline p (nil: model space) and regression values in target units.
func (m *Model) ViewOptions(p *preprocess.Pipeline, classes []string) *interpret.Options {
	o := &interpret.Options{Task: m.Task, ClassNames: classes, Pipeline: p}
	if m.Task == data.Regression {
		t := m.Target
		o.Denormalize, o.DenormalizeSource = t.Inverse, t.InverseSource
	}
	return o
}

// Summary is the JSON rendering of a model: its shape, the global feature
// importance and the most weighted trees.
type Summary struct {
	Kind       string                 `json:"kind"`
	Task       string                 `json:"task"`
	Trees      int                    `json:"trees"`
	Depth      int                    `json:"depth"`
	Features   int                    `json:"features"`
	SubsetSize int                    `json:"subset_size"`
	Weighting  string                 `json:"weighting"`
	BestEpoch  int                    `json:"best_epoch,omitempty"`
	Epochs     int                    `json:"epochs,omitempty"`
	ValidLoss  float64                `json:"valid_loss,omitempty"`
	Importance []interpret.Importance `json:"importance"`
	TopTrees   []SummaryTree          `json:"top_trees,omitempty"`

	views []*interpret.View // renderings of TopTrees
	opts  *interpret.Options
}

// SummaryTree is one of the globally most weighted trees in a Summary.
type SummaryTree struct {
	Index      int                 `json:"index"`
	MeanWeight float64             `json:"mean_weight"`
	Tree       *interpret.JSONTree `json:"tree"`
}

// Summarize returns the model's summary with conditions in raw units
// through p (nil: model space).
func (m *Model) Summarize(p *preprocess.Pipeline, classes []string) (*Summary, error) {
	if m.Features == 0 {
		return nil, errors.New("grande: model is not fitted")
	}
	var names []string
	if p == nil {
		for j := 0; j < m.Features; j++ {
			names = append(names, fmt.Sprintf("x%d", j))
		}
	}
	s := &Summary{Kind: "grande", Task: m.Task.String(), Trees: m.Config.Trees, Depth: m.Config.Depth,
		Features: m.Features, SubsetSize: m.SubsetSize, Weighting: m.Config.Weights,
		Importance: m.FeatureImportance(p, names), opts: m.ViewOptions(p, classes)}
	if s.Importance == nil {
		s.Importance = []interpret.Importance{}
	}
	if m.BestRestart >= 0 && m.BestRestart < len(m.Restarts) {
		r := m.Restarts[m.BestRestart]
		s.BestEpoch, s.Epochs, s.ValidLoss = r.BestEpoch, r.Epochs, r.BestLoss
	}
	for _, t := range m.TopTrees {
		v, err := interpret.NewView(t.Tree, s.opts)
		if err != nil {
			return nil, fmt.Errorf("grande: tree %d: %w", t.Index, err)
		}
		s.views = append(s.views, v)
		s.TopTrees = append(s.TopTrees, SummaryTree{Index: t.Index, MeanWeight: t.MeanWeight, Tree: v.JSONTree()})
	}
	return s, nil
}

// Text renders the summary: the ensemble's shape, the top of the feature
// importance and the most weighted trees.
func (s *Summary) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "GRANDE ensemble: %d trees of depth %d, %s weights, each tree sees %d of %d features (%s task)\n",
		s.Trees, s.Depth, s.Weighting, s.SubsetSize, s.Features, s.Task)
	if s.Epochs > 0 {
		fmt.Fprintf(&b, "trained %d epochs; best validation loss %.6g at epoch %d\n", s.Epochs, s.ValidLoss, s.BestEpoch)
	}
	if len(s.Importance) > 0 {
		const show = 15
		b.WriteString("\nfeature importance (training rows; usage = weighted tests per row):\n")
		for i, imp := range s.Importance {
			if i == show {
				fmt.Fprintf(&b, "    … %d more\n", len(s.Importance)-show)
				break
			}
			fmt.Fprintf(&b, "    %-30s usage %.4f  splits %d\n", imp.Column, imp.Usage, imp.Splits)
		}
	}
	for i, t := range s.TopTrees {
		in, lv := t.Tree.Internal, t.Tree.Leaves
		fmt.Fprintf(&b, "\ntree %d: mean weight %.2f %% over the training rows (pruned: %d internal nodes, %d leaves)\n",
			t.Index, 100*t.MeanWeight, in, lv)
		for _, line := range strings.Split(strings.TrimRight(s.views[i].Text(), "\n"), "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
	return b.String()
}

// Render renders the model: text (summary, feature importance and the most
// weighted trees, pruned with the training rows), json (the same as a
// Summary: shape, importance, top trees), dot or svg (the most weighted
// tree), go (generated Go source of the whole ensemble,
// interpret.EnsembleGoSource; classification only). Conditions are in raw
// units through p.
func (m *Model) Render(format string, p *preprocess.Pipeline, classes []string) ([]byte, error) {
	if format == "go" {
		if m.Ensemble == nil {
			return nil, errors.New("grande: model is not fitted")
		}
		return interpret.EnsembleGoSource(m.Ensemble, m.ViewOptions(p, classes), "model")
	}
	s, err := m.Summarize(p, classes)
	if err != nil {
		return nil, err
	}
	switch format {
	case "text":
		return []byte(s.Text()), nil
	case "json":
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(s); err != nil {
			return nil, fmt.Errorf("grande: json: %w", err)
		}
		return b.Bytes(), nil
	case "dot", "svg":
		if len(s.views) == 0 {
			return nil, errors.New("grande: the model holds no top tree to draw")
		}
		if format == "dot" {
			return []byte(s.views[0].DOT()), nil
		}
		return s.views[0].SVG(), nil
	}
	return nil, fmt.Errorf("grande: unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}
