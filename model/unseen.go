package model

import (
	"fmt"
	"strings"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/modelfile"
)

// KnownLevels knows the category levels a model's categorical inputs saw
// in training (modelfile.Column.Levels). It is built once per model and
// safe for concurrent use; gdt predict and gdt serve count unseen levels
// with it (both encode such a level as the pipeline's unseen level).
type KnownLevels struct {
	cols []knownColumn
}

type knownColumn struct {
	name  string
	known map[string]struct{}
}

// NewKnownLevels returns the known levels of the categorical inputs.
func NewKnownLevels(inputs []modelfile.Column) *KnownLevels {
	k := &KnownLevels{}
	for _, c := range inputs {
		if c.Kind != data.Categorical.String() {
			continue
		}
		set := make(map[string]struct{}, len(c.Levels))
		for _, l := range c.Levels {
			set[l] = struct{}{}
		}
		k.cols = append(k.cols, knownColumn{name: c.Name, known: set})
	}
	return k
}

// KnownLevels returns the known levels of t's categorical inputs.
func (t *Trained) KnownLevels() *KnownLevels { return NewKnownLevels(t.Inputs) }

// maxUnseenShown bounds the distinct unseen levels kept per column.
const maxUnseenShown = 10

// LevelRows is one unseen level and the rows holding it.
type LevelRows struct {
	Level string `json:"level"`
	Rows  int    `json:"rows"`
}

// UnseenColumn counts the rows of one categorical input that hold a level
// never seen in training.
type UnseenColumn struct {
	Column string `json:"column"`
	Rows   int    `json:"rows"`
	// Levels are the first distinct unseen levels (at most 10) with their
	// rows; More says there are others.
	Levels []LevelRows `json:"levels"`
	More   bool        `json:"more_levels,omitempty"`
}

// Unseen is the count of unseen levels per categorical input, in input
// order; columns without unseen levels are left out.
type Unseen []UnseenColumn

// Count counts the rows of X holding a level of a categorical input that
// was never seen in training (missing values are not counted). Inputs
// that X lacks or holds as numbers are skipped.
func (k *KnownLevels) Count(X *data.Table) Unseen {
	var out Unseen
	for _, kc := range k.cols {
		c := X.Col(kc.name)
		if c == nil || c.Kind != data.Categorical {
			continue
		}
		unseen := make([]bool, len(c.Levels))
		any := false
		for code, l := range c.Levels {
			if _, ok := kc.known[l]; !ok {
				unseen[code], any = true, true
			}
		}
		if !any {
			continue
		}
		rows := make([]int, len(c.Levels))
		uc := UnseenColumn{Column: kc.name}
		for _, code := range c.Codes {
			if code >= 0 && unseen[code] {
				rows[code]++
				uc.Rows++
			}
		}
		if uc.Rows == 0 {
			continue
		}
		for code, n := range rows {
			if n > 0 {
				uc.add(c.Levels[code], n)
			}
		}
		out = append(out, uc)
	}
	return out
}

// add counts n rows of level l.
func (uc *UnseenColumn) add(l string, n int) {
	for i := range uc.Levels {
		if uc.Levels[i].Level == l {
			uc.Levels[i].Rows += n
			return
		}
	}
	if len(uc.Levels) < maxUnseenShown {
		uc.Levels = append(uc.Levels, LevelRows{Level: l, Rows: n})
		return
	}
	uc.More = true
}

// Add adds the counts of o (another chunk of the same data).
func (u *Unseen) Add(o Unseen) {
	for _, oc := range o {
		i := 0
		for i < len(*u) && (*u)[i].Column != oc.Column {
			i++
		}
		if i == len(*u) {
			*u = append(*u, UnseenColumn{Column: oc.Column})
		}
		uc := &(*u)[i]
		uc.Rows += oc.Rows
		for _, lr := range oc.Levels {
			uc.add(lr.Level, lr.Rows)
		}
		uc.More = uc.More || oc.More
	}
}

// Rows returns the number of (row, column) cells holding an unseen level.
func (u Unseen) Rows() int {
	n := 0
	for _, c := range u {
		n += c.Rows
	}
	return n
}

// String describes the counts, one column after the other: `"Sex": 3 rows
// (alien 2, x 1)`.
func (u Unseen) String() string {
	parts := make([]string, len(u))
	for i, c := range u {
		lv := make([]string, len(c.Levels))
		for j, l := range c.Levels {
			lv[j] = fmt.Sprintf("%q %d", l.Level, l.Rows)
		}
		more := ""
		if c.More {
			more = ", …"
		}
		parts[i] = fmt.Sprintf("%q: %d %s (%s%s)", c.Column, c.Rows, plural(c.Rows, "row", "rows"), strings.Join(lv, ", "), more)
	}
	return strings.Join(parts, "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
