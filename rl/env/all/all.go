// Package all registers every environment of gdt with package env: import
// it for its side effect,
//
//	import _ "github.com/gdt-ml/gdt/rl/env/all"
//
// and env.IDs, env.Make and env.NewVec know CartPole-v1, Acrobot-v1,
// Pendulum-v1, MountainCarContinuous-v0, LunarLander-v2 and the MiniGrid
// tasks. A new environment package adds its blank import here.
package all

import (
	_ "github.com/gdt-ml/gdt/rl/env/classic"  // CartPole, Acrobot, Pendulum, MountainCarContinuous
	_ "github.com/gdt-ml/gdt/rl/env/lunar"    // LunarLander-v2
	_ "github.com/gdt-ml/gdt/rl/env/minigrid" // MiniGrid tasks
)
