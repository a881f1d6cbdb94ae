package main

import "github.com/gdt-ml/gdt/rl/ppo"

// policyKinds are the policy kinds of `gdt rl` (their options are PPO's;
// sympol, mlp and sdt are its methods).
func policyKinds() []declaredKind {
	return []declaredKind{{Name: "sympol", Help: "SYMPOL and its baselines (--method sympol, mlp, sdt): policies trained with PPO or A2C; defaults per environment from the thesis's best configurations",
		Commands: "rl train, rl bench, tune", specs: ppo.Options.Specs()}}
}
