// Package ppo trains policies on-policy with PPO or A2C as SYMPOL does
// (spec sympol-rl §2–§4): rollouts over an env.Vec, generalised advantage
// estimation, PPO's clipped surrogate (or A2C's −Â·log π) with an entropy
// bonus, a separate MLP critic trained on ½·(V − R)², per-minibatch advantage
// normalisation, global-norm gradient clipping, the dynamic rollout length
// and batch size of §4 (Schedule), reduce-on-plateau of the actor's learning
// rates on the validation return, the evaluation schedule of §3.7, and
// checkpoints for resuming. The actor is a policy.Actor: the SYMPOL tree
// (method "sympol") or an MLP (method "mlp").
//
// # Profiles
//
// The default profile follows the thesis with the reference code's evident
// defects fixed (spec §11): continuous actions are stored as floats, a
// time-limit truncation bootstraps from V(final observation) in every
// environment, the learning rate is halved only when the validation return
// has not improved for 5 evaluations, and the dynamic batch size really
// averages K minibatch gradients per actor step (an effective batch of K·M).
// The §8.9 learning rates were tuned under the reference's behaviour (one
// actor step per minibatch of M samples, and for configurations with
// reduce_lr a halving of the actor's rates every 3 evaluations), so by
// default (accum_mode "auto") the accumulated step multiplies the actor's
// learning rates by √K — Adam's square-root scaling rule — where reduce_lr
// is off, and keeps them where it is on, letting the growing batch anneal
// the step as the reference's plateau did (see AccumAuto). ProfileReference
// replays the reference code: int32-truncated stored continuous actions,
// time limits as terminals (gymnax tasks) or not stored at all (Gymnasium
// tasks), optax's
// min-mode plateau on the raw reward, and its accumulation (two steps with
// the same gradient while K = 1, one step per minibatch afterwards) and, for
// the MLP baseline, the reference's discrete actor architecture. Each quirk
// is its own Config switch; Trainer.PruneBounds gives the reference's raw
// LunarLander pruning ranges for its scaled observations. Not replayed:
// gymnax's reused reset keys within one rollout.
//
// Observations: Config.ScaleObs (set by Preset for LunarLander, spec §1.5)
// applies the environment's registered fixed scaling to every observation
// of training and evaluation; Trainer.Maker gives the environment as the
// policy sees it.
//
// # Best-validation policy
//
// Besides the final policy the trainer keeps the best-validation policy,
// as Stable-Baselines3's EvalCallback(best_model_save_path) does: a copy of
// the actor's parameters whenever an evaluation's validation return is at
// least every earlier one (the first evaluation always counts; of
// evaluations that validate alike the later one wins), saved in checkpoints, and played on the same test episodes at the
// final evaluation (Trainer.Best, Trainer.BestActor). It is an extra: the
// figure a run reports stays the final policy's test return (the thesis
// protocol), and keeping the copy changes no random stream, so a seed gives
// the same final results bit for bit. Where validation and test episodes
// are the same episode — MiniGrid-DistShift1-v0 has a fixed layout, so
// every seed plays the same episode — choosing the best policy by its
// validation return selects on the test episode, and its test return is not
// an independent estimate.
//
// # Use
//
//	cfg, _ := ppo.Preset("CartPole-v1", ppo.MethodSYMPOL) // §8.9 best hyperparameters
//	cfg.Seed = 142
//	tr, _ := ppo.New(cfg, methods.Nets{}) // PPO is handed the actor and critic (package rl/methods builds them)
//	err := tr.Run(ctx, func(p ppo.Progress) error { … })
//	tree, _ := tr.Actor().(*policy.TreeActor).Pruned(spec.Observation.Low, spec.Observation.High)
//
// # Determinism and speed
//
// The same Config gives the same result bit for bit, whatever the number of
// cores: every random stream (action sampling, minibatch permutations) is
// derived from the seed and the iteration, the environments from the seed,
// and the kernel, the MLP and the optimisers are deterministic. A resumed
// run continues exactly: the checkpoint holds the episodes in progress
// (env.Vec.Snapshot), and Load replays them (checkpoints of gdt before
// version 3 restart them, see Load). Rollout and update buffers are
// allocated once for the longest rollout; the rollout evaluates actor and
// critic on all environments in one batch per step. The critic (F → 256 →
// 256 → 1) dominates the cost. Unless Config.Serial, each minibatch's actor
// step runs on a helper of package linalg's pool while the critic's runs on
// the trainer's goroutine (the networks, losses and optimisers are
// disjoint), and the critic's large matrix products and its optimiser step
// (split into parts over disjoint entries, see splitAdam) are shared with
// the pool; all of this gives the bits of the serial update. The gradient
// clipping is skipped when a cheap bound shows the norm below the threshold
// (SYMPOL clips at 1000), where it would change nothing.
package ppo
