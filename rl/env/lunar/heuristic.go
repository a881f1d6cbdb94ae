package lunar

// Heuristic returns the action of the classic hand-written LunarLander
// controller (the one shipped with Gymnasium as a demo), computed from an
// observation in the environment's own units: tilt towards the pad in
// proportion to the horizontal offset and velocity, hover at a height
// proportional to the offset, fire the main engine when climbing is needed
// more than turning, a side engine when turning is needed; after touch-down
// only brake the fall. It scores above 200 on most episodes and serves as a
// sanity check of the physics and as a baseline.
func Heuristic(obs []float32) int {
	x, y := float64(obs[0]), float64(obs[1])
	vx, vy := float64(obs[2]), float64(obs[3])
	angle, angVel := float64(obs[4]), float64(obs[5])

	angleTarget := x*0.5 + vx*1.0 // point towards the centre
	angleTarget = min(max(angleTarget, -0.4), 0.4)
	hoverTarget := 0.55 * abs(x) // the further away, the higher

	angleTodo := (angleTarget-angle)*0.5 - angVel*1.0
	hoverTodo := (hoverTarget-y)*0.5 - vy*0.5
	if obs[6] != 0 || obs[7] != 0 { // legs touch: only slow the fall
		angleTodo = 0
		hoverTodo = -vy * 0.5
	}
	switch {
	case hoverTodo > abs(angleTodo) && hoverTodo > 0.05:
		return ActionMain
	case angleTodo < -0.05:
		return ActionRight
	case angleTodo > 0.05:
		return ActionLeft
	}
	return ActionNoop
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
