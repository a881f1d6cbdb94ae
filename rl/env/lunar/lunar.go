// Package lunar implements LunarLander-v2 as in Gymnasium 0.29.1 (discrete
// actions, no wind) on the Box2D port github.com/ByteArena/box2d.
//
// The constants, bodies, joints, engine impulses with their dispersion noise,
// the observation, the shaping reward and the termination rules follow
// Gymnasium's lunar_lander.py. The random stream is numpy's
// Generator(PCG64(SeedSequence(seed))), drawn in Gymnasium's order: 12
// terrain heights and 2 initial-force components per reset, then 2
// dispersion values per step (including the step that ends Reset). The
// physics is float64 Box2D 2.3-era rather than pybox2d's float32 Box2D
// 2.3.x, so trajectories agree with Gymnasium statistically, not bit for bit.
//
// Two further differences, neither of which touches the lander: the
// cosmetic exhaust particles Gymnasium creates (they collide only with the
// ground) are not simulated, and every episode gets a fresh Box2D world
// instead of reusing one (the only state a reused world carries is the last
// step's 1/dt, which scales warm starts of contacts and joints that are all
// new at a reset). Step allocates nothing itself; Box2D's World.Step
// allocates its island and solver scratch (about 26 allocations, 6 kB) on
// every call.
package lunar

import (
	"fmt"
	"math"

	"github.com/ByteArena/box2d"

	"github.com/gdt-ml/gdt/rl/env"
	"github.com/gdt-ml/gdt/rng"
)

// ID is the identifier under which the environment is registered.
const ID = "LunarLander-v2"

// MaxEpisodeSteps is Gymnasium's TimeLimit for LunarLander-v2.
const MaxEpisodeSteps = 1000

// Discrete actions.
const (
	ActionNoop  = 0 // do nothing
	ActionLeft  = 1 // fire the left orientation engine (turns the lander counter-clockwise, pushes it left)
	ActionMain  = 2 // fire the main engine
	ActionRight = 3 // fire the right orientation engine (turns the lander clockwise, pushes it right)
)

// Gymnasium's constants (pixels unless noted; SCALE pixels per metre).
const (
	fps             = 50
	scale           = 30.0
	mainEnginePower = 13.0
	sideEnginePower = 0.6
	initialRandom   = 1000.0
	legAway         = 20.0
	legDown         = 18.0
	legW, legH      = 2.0, 8.0
	legSpringTorque = 40.0
	sideEngineHigh  = 14.0
	sideEngineAway  = 12.0
	mainEngineYLoc  = 4.0
	viewportW       = 600.0
	viewportH       = 400.0
	chunks          = 11

	worldW = viewportW / scale // 20 m
	worldH = viewportH / scale // 13.333 m

	velocityIterations = 6 * 30
	positionIterations = 2 * 30
)

// landerPoly is the hull polygon in pixels.
var landerPoly = [6][2]float64{{-14, 17}, {-17, 0}, {-17, -10}, {17, -10}, {17, 0}, {14, 17}}

var (
	featureNames = []string{
		"x position", "y position", "x velocity", "y velocity",
		"angle", "angular velocity", "left leg contact", "right leg contact",
	}
	actionNames = []string{"do nothing", "fire left engine", "fire main engine", "fire right engine"}
	obsLow      = []float32{-1.5, -1.5, -5, -5, -math.Pi, -5, 0, 0}
	obsHigh     = []float32{1.5, 1.5, 5, 5, math.Pi, 5, 1, 1}
)

// Scaling is the fixed observation scaling of the thesis's LunarLander
// setup (spec §1.5): x/1.5, y/1.5, vx/5, vy/5, angle/3.14, angular
// velocity/5, (leg − 1)/0.5 for both legs (so contact 1 → 0 and no contact
// 0 → −2). Learners apply it to every observation (env.Scaled); the
// environment itself reports Gymnasium's raw observation.
var Scaling = env.Scaling{
	Sub: []float32{0, 0, 0, 0, 0, 0, 1, 1},
	Div: []float32{1.5, 1.5, 5, 5, 3.14, 5, 0.5, 0.5},
}

func init() {
	env.Register(ID, func() env.Env { return New() })
	env.RegisterScaling(ID, Scaling)
}

// Lander is one LunarLander-v2 instance. The zero value is not usable; call
// New. A Lander is not safe for concurrent use.
type Lander struct {
	rng rng.PCG64

	world    *box2d.B2World
	moon     *box2d.B2Body
	lander   *box2d.B2Body
	legs     [2]*box2d.B2Body
	contacts contactDetector

	helipadY    float64
	prevShaping float64
	hasPrev     bool
	ready       bool

	// Terrain of the current episode (for inspection and rendering).
	chunkX  [chunks]float64
	smoothY [chunks]float64
}

// New returns a LunarLander-v2 instance seeded with 0 (Gymnasium seeds from
// the operating system when no seed is given; here the default is fixed so
// that runs are reproducible). Call Seed to choose another seed.
func New() *Lander {
	l := &Lander{}
	l.Seed(0)
	return l
}

// Spec describes LunarLander-v2: 8 observation features within Gymnasium's
// bounds, 4 discrete actions, a 1000-step time limit that is a truncation.
func (l *Lander) Spec() env.Spec {
	return env.Spec{
		ID: ID,
		Observation: env.Space{
			Dim:  8,
			Low:  append([]float32(nil), obsLow...),
			High: append([]float32(nil), obsHigh...),
		},
		Action:              env.Space{N: 4, Dim: 1},
		MaxEpisodeSteps:     MaxEpisodeSteps,
		TimeLimitIsTerminal: false,
		FeatureNames:        append([]string(nil), featureNames...),
		ActionNames:         append([]string(nil), actionNames...),
	}
}

// Seed reseeds the generator as Gymnasium's reset(seed=seed) does:
// numpy's Generator(PCG64(SeedSequence(seed))). Seed followed by Reset is
// Gymnasium's env.reset(seed=seed); later Resets continue the stream.
func (l *Lander) Seed(seed uint64) {
	l.rng.Seed(seed)
}

// Reset builds a new random terrain and lander, pushes the lander with a
// random force, performs one step with no engine (as Gymnasium does) and
// writes that step's observation into obs (len ≥ 8).
func (l *Lander) Reset(obs []float32) {
	checkObs(obs)
	// A fresh world per episode: Gymnasium destroys the bodies of the
	// previous episode and keeps the world; the only state a kept world
	// carries over is the previous step's 1/dt, which scales warm-started
	// impulses of contacts and joints that are all new here.
	w := box2d.MakeB2World(box2d.MakeB2Vec2(0, -10))
	l.world = &w
	l.contacts = contactDetector{}
	w.SetContactListener(&l.contacts)
	l.hasPrev = false

	// Terrain.
	var height [chunks + 1]float64
	for i := range height {
		height[i] = l.rng.Uniform(0, worldH/2)
	}
	for i := range l.chunkX {
		l.chunkX[i] = worldW / (chunks - 1) * float64(i)
	}
	l.helipadY = worldH / 4
	for i := chunks/2 - 2; i <= chunks/2+2; i++ {
		height[i] = l.helipadY
	}
	for i := 0; i < chunks; i++ {
		prev := height[(i-1+len(height))%len(height)] // h[-1] is the last element
		l.smoothY[i] = 0.33 * (prev + height[i] + height[i+1])
	}

	bd := box2d.MakeB2BodyDef()
	bd.Type = box2d.B2BodyType.B2_staticBody
	l.moon = w.CreateBody(&bd)
	edge := box2d.MakeB2EdgeShape()
	edge.Set(box2d.MakeB2Vec2(0, 0), box2d.MakeB2Vec2(worldW, 0))
	fd := box2d.MakeB2FixtureDef() // pybox2d defaults: friction 0.2, density 0
	fd.Shape = &edge
	fd.Filter = box2d.MakeB2Filter()
	l.moon.CreateFixtureFromDef(&fd)
	for i := 0; i < chunks-1; i++ {
		e := box2d.MakeB2EdgeShape()
		e.Set(box2d.MakeB2Vec2(l.chunkX[i], l.smoothY[i]), box2d.MakeB2Vec2(l.chunkX[i+1], l.smoothY[i+1]))
		fd := box2d.MakeB2FixtureDef()
		fd.Shape = &e
		fd.Density = 0
		fd.Friction = 0.1
		fd.Filter = box2d.MakeB2Filter()
		l.moon.CreateFixtureFromDef(&fd)
	}

	// Lander hull.
	bd = box2d.MakeB2BodyDef()
	bd.Type = box2d.B2BodyType.B2_dynamicBody
	bd.Position = box2d.MakeB2Vec2(worldW/2, worldH)
	bd.Angle = 0
	l.lander = w.CreateBody(&bd)
	var verts [len(landerPoly)]box2d.B2Vec2
	for i, p := range landerPoly {
		verts[i] = box2d.MakeB2Vec2(p[0]/scale, p[1]/scale)
	}
	poly := box2d.MakeB2PolygonShape()
	poly.Set(verts[:], len(verts))
	fd = box2d.MakeB2FixtureDef()
	fd.Shape = &poly
	fd.Density = 5.0
	fd.Friction = 0.1
	fd.Restitution = 0
	fd.Filter = box2d.MakeB2Filter()
	fd.Filter.CategoryBits = 0x0010
	fd.Filter.MaskBits = 0x0001 // collide only with the ground
	l.lander.CreateFixtureFromDef(&fd)
	fx := l.rng.Uniform(-initialRandom, initialRandom)
	fy := l.rng.Uniform(-initialRandom, initialRandom)
	l.lander.ApplyForceToCenter(box2d.MakeB2Vec2(fx, fy), true)

	// Legs: legs[0] is i = −1, legs[1] is i = +1.
	for k, i := range [2]float64{-1, +1} {
		bd := box2d.MakeB2BodyDef()
		bd.Type = box2d.B2BodyType.B2_dynamicBody
		bd.Position = box2d.MakeB2Vec2(worldW/2-i*legAway/scale, worldH)
		bd.Angle = i * 0.05
		leg := w.CreateBody(&bd)
		box := box2d.MakeB2PolygonShape()
		box.SetAsBox(legW/scale, legH/scale)
		fd := box2d.MakeB2FixtureDef() // friction stays at the 0.2 default
		fd.Shape = &box
		fd.Density = 1.0
		fd.Restitution = 0
		fd.Filter = box2d.MakeB2Filter()
		fd.Filter.CategoryBits = 0x0020
		fd.Filter.MaskBits = 0x0001
		leg.CreateFixtureFromDef(&fd)

		rjd := box2d.MakeB2RevoluteJointDef()
		rjd.BodyA = l.lander
		rjd.BodyB = leg
		rjd.LocalAnchorA = box2d.MakeB2Vec2(0, 0)
		rjd.LocalAnchorB = box2d.MakeB2Vec2(i*legAway/scale, legDown/scale)
		rjd.EnableMotor = true
		rjd.EnableLimit = true
		rjd.MaxMotorTorque = legSpringTorque
		rjd.MotorSpeed = 0.3 * i
		if i == -1 {
			rjd.LowerAngle = 0.9 - 0.5
			rjd.UpperAngle = 0.9
		} else {
			rjd.LowerAngle = -0.9
			rjd.UpperAngle = -0.9 + 0.5
		}
		w.CreateJoint(&rjd)
		l.legs[k] = leg
	}
	l.contacts.lander = l.lander
	l.contacts.legs = l.legs
	l.ready = true

	l.step(ActionNoop, obs)
}

// Step fires the engine chosen by action[0] (0 none, 1 left, 2 main,
// 3 right), advances the world by 1/50 s, writes the observation into obs
// and returns the reward and whether the episode terminated: −100 when the
// hull touched the ground or |x| ≥ 1, +100 when the lander came to rest
// (Box2D put it to sleep). Time limits are not Step's business.
//
// Step panics if called before Reset or with an action that is not one of
// 0, 1, 2, 3 (programming errors of the caller).
func (l *Lander) Step(action []float32, obs []float32) (reward float32, terminated bool) {
	if !l.ready {
		panic("lunar: Step called before Reset")
	}
	if len(action) < 1 {
		panic("lunar: Step needs an action slice of length 1")
	}
	a := int(action[0])
	if float32(a) != action[0] || a < 0 || a > 3 {
		panic(fmt.Sprintf("lunar: action %v is not one of 0, 1, 2, 3", action[0]))
	}
	checkObs(obs)
	return l.step(a, obs)
}

func checkObs(obs []float32) {
	if len(obs) < 8 {
		panic(fmt.Sprintf("lunar: observation slice has length %d, want 8", len(obs)))
	}
}

// step is Gymnasium's LunarLander.step for a valid discrete action.
func (l *Lander) step(a int, obs []float32) (float32, bool) {
	angle := l.lander.GetAngle()
	tipX, tipY := math.Sin(angle), math.Cos(angle)
	sideX, sideY := -tipY, tipX
	d0 := l.rng.Uniform(-1, 1) / scale
	d1 := l.rng.Uniform(-1, 1) / scale

	mPower := 0.0
	if a == ActionMain {
		mPower = 1.0
		ox := tipX*(mainEngineYLoc/scale+2*d0) + sideX*d1
		oy := -tipY*(mainEngineYLoc/scale+2*d0) - sideY*d1
		pos := l.lander.GetPosition()
		l.lander.ApplyLinearImpulse(
			box2d.MakeB2Vec2(-ox*mainEnginePower*mPower, -oy*mainEnginePower*mPower),
			box2d.MakeB2Vec2(pos.X+ox, pos.Y+oy), true)
	}
	sPower := 0.0
	if a == ActionLeft || a == ActionRight {
		sPower = 1.0
		dir := float64(a - 2)
		ox := tipX*d0 + sideX*(3*d1+dir*sideEngineAway/scale)
		oy := -tipY*d0 - sideY*(3*d1+dir*sideEngineAway/scale)
		pos := l.lander.GetPosition()
		l.lander.ApplyLinearImpulse(
			box2d.MakeB2Vec2(-ox*sideEnginePower*sPower, -oy*sideEnginePower*sPower),
			box2d.MakeB2Vec2(pos.X+ox-tipX*17/scale, pos.Y+oy+tipY*sideEngineHigh/scale), true)
	}

	l.world.Step(1.0/fps, velocityIterations, positionIterations)

	pos := l.lander.GetPosition()
	vel := l.lander.GetLinearVelocity()
	var s [8]float64
	s[0] = (pos.X - worldW/2) / (worldW / 2)
	s[1] = (pos.Y - (l.helipadY + legDown/scale)) / (worldH / 2)
	s[2] = vel.X * (worldW / 2) / fps
	s[3] = vel.Y * (worldH / 2) / fps
	s[4] = l.lander.GetAngle()
	s[5] = 20 * l.lander.GetAngularVelocity() / fps
	if l.contacts.legContact[0] {
		s[6] = 1
	}
	if l.contacts.legContact[1] {
		s[7] = 1
	}
	for i, v := range s {
		obs[i] = float32(v)
	}

	shaping := -100*math.Sqrt(s[0]*s[0]+s[1]*s[1]) -
		100*math.Sqrt(s[2]*s[2]+s[3]*s[3]) -
		100*math.Abs(s[4]) + 10*s[6] + 10*s[7]
	reward := 0.0
	if l.hasPrev {
		reward = shaping - l.prevShaping
	}
	l.prevShaping, l.hasPrev = shaping, true
	reward -= mPower * 0.30
	reward -= sPower * 0.03

	terminated := false
	if l.contacts.gameOver || math.Abs(s[0]) >= 1 {
		terminated, reward = true, -100
	}
	if !l.lander.IsAwake() {
		terminated, reward = true, +100
	}
	return float32(reward), terminated
}

// HelipadY returns the height of the landing pad in world metres (H/4).
func (l *Lander) HelipadY() float64 { return l.helipadY }

// Terrain returns the x coordinates and smoothed heights (world metres) of
// the 11 terrain vertices of the current episode.
func (l *Lander) Terrain() (x, y [11]float64) { return l.chunkX, l.smoothY }

// contactDetector is Gymnasium's ContactDetector: any contact of the hull
// ends the game; a leg's ground contact flag follows its begin/end contacts.
type contactDetector struct {
	lander     *box2d.B2Body
	legs       [2]*box2d.B2Body
	gameOver   bool
	legContact [2]bool
}

func (c *contactDetector) BeginContact(contact box2d.B2ContactInterface) {
	a, b := contact.GetFixtureA().GetBody(), contact.GetFixtureB().GetBody()
	if a == c.lander || b == c.lander {
		c.gameOver = true
	}
	for i, leg := range c.legs {
		if a == leg || b == leg {
			c.legContact[i] = true
		}
	}
}

func (c *contactDetector) EndContact(contact box2d.B2ContactInterface) {
	a, b := contact.GetFixtureA().GetBody(), contact.GetFixtureB().GetBody()
	for i, leg := range c.legs {
		if a == leg || b == leg {
			c.legContact[i] = false
		}
	}
}

func (c *contactDetector) PreSolve(box2d.B2ContactInterface, box2d.B2Manifold) {}

func (c *contactDetector) PostSolve(box2d.B2ContactInterface, *box2d.B2ContactImpulse) {}

// AppendRandState appends the generator's state to b (env.RandStater).
func (l *Lander) AppendRandState(b []byte) []byte {
	b, _ = l.rng.AppendBinary(b) // never fails
	return b
}

// SetRandState restores a generator state AppendRandState wrote.
func (l *Lander) SetRandState(b []byte) error { return l.rng.UnmarshalBinary(b) }
