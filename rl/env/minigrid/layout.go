package minigrid

// generate builds a new episode's grid, drawing random numbers in exactly
// the order minigrid 2.3.1's _gen_grid does (spec §5.7, §9), and resets the
// episode state.
func (e *Env) generate() {
	c := e.cfg
	w, h := c.width, c.height
	for i := range e.grid {
		e.grid[i] = nothing
	}
	for x := 0; x < w; x++ {
		e.set(x, 0, wallObj)
		e.set(x, h-1, wallObj)
	}
	for y := 0; y < h; y++ {
		e.set(0, y, wallObj)
		e.set(w-1, y, wallObj)
	}
	e.carrying = nothing
	e.steps = 0
	// minigrid resets agent_pos to (-1, -1) before generating.
	e.ax, e.ay, e.dir = -1, -1, 0

	switch c.layout {
	case layoutEmptyRandom:
		e.set(w-2, h-2, goalObj)
		e.placeAgent(w, h)

	case layoutDoorKey:
		e.set(w-2, h-2, goalObj)
		split := e.gen.Integers(2, w-2)
		for y := 0; y < h; y++ {
			e.set(split, y, wallObj)
		}
		e.placeAgent(split, h)
		door := e.gen.Integers(1, w-2)
		e.set(split, door, lockedDoor)
		x, y := e.freeCell(split, h)
		e.set(x, y, keyObj)

	case layoutLavaGap:
		e.ax, e.ay, e.dir = 1, 1, 0
		e.set(w-2, h-2, goalObj)
		gx := e.gen.Integers(2, w-2)
		gy := e.gen.Integers(1, h-1)
		for y := 1; y <= h-2; y++ {
			e.set(gx, y, lavaObj)
		}
		e.set(gx, gy, nothing)

	case layoutDistShift:
		e.set(w-2, 1, goalObj)
		for i := 0; i < w-6; i++ {
			e.set(3+i, 1, lavaObj)
			e.set(3+i, c.strip2Row, lavaObj)
		}
		e.ax, e.ay, e.dir = 1, 1, 0
		if c.randomGoal {
			// The reference code re-places the goal by testing grid cells
			// only, so the goal may land on the agent's start cell.
			e.set(w-2, 1, nothing)
			for {
				x := e.gen.Integers(0, w)
				y := e.gen.Integers(0, h)
				if e.At(x, y).Kind == Empty && !(e.goalAvoidsStart && x == e.ax && y == e.ay) {
					e.set(x, y, goalObj)
					break
				}
			}
		}
	}
}

// freeCell rejection-samples a cell in [0, sx) × [0, sy) that holds nothing
// and is not the agent's cell (minigrid's place_obj with top = (0, 0)).
func (e *Env) freeCell(sx, sy int) (x, y int) {
	for {
		x = e.gen.Integers(0, sx)
		y = e.gen.Integers(0, sy)
		if e.At(x, y).Kind != Empty || (x == e.ax && y == e.ay) {
			continue
		}
		return x, y
	}
}

// placeAgent is minigrid's place_agent(size=(sx, sy)): a free cell, then a
// random direction.
func (e *Env) placeAgent(sx, sy int) {
	e.ax, e.ay = -1, -1
	e.ax, e.ay = e.freeCell(sx, sy)
	e.dir = e.gen.Integers(0, 4)
}
