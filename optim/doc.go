// Package optim holds the optimisers of gdt: Adam and AdamW with parameter
// groups (each with its own learning rate, schedule, betas, ε and weight
// decay), the weight-averaging wrappers of the reference code (SWA as in
// TensorFlow-Addons, the Keras EMA), learning-rate schedules (constant, cosine
// decay, cosine decay with restarts, linear warm-up) and reduce-on-plateau.
// It imports nothing else of the project. The facts follow
// spec/gradtree-grande.md §5 and §12.3 and spec/sympol-rl.md §1.6.
//
// # Parameters and groups
//
// A Param is a named pair of float32 slices, Value and Grad, usually views
// into a model's flat parameter and gradient storage. A Group holds Params
// that share one learning rate, schedule and hyperparameters; the GradTree
// and GRANDE recipes give every tensor (index logits, thresholds, leaves,
// weights) a group of its own. All groups of an Adam step together and share
// one step counter t = 1, 2, ….
//
// # Floating-point recipes (Rule)
//
// The three rules are the same algorithm up to where ε sits and the order of
// the float32 operations; every scalar coefficient is computed once per step
// and every elementwise operation is one float32 operation rounded on its own
// (no fused multiply-add), so results do not depend on the CPU.
//
// Keras — TF/Keras (legacy OptimizerV2 and the new optimizer) Adam, used by
// every published GradTree and GRANDE run (spec §5.1): ε is added to the
// uncorrected √v (the "ε-hat" form) and the bias correction is folded into
// the step size, all in float32 (1 − β formed from the float32 β as the
// legacy ResourceApplyAdam kernel does; the new Keras optimizer rounds the
// Python value 1 − β instead, which can differ in the last bit):
//
//	b1ᵗ = β1^t, b2ᵗ = β2^t                 (float32)
//	α   = lr_t·√(1 − b2ᵗ) / (1 − b1ᵗ)      (float32, lr_t = schedule at t−1)
//	m  += (g − m)·(1 − β1)                 (1 − β1 formed from float32 β1)
//	v  += (g² − v)·(1 − β2)
//	θ  −= (m·α) / (√v + ε)                 defaults β1 0.9, β2 0.999, ε 1e−7
//
// Torch — torch.optim.Adam / AdamW (single-tensor path): decoupled decay
// θ ← θ·(1 − lr·λ) first, then m ← m + (1−β1)(g − m), v ← β2·v + (1−β2)·g·g,
// θ ← θ − (lr/(1−β1^t))·m / (√v/√(1−β2^t) + ε); scalars in float64 as in
// Python, rounded to float32 where the tensor op takes them. Defaults
// β1 0.9, β2 0.999, ε 1e−8 (GR-torch uses β2 0.95).
//
// Optax — optax.adam / optax.adamw (SYMPOL): m ← (1−β1)g + β1m,
// v ← (1−β2)g² + β2v, m̂ = m/(1−β1^t), v̂ = v/(1−β2^t), u = m̂/(√v̂ + ε)
// (+ λθ for adamw), θ ← θ + (−lr)·u. Defaults β1 0.9, β2 0.999, ε 1e−8.
// m and v are flushed to zero when they decay into the float32 subnormal
// range, as XLA on the CPU (FTZ/DAZ) and GPUs do; without it, entries whose
// gradient stays 0 (dead ReLU units) run subnormal arithmetic ~25× slower.
//
// A non-zero Group.WeightDecay turns any rule into its decoupled (AdamW)
// form with that rule's rounding order; for Keras it is the new Keras
// optimizer's θ ← θ − θ·λ·lr before the Adam update.
//
// Reproduction is of the formula, not of every bit of the reference kernels:
// TF's Eigen kernels, PyTorch's vectorised lerp (which uses FMA) and XLA may
// round differently in the last place, and the reference runs were on GPUs.
//
// # The exact sparse skip (spec §12.3)
//
// An entry whose gradient is exactly zero and whose moments m and v are both
// exactly zero does not move under any rule without weight decay: m and v stay
// +0 and θ − 0 = θ bit for bit (also for θ = ±0, ±Inf, NaN). For the Torch
// and Optax rules, and for large Keras tensors (see below), Adam keeps one
// "live" bit per entry (m or v may be non-zero; a superset is harmless) and
// works in chunks of 16 384 entries. A chunk that is not yet dense reads its
// gradients first (8 at a time with AVX2) and updates just the entries or
// 64-entry words that need it; a chunk in which at least 1/8 of the words
// need an update is swept densely from then on. The result is bit-identical to the dense sweep (a test proves it
// on every path). Groups with weight decay move every entry and always run
// the dense sweep.
//
// # The exact lazy sweep (Keras rule)
//
// Under flush-to-zero (below) the moments of an entry without gradient do
// not reach zero: m stops decaying once m·(1−β1) is below the smallest normal
// float32 (|m| ≲ 1.2e−37), v once v·(1−β2) is (v ≲ 1.2e−35). From then on a
// step with zero gradient leaves m and θ exactly as they are (m·α flushes to
// zero while α ≤ 1−β1) and only decays v, which reaches its own fixed point
// after tens of thousands of steps. Tensors of at most 2^18 entries in Keras
// groups without weight decay skip such "cold" entries and replay the skipped float32 decays of v one by one
// (with the dense loop's operations) when the entry receives a gradient
// again or the state is read (State); per 64-entry word they keep the mask
// of the entries that are not cold, per word and per entry the group step at
// which v was last current. Words with many entries to update run through
// the vectorised loop, the others entry by entry. The result equals the
// dense sweep bit for bit (TestLazyBitIdentical runs both for thousands of
// steps over sparse gradient streams, with frozen periods, huge learning
// rates and a state round trip). The skip pays off where most of a tensor
// receives no gradient for hundreds of steps: thresholds of features a node
// does not select, index logits of nodes whose entmax support is a single
// column, parameters of nodes that no sample reaches. Memory: 4 bytes per
// entry for the timestamps. Larger tensors keep the plain skip above: in
// GRANDE's millions of thresholds and logits nearly every 64-entry word
// holds an entry to update, and hopping between scattered entries of
// tensors that do not fit in the caches costs as much as streaming them.
//
// The dense Keras loop runs 8 entries at a time with AVX2 on amd64 (packed
// sub/mul/add/sqrt/div, no FMA: the same correctly rounded operations in the
// same order as the scalar code, so the same bits); the Torch and Optax
// rules, used by the small SYMPOL models, are plain Go. Build with the tag
// purego to disable the assembly.
//
// # Parallelism and determinism
//
// Large sweeps are split into chunks of whole 64-entry words that are
// updated by a pool of goroutines; every update is elementwise, so the
// result does not depend on the number of workers (SetWorkers). The only
// reduction, the global gradient norm of ClipGradNorm, sums fixed chunks in
// float64 and adds the chunk sums in order.
//
// # A step in pieces
//
// BeginStep, Ranged.Update/UpdateFrom and EndStep split one step so that a
// caller can update parts of large tensors where their gradients are made
// (GRANDE updates every tree's index logits and thresholds inside the
// kernel's backward pass, while they are in the caches, from gradients it
// never stores in full): BeginStep fixes the step's coefficients, any
// number of goroutines update disjoint ranges, and EndStep updates the
// remaining tensors. Ranges are updated densely, which gives the sweep's
// bits (an entry without gradient and moments keeps its value).
//
// # Weight averaging (spec §5.2)
//
// The published GradTree and GRANDE code wraps Adam in
// tfa.optimizers.SWA(start_averaging=0, average_period=5): after the Adam
// update of the step with iteration count i (0-based, counted before the
// step) it updates a running equal-weight average of the weights when
// i ≥ start and (i − start) mod period = 0, as
// avg ← (avg·n + θ)/(n + 1) with n = (i − start)/period snapshots so far —
// a cumulative average over all of training, not a window. The reference
// never calls assign_average_vars, so the published models are plain Adam;
// SWA reproduces the bookkeeping and offers AssignAverage for true SWA.
// EMA reproduces GR-tf's "SWA"/"EMA" option (Keras use_ema): after each step
// avg ← μ·avg + (1 − μ)·θ and, every OverwriteEvery steps, θ ← avg; with
// μ = 0.1 and OverwriteEvery = 1 every Adam step is damped by 0.9.
//
// # Checkpoints
//
// State returns a deep copy of everything needed to continue bit for bit
// (step count, per-group learning-rate scales, m and v, averages); it is
// JSON-serialisable and has a compact binary form (WriteTo, ReadState).
// LoadState matches groups and parameters by name and checks lengths.
package optim
