package multimodal

import (
	"fmt"
	"strings"

	"github.com/gdt-ml/gdt/nn"
)

// Summary describes a trained multimodal model: its architecture, the
// parameter count of every part and the training facts (what `gdt show`
// prints).
type Summary struct {
	Classes     []string `json:"classes"`
	Target      string   `json:"target,omitempty"`
	ImageColumn string   `json:"image_column,omitempty"`
	// Features are the raw tabular columns the model reads.
	Features []string `json:"features,omitempty"`
	// Encoder, Tabular and Fusion are nil when the model lacks them
	// (image-only models have no tabular backbone and no fusion head;
	// their image head predicts).
	Encoder *EncoderSummary `json:"encoder,omitempty"`
	Tabular *TabularSummary `json:"tabular,omitempty"`
	Fusion  *FusionSummary  `json:"fusion,omitempty"`
	// Parts lists every saved module with its trainable values; Params is
	// their total and PredictParams the total of the parts prediction uses
	// (the image head only serves pretraining once a fusion head exists).
	Parts         []PartSummary `json:"parts"`
	Params        int           `json:"parameters"`
	PredictParams int           `json:"prediction_parameters"`
	Config        Config        `json:"config"`
	Training      *TrainInfo    `json:"training,omitempty"`
	Stages        []StageReport `json:"stages,omitempty"`
}

// EncoderSummary describes the image encoder.
type EncoderSummary struct {
	Input  string   `json:"input"`  // C×H×W
	Layers []string `json:"layers"` // e.g. "conv3×3/2 16 → 16×32×32"
	Embed  int      `json:"embed"`  // width of the last layer (dense + ReLU)
	// FineTune says what the fusion stage trained of the pretrained
	// encoder: "last layer" or "all".
	FineTune string    `json:"fine_tune,omitempty"`
	Mean     []float32 `json:"pixel_mean"` // per channel, 0…1 scale
	Std      []float32 `json:"pixel_std"`
}

// TabularSummary describes the tabular backbone.
type TabularSummary struct {
	Backbone string `json:"backbone"` // "mlp" or "grande"
	Inputs   int    `json:"inputs"`   // encoded columns (after preprocessing)
	Protocol string `json:"protocol,omitempty"`
	Hidden   []int  `json:"hidden,omitempty"` // mlp
	Trees    int    `json:"trees,omitempty"`  // grande
	Depth    int    `json:"depth,omitempty"`
	// FeaturesPerTree is the size of each tree's feature subset.
	FeaturesPerTree int `json:"features_per_tree,omitempty"`
	Embed           int `json:"embed"` // output width
}

// FusionSummary describes the fusion head.
type FusionSummary struct {
	Inputs  []string `json:"inputs"` // e.g. "image 64", "tabular 32"
	Width   int      `json:"width"`  // concatenated width
	Dropout float64  `json:"dropout"`
	Classes int      `json:"classes"`
}

// PartSummary is one saved module.
type PartSummary struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	Params int    `json:"parameters"`
}

// Summary returns the description of t.
func (t *Trained) Summary() *Summary {
	m := t.Model
	cfg := m.Config
	s := &Summary{Classes: t.Classes, Target: t.Target, Features: t.Columns, Config: cfg, Training: t.Info, Stages: m.Reports}
	if cfg.Image {
		s.ImageColumn = t.ImageColumn
		e := &EncoderSummary{Input: m.Shape.String(), Embed: cfg.ImageEmbed, Mean: m.Mean, Std: m.Std}
		if m.p != nil && m.p.body != nil {
			for _, l := range m.p.body.Layers() {
				if d := layerText(l, cfg); d != "" {
					e.Layers = append(e.Layers, d)
				}
			}
		}
		e.Layers = append(e.Layers, fmt.Sprintf("dense %d + ReLU", cfg.ImageEmbed))
		if cfg.Tabular != "" {
			e.FineTune = "last layer"
			if cfg.FineTuneAll {
				e.FineTune = "all"
			}
		}
		s.Encoder = e
	}
	if cfg.Tabular != "" {
		tb := &TabularSummary{Backbone: cfg.Tabular, Inputs: m.TabCols}
		if t.Info != nil {
			tb.Protocol = t.Info.Protocol
		}
		switch cfg.Tabular {
		case "mlp":
			tb.Hidden = cfg.MLPHidden
			tb.Embed = cfg.MLPHidden[len(cfg.MLPHidden)-1]
		case "grande":
			tb.Trees, tb.Depth, tb.Embed = cfg.Trees, cfg.Depth, cfg.TreeEmbed
			tb.FeaturesPerTree = treeFeatures(m.TabCols, cfg.TreeFeatures)
		}
		s.Tabular = tb
		f := &FusionSummary{Width: tb.Embed, Dropout: cfg.Dropout, Classes: m.Classes}
		if cfg.Image {
			f.Inputs = append(f.Inputs, fmt.Sprintf("image %d", cfg.ImageEmbed))
			f.Width += cfg.ImageEmbed
		}
		f.Inputs = append(f.Inputs, fmt.Sprintf("tabular %d", tb.Embed))
		s.Fusion = f
	}
	if m.p != nil {
		add := func(name, role string, mod nn.Module, predicts bool) {
			if mod == nil {
				return
			}
			n := nn.NumParams(mod)
			s.Parts = append(s.Parts, PartSummary{Name: name, Role: role, Params: n})
			s.Params += n
			if predicts {
				s.PredictParams += n
			}
		}
		fused := cfg.Tabular != ""
		if cfg.Image {
			add("body", "image encoder: convolutions and pooling", m.p.body, true)
			add("top", "image encoder: last layer", m.p.top, true)
			role := "image head (predicts)"
			if fused {
				role = "image head (pretraining only)"
			}
			add("image_head", role, m.p.imgHead, !fused)
		}
		if fused {
			add("tab", "tabular backbone ("+cfg.Tabular+")", m.p.tab, true)
			add("head", "fusion head", m.p.head, true)
		}
	}
	return s
}

// layerText describes one encoder body layer ("" for layers folded into
// the previous line: batch norm and ReLU).
func layerText(l nn.Module, cfg Config) string {
	switch l := l.(type) {
	case *nn.Conv2D:
		stride := ""
		if l.InShape().H != l.OutShape().H && cfg.StemStride > 1 {
			stride = fmt.Sprintf("/%d", cfg.StemStride)
		}
		return fmt.Sprintf("conv3×3%s %d + BN + ReLU → %v", stride, l.OutShape().C, l.OutShape())
	case *nn.MaxPool2D:
		return fmt.Sprintf("max pool 2×2 → %v", l.OutShape())
	case *nn.GlobalAvgPool:
		return fmt.Sprintf("global average pool → %d", l.Out())
	}
	return ""
}

// Describe renders the summary as indented text.
func (s *Summary) Describe() string {
	var b strings.Builder
	var kind []string
	if s.Encoder != nil {
		kind = append(kind, "image")
	}
	if s.Tabular != nil {
		kind = append(kind, "tabular ("+s.Tabular.Backbone+")")
	}
	fmt.Fprintf(&b, "multimodal model: %s, %d classes (%s)", strings.Join(kind, " + "), len(s.Classes), strings.Join(s.Classes, ", "))
	if s.Target != "" {
		fmt.Fprintf(&b, ", target %s", s.Target)
	}
	b.WriteString("\n")
	if e := s.Encoder; e != nil {
		fmt.Fprintf(&b, "\nimage encoder (input %s", e.Input)
		if s.ImageColumn != "" {
			fmt.Fprintf(&b, " from column %s", s.ImageColumn)
		}
		b.WriteString("):\n")
		for _, l := range e.Layers {
			fmt.Fprintf(&b, "  %s\n", l)
		}
		if e.FineTune != "" {
			fmt.Fprintf(&b, "  pretrained on the images; fusion fine-tuned %s\n", map[string]string{"all": "the whole encoder", "last layer": "its last layer only"}[e.FineTune])
		}
		fmt.Fprintf(&b, "  pixel normalisation: mean %s, std %s\n", floats(e.Mean), floats(e.Std))
	}
	if t := s.Tabular; t != nil {
		fmt.Fprintf(&b, "\ntabular backbone: ")
		switch t.Backbone {
		case "grande":
			fmt.Fprintf(&b, "GRANDE, %d trees of depth %d, %d of %d inputs per tree, leaves of %d values\n", t.Trees, t.Depth, t.FeaturesPerTree, t.Inputs, t.Embed)
		case "mlp":
			fmt.Fprintf(&b, "MLP %d → %s (ReLU)\n", t.Inputs, joinInts(t.Hidden, " → "))
		default:
			fmt.Fprintf(&b, "%s\n", t.Backbone)
		}
		fmt.Fprintf(&b, "  inputs: %d encoded columns from %s", t.Inputs, strings.Join(s.Features, ", "))
		if t.Protocol != "" {
			fmt.Fprintf(&b, " (preprocessing %s)", t.Protocol)
		}
		b.WriteString("\n")
	}
	if f := s.Fusion; f != nil {
		fmt.Fprintf(&b, "\nfusion: concat(%s) = %d → dropout %g → dense %d → %d → softmax\n", strings.Join(f.Inputs, ", "), f.Width, f.Dropout, f.Width, f.Classes)
	} else if s.Encoder != nil {
		fmt.Fprintf(&b, "\nhead: dense %d → %d → softmax\n", s.Encoder.Embed, len(s.Classes))
	}
	b.WriteString("\nparameters:\n")
	for _, p := range s.Parts {
		fmt.Fprintf(&b, "  %-10s %12s  %s\n", p.Name, thousands(p.Params), p.Role)
	}
	fmt.Fprintf(&b, "  %-10s %12s", "total", thousands(s.Params))
	if s.PredictParams != s.Params {
		fmt.Fprintf(&b, "  (%s used for prediction)", thousands(s.PredictParams))
	}
	b.WriteString("\n")
	if tr := s.Training; tr != nil || len(s.Stages) > 0 {
		b.WriteString("\ntraining:")
		if tr != nil {
			fmt.Fprintf(&b, " %s rows of %s (%s train, %s validation), %.1f s", thousands(tr.Rows), orDash(tr.Data), thousands(tr.TrainRows), thousands(tr.ValidRows), tr.Seconds)
			if tr.Created != "" {
				fmt.Fprintf(&b, ", %s", tr.Created)
			}
		}
		fmt.Fprintf(&b, "; seed %d, batch %d, lr %g, class weights %s\n", s.Config.Seed, s.Config.BatchSize, s.Config.LR, s.Config.ClassWeights)
		for _, r := range s.Stages {
			fmt.Fprintf(&b, "  %-8s %d epochs, best %d (validation loss %.4f), %.2f s/epoch\n", r.Stage, r.Epochs, r.BestEpoch, r.BestLoss, r.EpochSeconds)
		}
	}
	return b.String()
}

func floats(v []float32) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%.3f", x)
	}
	return "[" + strings.Join(s, " ") + "]"
}

func joinInts(v []int, sep string) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, sep)
}

// thousands formats n with comma separators (1,234,567).
func thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
