package interpret

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/ensemble"
	"github.com/gdt-ml/gdt/preprocess"
)

// Options says how a tree is shown: the task and class names for the
// leaves, the pipeline that maps model-space thresholds back to raw units,
// names and descriptions of the features. The zero value (or nil) shows a
// binary classifier on features x0, x1, … with model-space thresholds.
type Options struct {
	// Task selects the output head (spec §2.5): Binary shows σ(logit),
	// Multiclass the softmax's arg-max; a tree with more than one output
	// that is not Regression is shown as Multiclass. Regression shows the
	// leaf value mapped through Denormalize.
	Task data.Task
	// Probabilities tells that a classifier's leaves hold class
	// probabilities (CART, random forests) rather than logits: the head
	// takes them as they are (arg-max, lowest index on ties).
	Probabilities bool
	// ClassNames names the classes (binary: [negative, positive]); missing
	// names default to the class index.
	ClassNames []string
	// Denormalize maps a regression leaf value from standardised target
	// units to the target's units (value·std + mean); nil keeps the value.
	Denormalize func(float64) float64
	// DenormalizeSource, if not nil, writes Denormalize as Go source
	// applied to a float64 expression (for the generated code of
	// ensembles, EnsembleGoSource; e.g. loss.Standardizer.InverseSource).
	DenormalizeSource func(y string) string
	// Pipeline, if not nil, is the fitted preprocessing: conditions are
	// shown in raw units (preprocess.Pipeline.RawThresholdLess) and names
	// are its feature names.
	Pipeline *preprocess.Pipeline
	// FeatureNames names the model-space columns when Pipeline is nil
	// (default "x0", "x1", …).
	FeatureNames []string
	// Descriptions maps a raw column (or, without a pipeline, a feature)
	// name to a description: a legend under the text rendering, tooltips
	// in SVG and DOT, a field in JSON and doc comments in generated code.
	Descriptions map[string]string
	// FormatLeaf, if not nil, renders a leaf's text in the text, DOT and
	// SVG renderings (default: DefaultLeafText).
	FormatLeaf func(LeafInfo) string
	// Digits is the number of significant digits of regression values in
	// the text, DOT and SVG renderings (default 4; JSON and the generated
	// code keep full precision). Thresholds are always shown exactly
	// (model space, and raw cuts snapped after training) or to within a
	// relative 1e-6 (other raw cuts).
	Digits int
	// EdgeLabels label the edges to the left ("condition true") and right
	// child in DOT and SVG (default "True", "False").
	EdgeLabels [2]string
	// Highlight, if not nil, is a model-space row whose path is marked in
	// the text and SVG renderings.
	Highlight []float32
}

// Outcome is a leaf's raw output seen through the task's head.
type Outcome struct {
	// Class is the predicted class (−1 for regression).
	Class int `json:"class"`
	// Label is the class name, or the formatted value for regression.
	Label string `json:"label"`
	// Proba is the probability of Class (classification).
	Proba float64 `json:"proba,omitempty"`
	// Probs are all class probabilities (binary: [1 − p, p]).
	Probs []float64 `json:"probs,omitempty"`
	// Values are the regression outputs in target units.
	Values []float64 `json:"values,omitempty"`
}

// LeafInfo is what a leaf formatter sees.
type LeafInfo struct {
	Node     int       // node index in the tree
	Outcome  Outcome   // the head's view of the leaf
	Value    []float32 // raw leaf output
	Weight   float32   // leaf weight logit, if Weighted
	Weighted bool      // the tree has leaf weights (GRANDE)
	Count    int       // training rows reaching the leaf, if Counted
	Counted  bool      // the tree holds training counts
	Digits   int       // significant digits for regression values
}

func (o *Options) regression() bool { return o != nil && o.Task == data.Regression }

func (o *Options) digits() int {
	if o == nil || o.Digits <= 0 {
		return 4
	}
	return o.Digits
}

// ClassName returns the name of class c (its index when unnamed).
func (o *Options) ClassName(c int) string {
	if o != nil && c >= 0 && c < len(o.ClassNames) && o.ClassNames[c] != "" {
		return o.ClassNames[c]
	}
	return strconv.Itoa(c)
}

// Outcome applies the output head to a leaf's raw value: σ for one output
// (binary; class 1 iff σ > 0.5, so 0.5 is class 0 as numpy's round), softmax
// and arg-max (lowest index on ties) for several, the values themselves
// and their arg-max for Probabilities, Denormalize for regression.
func (o *Options) Outcome(value []float32) Outcome {
	if o.regression() {
		out := Outcome{Class: -1, Values: make([]float64, len(value))}
		parts := make([]string, len(value))
		for c, v := range value {
			y := float64(v)
			if o.Denormalize != nil {
				y = o.Denormalize(y)
			}
			out.Values[c] = y
			parts[c] = formatSig(y, o.digits())
		}
		out.Label = strings.Join(parts, ", ")
		if len(parts) > 1 {
			out.Label = "[" + out.Label + "]"
		}
		return out
	}
	var out Outcome
	if o != nil && o.Probabilities {
		out.Probs = make([]float64, len(value))
		for c, p := range value {
			out.Probs[c] = float64(p)
			if p > value[out.Class] {
				out.Class = c
			}
		}
		out.Proba = out.Probs[out.Class]
		out.Label = o.ClassName(out.Class)
		return out
	}
	if len(value) == 1 {
		p := 1 / (1 + math.Exp(-float64(value[0])))
		out.Probs = []float64{1 - p, p}
		if p > 0.5 {
			out.Class, out.Proba = 1, p
		} else {
			out.Class, out.Proba = 0, 1-p
		}
	} else {
		out.Probs = softmax(value)
		for c, p := range out.Probs {
			if p > out.Probs[out.Class] {
				out.Class = c
			}
		}
		out.Proba = out.Probs[out.Class]
	}
	out.Label = o.ClassName(out.Class)
	return out
}

// softmax returns the class probabilities of the logits v (the
// ensemble's softmax: the same operations as every other one in gdt).
func softmax(v []float32) []float64 {
	p := make([]float64, len(v))
	for c, x := range v {
		p[c] = float64(x)
	}
	var mx, sum [1]float64
	ensemble.SoftmaxAcross(p, len(p), 1, 1, mx[:], sum[:])
	return p
}

// DefaultLeafText renders a leaf as "approved (p = 0.93, n = 120)" for
// classification, "12.35 (n = 120)" for regression, with "w = …" (the
// leaf weight logit) for weighted trees.
func DefaultLeafText(l LeafInfo) string {
	var extra []string
	if l.Outcome.Class >= 0 {
		extra = append(extra, "p = "+strconv.FormatFloat(l.Outcome.Proba, 'f', 2, 64))
	}
	if l.Weighted {
		extra = append(extra, "w = "+formatSig(float64(l.Weight), 3))
	}
	if l.Counted {
		extra = append(extra, "n = "+strconv.Itoa(l.Count))
	}
	if len(extra) == 0 {
		return l.Outcome.Label
	}
	return l.Outcome.Label + " (" + strings.Join(extra, ", ") + ")"
}

// formatSig formats v with d significant digits, without exponent for
// moderate magnitudes and without trailing zeros.
func formatSig(v float64, d int) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	e := int(math.Floor(math.Log10(math.Abs(v))))
	if e < -4 || e >= 15 {
		return strconv.FormatFloat(v, 'g', d, 64)
	}
	dec := max(0, d-1-e)
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// featureName returns the name of model column j.
func (o *Options) featureName(j int) string {
	if o != nil && o.Pipeline != nil && j < o.Pipeline.NumFeatures() {
		return o.Pipeline.Source(j).Name
	}
	if o != nil && j < len(o.FeatureNames) && o.FeatureNames[j] != "" {
		return o.FeatureNames[j]
	}
	return fmt.Sprintf("x%d", j)
}

// description returns the description of a raw column or feature.
func (o *Options) description(name string) string {
	if o == nil || o.Descriptions == nil {
		return ""
	}
	return o.Descriptions[name]
}

func (o *Options) edgeLabels() [2]string {
	l := [2]string{"True", "False"}
	if o != nil {
		if o.EdgeLabels[0] != "" {
			l[0] = o.EdgeLabels[0]
		}
		if o.EdgeLabels[1] != "" {
			l[1] = o.EdgeLabels[1]
		}
	}
	return l
}
