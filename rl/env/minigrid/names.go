package minigrid

import (
	"strings"

	"github.com/gdt-ml/gdt/rl/env"
)

// viewCellNames names the view cells relative to the agent, indexed i·3+j
// (i = 0..2 left to right, j = 0..2 far to near; the agent is at (1, 2)).
var viewCellNames = [ViewSize * ViewSize]string{
	0*ViewSize + 0: "cell two ahead and one left",
	0*ViewSize + 1: "cell ahead-left",
	0*ViewSize + 2: "cell to the left",
	1*ViewSize + 0: "cell two ahead",
	1*ViewSize + 1: "cell ahead",
	1*ViewSize + 2: "agent's cell",
	2*ViewSize + 0: "cell two ahead and one right",
	2*ViewSize + 1: "cell ahead-right",
	2*ViewSize + 2: "cell to the right",
}

// bitNames completes "<cell> is …" for each one-hot bit.
var bitNames = map[int]string{
	0:  "unseen",
	1:  "empty",
	2:  "a wall",
	4:  "a door",
	5:  "a key",
	8:  "the goal",
	9:  "lava",
	17: "open or not a door",
	18: "a closed door",
	19: "a locked door",
}

// ViewCellName names view cell (i, j) relative to the agent, e.g.
// ViewCellName(1, 1) = "cell ahead".
func ViewCellName(i, j int) string { return viewCellNames[i*ViewSize+j] }

// featureName names observation component (cell c, one-hot bit) as a
// statement that is true when the component is +1.
func featureName(c, bit int) string {
	if c == 1*ViewSize+2 {
		// The agent's own cell shows what the agent carries.
		switch bit {
		case 1:
			return "agent carries nothing"
		case 5:
			return "agent carries a key"
		}
	}
	return viewCellNames[c] + " is " + bitNames[bit]
}

// actionNames names minigrid's actions.
var actionNames = [...]string{
	actLeft:    "turn left",
	actRight:   "turn right",
	actForward: "move forward",
	actPickup:  "pick up",
	actDrop:    "drop",
	actToggle:  "toggle",
}

func buildSpec(c *config) env.Spec {
	k := len(c.keep)
	f := ViewSize * ViewSize * k
	low := make([]float32, f)
	high := make([]float32, f)
	names := make([]string, f)
	for cell := 0; cell < ViewSize*ViewSize; cell++ {
		for n, bit := range c.keep {
			low[cell*k+n], high[cell*k+n] = -1, 1
			names[cell*k+n] = featureName(cell, bit)
		}
	}
	acts := make([]string, len(c.actions))
	for i, a := range c.actions {
		acts[i] = actionNames[a]
	}
	return env.Spec{
		ID:              c.id,
		Observation:     env.Space{Dim: f, Low: low, High: high},
		Action:          env.Space{N: len(c.actions), Dim: 1},
		MaxEpisodeSteps: c.maxSteps,
		OneEpisode:      c.layout == layoutDistShift && !c.randomGoal,
		FeatureNames:    names,
		ActionNames:     acts,
	}
}

// String draws the grid, one character per cell: '#' wall, 'G' goal,
// '~' lava, 'K' key, 'L' locked door, 'D' closed door, '/' open door,
// '.' nothing, and the agent as '>', 'v', '<' or '^' by direction. Rows run
// top (y = 0) to bottom. A carried object is noted after the grid.
func (e *Env) String() string {
	var b strings.Builder
	w, h := e.cfg.width, e.cfg.height
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x == e.ax && y == e.ay {
				b.WriteByte(">v<^"[e.dir])
				continue
			}
			b.WriteByte(cellChar(e.At(x, y)))
		}
		if y < h-1 {
			b.WriteByte('\n')
		}
	}
	if e.carrying.Kind != Empty {
		b.WriteString("\ncarrying: " + e.carrying.Color.String() + " " + e.carrying.Kind.String())
	}
	return b.String()
}

// ViewString draws the agent's 3×3 view as the policy sees it, the agent
// ('^') at the bottom centre looking up; '?' marks unseen cells. The agent's
// cell shows the carried object instead of '^' when there is one.
func (e *Env) ViewString() string {
	e.fillView()
	var b strings.Builder
	for j := 0; j < ViewSize; j++ {
		for i := 0; i < ViewSize; i++ {
			o := e.view[i*ViewSize+j]
			if i == 1 && j == ViewSize-1 && o.Kind == Empty {
				b.WriteByte('^')
				continue
			}
			b.WriteByte(cellChar(o))
		}
		if j < ViewSize-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func cellChar(o Object) byte {
	switch o.Kind {
	case Unseen:
		return '?'
	case Wall:
		return '#'
	case Goal:
		return 'G'
	case Lava:
		return '~'
	case Key:
		return 'K'
	case Door:
		switch o.State {
		case Locked:
			return 'L'
		case Closed:
			return 'D'
		}
		return '/'
	}
	return '.'
}
