package sdt

// Hyper are the PPO hyperparameters of an SDT run (the reference's config
// names in comments).
type Hyper struct {
	Critic      string  // critic: "mlp" (2 × 256) or "sdt"
	Depth       int     // depth
	Temperature float64 // temperature
	EntCoef     float64 // ent_coef
	Lambda      float64 // gae_lambda
	Gamma       float64 // gamma
	LRActor     float64 // learning_rate_actor
	LRCritic    float64 // learning_rate_critic
	MaxGradNorm float64 // max_grad_norm
	Minibatch   int     // minibatch_size
	NEnvs       int     // n_envs
	NSteps      int     // n_steps
	Epochs      int     // n_update_epochs
	NormAdv     bool    // norm_adv
	VfCoef      float64 // vf_coef
}

// best are the thesis's best SDT hyperparameters (spec §8.11, exact config
// values; also used for D-SDT). AdamW and reduce_lr are off for all.
var best = map[string]Hyper{
	"CartPole-v1":                  {"mlp", 7, 1, 0.0, 0.95, 0.99, 0.0009255, 0.0001238, 0.1, 128, 15, 512, 4, true, 0.5},
	"Acrobot-v1":                   {"mlp", 6, 0.5, 0.1, 0.95, 0.99, 0.00167993, 0.000320446, 0.1, 128, 6, 128, 10, false, 0.5},
	"LunarLander-v2":               {"mlp", 8, 1, 0.2, 0.99, 0.999, 0.000610802, 0.00112019, 1.0, 128, 7, 512, 2, true, 0.75},
	"MountainCarContinuous-v0":     {"mlp", 7, 1, 0.0, 0.9, 0.99, 0.0008297, 0.007393, 0.5, 64, 14, 512, 1, false, 0.25},
	"Pendulum-v1":                  {"mlp", 7, 0.1, 0.2, 0.9, 0.9, 0.000364, 0.0001127, 0.1, 128, 7, 256, 7, false, 0.5},
	"MiniGrid-Empty-Random-6x6-v0": {"sdt", 7, 1, 0.1, 0.9, 0.99, 0.00443982, 0.00044886, 0.1, 512, 10, 512, 5, true, 0.75},
	"MiniGrid-DoorKey-5x5-v0":      {"mlp", 6, 1, 0.1, 0.95, 0.9, 0.0008919, 0.001508, 0.1, 256, 10, 256, 10, true, 0.75},
	"MiniGrid-LavaGapS5-v0":        {"sdt", 7, 1, 0.2, 0.99, 0.999, 0.0004584, 0.0002554, 0.5, 512, 10, 256, 8, true, 0.75},
	"MiniGrid-LavaGapS7-v0":        {"sdt", 8, 1, 0.1, 0.95, 0.95, 0.00190842, 0.00510745, 0.1, 256, 13, 128, 4, true, 0.25},
	"MiniGrid-DistShift1-v0":       {"sdt", 7, 1, 0.1, 0.9, 0.95, 0.000833597, 0.00204397, 1000, 512, 5, 512, 7, true, 0.75},
}

// Best returns the thesis's best SDT hyperparameters for an environment
// (spec §8.11). For an environment without a tuned config it returns the
// reference CLI's defaults (depth 7, temperature 1, MLP critic, n_steps
// 256, 8 envs, minibatch 128, learning rates 1e−3, ent_coef 0.01, γ 0.99,
// λ 0.95, 5 epochs, vf_coef 0.5, max_grad_norm 0.5) and false.
func Best(envID string) (Hyper, bool) {
	h, ok := best[envID]
	if !ok {
		return Hyper{Critic: "mlp", Depth: 7, Temperature: 1, EntCoef: 0.01, Lambda: 0.95, Gamma: 0.99,
			LRActor: 1e-3, LRCritic: 1e-3, MaxGradNorm: 0.5, Minibatch: 128, NEnvs: 8, NSteps: 256, Epochs: 5, VfCoef: 0.5}, false
	}
	return h, true
}
