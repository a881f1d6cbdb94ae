package gradtree

import (
	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/interpret"
	"github.com/gdt-ml/gdt/preprocess"
)

// Formats lists the renderings Render supports.
var Formats = interpret.Formats

// View returns the plain tree prepared for display, with thresholds in raw
// units through the pipeline p (nil: model-space thresholds).
func (m *Model) View(p *preprocess.Pipeline, classes []string) (*interpret.View, error) {
	t, err := m.PlainTree()
	if err != nil {
		return nil, err
	}
	o := &interpret.Options{Task: m.Task, ClassNames: classes, Pipeline: p}
	if m.Task == data.Regression {
		o.Denormalize = m.Target.Inverse
	}
	return interpret.NewView(t, o)
}

// Render renders the plain tree as text (indented rules), dot (Graphviz),
// svg (self-contained), json or go (generated Go source).
func (m *Model) Render(format string, p *preprocess.Pipeline, classes []string) ([]byte, error) {
	v, err := m.View(p, classes)
	if err != nil {
		return nil, err
	}
	return v.Render(format)
}
