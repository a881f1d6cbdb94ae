// Package minigrid holds the MiniGrid environments SYMPOL is evaluated on
// (Empty-Random-6x6, DoorKey-5x5, LavaGapS5/S7, DistShift1/2 and the
// randomised-goal DistShift3/4 of the goal-misgeneralisation case study),
// with the dynamics of minigrid 2.3.1 and the observation the reference code
// feeds its policies: the 3×3 egocentric view (ViewSizeWrapper(3)), one-hot
// encoded (OneHotPartialObsWrapper), reduced to the object bits that matter
// for the environment and mapped to ±1.
//
// Layouts are drawn from a port of numpy's Generator(PCG64(SeedSequence(s)))
// with numpy's bounded-integer algorithm, in the order minigrid draws them,
// so Seed(s) followed by Reset gives the layout gymnasium's env.reset(seed=s)
// gives, and later Resets continue the same stream as gymnasium's automatic
// resets do.
//
// The environments register themselves with package env under their
// Gymnasium IDs (see the ID constants); create them with env.Make or New.
package minigrid

import (
	"fmt"
	"strings"

	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rng"
)

// Gymnasium IDs of the registered environments.
const (
	IDEmptyRandom6x6 = "MiniGrid-Empty-Random-6x6-v0"
	IDDoorKey5x5     = "MiniGrid-DoorKey-5x5-v0"
	IDLavaGapS5      = "MiniGrid-LavaGapS5-v0"
	IDLavaGapS7      = "MiniGrid-LavaGapS7-v0"
	IDDistShift1     = "MiniGrid-DistShift1-v0"
	IDDistShift2     = "MiniGrid-DistShift2-v0"
	// IDDistShift3 is DistShift1's lava (rows 1 and 2) with the goal placed
	// uniformly at random on a free cell at every reset (the reference
	// code's custom environment, spec §9).
	IDDistShift3 = "MiniGrid-DistShift3-v0"
	// IDDistShift4 is DistShift2's lava (rows 1 and 5) with a random goal.
	IDDistShift4 = "MiniGrid-DistShift4-v0"
)

// minigrid's action numbering.
const (
	actLeft    = 0
	actRight   = 1
	actForward = 2
	actPickup  = 3
	actDrop    = 4
	actToggle  = 5
)

type layoutKind uint8

const (
	layoutEmptyRandom layoutKind = iota
	layoutDoorKey
	layoutLavaGap
	layoutDistShift
)

// config is everything that distinguishes one registered environment.
type config struct {
	id            string
	layout        layoutKind
	width, height int
	maxSteps      int
	seeThrough    bool  // see_through_walls: no occlusion in the view
	strip2Row     int   // DistShift: row of the second lava strip
	randomGoal    bool  // DistShift3/4: goal re-placed at random
	keep          []int // one-hot bits kept per view cell, in order
	actions       []int // policy action index → minigrid action
	spec          env.Spec
}

var (
	bitsEmpty   = []int{0, 1, 2, 8}
	bitsLava    = []int{0, 1, 2, 8, 9}
	bitsDoorKey = []int{0, 1, 2, 4, 5, 8, 17, 18, 19}
	actions3    = []int{actLeft, actRight, actForward}
	actions5    = []int{actLeft, actRight, actForward, actPickup, actToggle}
)

var configs = []*config{
	{id: IDEmptyRandom6x6, layout: layoutEmptyRandom, width: 6, height: 6, maxSteps: 4 * 6 * 6,
		seeThrough: true, keep: bitsEmpty, actions: actions3},
	{id: IDDoorKey5x5, layout: layoutDoorKey, width: 5, height: 5, maxSteps: 10 * 5 * 5,
		keep: bitsDoorKey, actions: actions5},
	{id: IDLavaGapS5, layout: layoutLavaGap, width: 5, height: 5, maxSteps: 4 * 5 * 5,
		keep: bitsLava, actions: actions3},
	{id: IDLavaGapS7, layout: layoutLavaGap, width: 7, height: 7, maxSteps: 4 * 7 * 7,
		keep: bitsLava, actions: actions3},
	{id: IDDistShift1, layout: layoutDistShift, width: 9, height: 7, maxSteps: 4 * 9 * 7,
		seeThrough: true, strip2Row: 2, keep: bitsLava, actions: actions3},
	{id: IDDistShift2, layout: layoutDistShift, width: 9, height: 7, maxSteps: 4 * 9 * 7,
		seeThrough: true, strip2Row: 5, keep: bitsLava, actions: actions3},
	{id: IDDistShift3, layout: layoutDistShift, width: 9, height: 7, maxSteps: 4 * 9 * 7,
		seeThrough: true, strip2Row: 2, randomGoal: true, keep: bitsLava, actions: actions3},
	{id: IDDistShift4, layout: layoutDistShift, width: 9, height: 7, maxSteps: 4 * 9 * 7,
		seeThrough: true, strip2Row: 5, randomGoal: true, keep: bitsLava, actions: actions3},
}

func init() {
	for _, c := range configs {
		c.spec = buildSpec(c)
		env.Register(c.id, func() env.Env { return newEnv(c) })
	}
}

// ViewSize is the side of the agent's egocentric view.
const ViewSize = 3

// Direction vectors: 0 east (+x), 1 south (+y), 2 west (−x), 3 north (−y).
var dirVec = [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

// Env is one MiniGrid environment instance. It implements env.Env; the
// extra methods expose the state for tests, debugging and analysis.
type Env struct {
	cfg      *config
	grid     []Object // row-major, width·height
	ax, ay   int      // agent position
	dir      int      // agent direction 0..3
	carrying Object   // Kind Empty when nothing is carried
	steps    int
	gen      rng.PCG64
	// goalAvoidsStart makes DistShift3/4 reject the agent's start cell
	// when re-placing the goal (the reference code does not).
	goalAvoidsStart bool
	view            [ViewSize * ViewSize]Object // view cell (i, j) at i·3+j
}

// New returns a fresh instance of the MiniGrid environment registered under
// id, seeded with 0.
func New(id string) (*Env, error) {
	for _, c := range configs {
		if c.id == id {
			return newEnv(c), nil
		}
	}
	known := make([]string, len(configs))
	for i, c := range configs {
		known[i] = c.id
	}
	return nil, fmt.Errorf("minigrid: unknown environment %q (known: %s)", id, strings.Join(known, ", "))
}

func newEnv(c *config) *Env {
	e := &Env{cfg: c, grid: make([]Object, c.width*c.height)}
	e.gen.Seed(0)
	e.generate() // a valid state before the first Reset
	e.gen.Seed(0)
	return e
}

// Spec describes the environment. The slices in it are shared by all
// instances and must not be modified.
func (e *Env) Spec() env.Spec { return e.cfg.spec }

// Seed reseeds the layout generator as gymnasium's reset(seed=seed) does.
// A new instance behaves as if seeded with 0.
func (e *Env) Seed(seed uint64) { e.gen.Seed(seed) }

// Reset draws a new layout from the generator and writes the first
// observation into obs (length Spec().Observation.Dim).
func (e *Env) Reset(obs []float32) {
	e.generate()
	e.Observe(obs)
}

// Step applies the policy action action[0] (an index into
// Spec().ActionNames, stored as a float32), writes the next observation and
// returns the reward and whether the episode terminated (goal reached or
// lava entered). Reaching the goal pays 1 − 0.9·steps/max_steps, counting
// this step. The time limit is not checked here: it is Spec().MaxEpisodeSteps
// and the caller's business. An action outside the action space is a
// programming error and panics.
func (e *Env) Step(action []float32, obs []float32) (reward float32, terminated bool) {
	a := action[0]
	if !(a >= 0 && a < float32(len(e.cfg.actions))) {
		panic(fmt.Sprintf("minigrid: %s: action %v outside [0, %d)", e.cfg.id, a, len(e.cfg.actions)))
	}
	e.steps++
	fx, fy := e.ax+dirVec[e.dir][0], e.ay+dirVec[e.dir][1]
	fwd := e.At(fx, fy)
	switch e.cfg.actions[int(a)] {
	case actLeft:
		e.dir = (e.dir + 3) % 4
	case actRight:
		e.dir = (e.dir + 1) % 4
	case actForward:
		if fwd.canOverlap() {
			e.ax, e.ay = fx, fy
		}
		switch fwd.Kind {
		case Goal:
			terminated = true
			reward = float32(1 - 0.9*(float64(e.steps)/float64(e.cfg.maxSteps)))
		case Lava:
			terminated = true
		}
	case actPickup:
		if fwd.Kind == Key && e.carrying.Kind == Empty {
			e.carrying = fwd
			e.set(fx, fy, nothing)
		}
	case actToggle:
		if fwd.Kind == Door {
			switch fwd.State {
			case Locked:
				if e.carrying.Kind == Key && e.carrying.Color == fwd.Color {
					fwd.State = Open
				}
			case Open:
				fwd.State = Closed
			case Closed:
				fwd.State = Open
			}
			e.set(fx, fy, fwd)
		}
	}
	e.Observe(obs)
	return reward, terminated
}

// Observe writes the observation of the current state into obs without
// changing the state: for each view cell (i, j) (i = 0..2 left to right,
// j = 0..2 far to near, the agent at (1, 2) looking towards j = 0) and each
// kept one-hot bit k, obs[(i·3+j)·K+k] is +1 if the bit is set, else −1.
func (e *Env) Observe(obs []float32) {
	e.fillView()
	keep := e.cfg.keep
	k := len(keep)
	_ = obs[len(e.view)*k-1]
	for c := range e.view {
		b := e.view[c].bits()
		row := obs[c*k : c*k+k]
		for n, bit := range keep {
			if b>>uint(bit)&1 != 0 {
				row[n] = 1
			} else {
				row[n] = -1
			}
		}
	}
}

// fillView computes the encoded 3×3 egocentric view into e.view:
// world position of view cell (i, j) = agent + f·(2−j) + r·(i−1), cells
// outside the grid are walls, occluded cells are unseen (unless the
// environment sees through walls), and the agent's own cell shows what it
// carries.
func (e *Env) fillView() {
	fx, fy := dirVec[e.dir][0], dirVec[e.dir][1]
	rx, ry := -fy, fx
	for i := 0; i < ViewSize; i++ {
		for j := 0; j < ViewSize; j++ {
			e.view[i*ViewSize+j] = e.At(e.ax+fx*(2-j)+rx*(i-1), e.ay+fy*(2-j)+ry*(i-1))
		}
	}
	if !e.cfg.seeThrough {
		var vis [ViewSize * ViewSize]bool
		vis[1*ViewSize+2] = true
		for j := ViewSize - 1; j >= 0; j-- {
			for i := 0; i < ViewSize-1; i++ {
				if !vis[i*ViewSize+j] || !e.view[i*ViewSize+j].seeBehind() {
					continue
				}
				vis[(i+1)*ViewSize+j] = true
				if j > 0 {
					vis[(i+1)*ViewSize+j-1] = true
					vis[i*ViewSize+j-1] = true
				}
			}
			for i := ViewSize - 1; i >= 1; i-- {
				if !vis[i*ViewSize+j] || !e.view[i*ViewSize+j].seeBehind() {
					continue
				}
				vis[(i-1)*ViewSize+j] = true
				if j > 0 {
					vis[(i-1)*ViewSize+j-1] = true
					vis[i*ViewSize+j-1] = true
				}
			}
		}
		for c, v := range vis {
			if !v {
				e.view[c] = unseenCell
			}
		}
	}
	e.view[1*ViewSize+2] = e.carrying
}

// View returns the encoded object at view cell (i, j) of the current state
// (i = 0..2 left to right, j = 0..2 far to near; the agent is at (1, 2)).
func (e *Env) View(i, j int) Object {
	e.fillView()
	return e.view[i*ViewSize+j]
}

// At returns the object at grid cell (x, y); cells outside the grid are
// walls. The agent is not an object.
func (e *Env) At(x, y int) Object {
	if x < 0 || y < 0 || x >= e.cfg.width || y >= e.cfg.height {
		return wallObj
	}
	return e.grid[y*e.cfg.width+x]
}

func (e *Env) set(x, y int, o Object) { e.grid[y*e.cfg.width+x] = o }

// Size returns the grid width and height.
func (e *Env) Size() (width, height int) { return e.cfg.width, e.cfg.height }

// Agent returns the agent's position and direction (0 east, 1 south,
// 2 west, 3 north).
func (e *Env) Agent() (x, y, dir int) { return e.ax, e.ay, e.dir }

// Carrying returns the carried object (Kind Empty when nothing is carried).
func (e *Env) Carrying() Object { return e.carrying }

// StepCount returns the number of steps taken since the last Reset.
func (e *Env) StepCount() int { return e.steps }

// SetGoalAvoidsStart chooses how DistShift3/4 re-place the goal. The
// reference code (and the default here) accepts any cell holding no object,
// so with probability 1/29 the goal lies under the agent's start (1, 1) and
// the agent must step off and back to collect it; with avoid = true the start
// cell is rejected like an occupied one (same draws otherwise). Other
// environments ignore the setting. It takes effect at the next Reset.
func (e *Env) SetGoalAvoidsStart(avoid bool) { e.goalAvoidsStart = avoid }

// SetAgent moves the agent to (x, y) facing dir, for analysis and tests
// (e.g. querying a policy from every cell). The cell must be inside the grid
// and one the agent may stand on.
func (e *Env) SetAgent(x, y, dir int) error {
	if x < 0 || y < 0 || x >= e.cfg.width || y >= e.cfg.height {
		return fmt.Errorf("minigrid: %s: agent position (%d, %d) outside the %d×%d grid", e.cfg.id, x, y, e.cfg.width, e.cfg.height)
	}
	if dir < 0 || dir > 3 {
		return fmt.Errorf("minigrid: %s: agent direction %d, want 0..3", e.cfg.id, dir)
	}
	if o := e.At(x, y); !o.canOverlap() {
		return fmt.Errorf("minigrid: %s: agent cannot stand on the %s at (%d, %d)", e.cfg.id, o.Kind, x, y)
	}
	e.ax, e.ay, e.dir = x, y, dir
	return nil
}

// AppendRandState appends the layout generator's state to b
// (env.RandStater).
func (e *Env) AppendRandState(b []byte) []byte {
	b, _ = e.gen.AppendBinary(b) // never fails
	return b
}

// SetRandState restores a generator state AppendRandState wrote.
func (e *Env) SetRandState(b []byte) error { return e.gen.UnmarshalBinary(b) }

// StartStates returns the number of start states a Reset draws from
// (env.FiniteStarts): Empty-Random's agent cell (any free cell but the
// goal's) times its four directions, 60 on the 6×6 grid; 1 for
// DistShift1/2, whose layout is fixed; 0 (not counted) for the layouts
// that also draw walls, doors, keys, lava gaps or goals.
func (e *Env) StartStates() int {
	c := e.cfg
	switch {
	case c.layout == layoutEmptyRandom:
		return 4 * ((c.width-2)*(c.height-2) - 1)
	case c.layout == layoutDistShift && !c.randomGoal:
		return 1
	}
	return 0
}

// StartState returns a key of the agent's cell and direction, which is the
// whole start state where StartStates counts them (env.FiniteStarts).
func (e *Env) StartState() int { return (e.ay*e.cfg.width+e.ax)*4 + e.dir }
