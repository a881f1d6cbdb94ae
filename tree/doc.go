// Package tree is the numerical core of gdt: E hard, axis-aligned decision
// trees of depth d, evaluated on a batch, with the sparse straight-through
// backward pass of "Learning Tree-Based Models with Gradient Descent"
// (GradTree, GRANDE, SYMPOL). The maths follows spec/gradtree-grande.md §1–§3
// and §12; this package imports nothing else of the project.
//
// # Model
//
// Every tree e has I = 2^d − 1 internal nodes, numbered breadth first (root 0,
// children of i are 2i+1 on the left and 2i+2 on the right) and L = 2^d
// leaves numbered 0…L−1 from left to right (breadth-first index I + l). Tree e
// sees n_e columns of the input; column k of tree e is input feature
// F[e][k] (Config.Subsets; nil means every tree sees all n features, k = f).
//
// In the forward pass node i of tree e selects the column
// k* = argmax_k Z[e,i,k] (lowest index on ties; entmax-1.5 preserves the order
// of the logits, so this is also the arg-max of the entmax probabilities) and
// sends a sample x LEFT iff x[F[e,k*]] < T[e,i,k*] (strict; spec §2.3). The
// sample reaches exactly one leaf R_e of every tree. The raw output is
//
//	y = Σ_e a″_e · Λ[e,R_e,:]
//
// where a = softmax_e(W[e,R_e]) with instance-wise leaf weights (GRANDE),
// a = softmax_e(W[e]) with one weight per tree (ablation) or a_e = 1/E without
// weights, and a″ = m⊙a / Σ m⊙a applies the estimator-dropout keep mask m
// (all ones at inference). For E = 1 without weights or dropout, y is the
// reached leaf's value vector. Heads (sigmoid, softmax, identity, losses)
// live elsewhere: the kernel returns y and takes dL/dy.
//
// The backward pass is the exact per-sample sparse form of spec §3.2: the
// reached leaf's value and weight receive the gradient, each of the d path
// nodes receives δ_j = ±(G_R − G_{C_j})·S'(z_j), where C_j is the leaf reached
// by going the other way at depth j and S' the slope of the soft split
// function at z_j = T[k*] − x[F[k*]]; T[e,i,k*] receives δ and the
// selection logits receive J_entmax(Z[e,i,:])ᵀ·A[e,i,:] with
// A[e,i,k] = Σ_b δ_b (T[e,i,k] − x_b[F[e,k]]). The entmax-1.5 of a node (its
// support and threshold) is computed once per step, in Backward, for the
// nodes that receive a gradient; A is accumulated on the support only, as
// T·Σδ − Σ δ·x, and pushed through the entmax VJP once per node. The input
// gradient is dL/dx[F[e,k*]] = −δ. Per-sample quantities and all batch sums
// are float64 and rounded to float32 once, so the gradients equal the
// float64 formulation up to float32 rounding of the result.
// The test file reference_test.go holds a dense float64 implementation of
// the thesis formulation (all nodes, all leaves, explicit chain rule through
// the straight-through operators) and proves the kernel equal to it.
//
// With Config.Fast (GRANDE's default) the per-node part runs in float32
// instead, sixteen columns at a time with AVX-512 where the CPU has it
// (fastnode.go): one pass over the batch per depth level adds every
// sample's δ·x into its node's row (in sample order), the entmax-1.5
// threshold comes from float32 sums with a float64 closed-form solve, and
// the VJP gathers the node's columns from that row. Every sum runs in a
// fixed lane order and every product and sum is rounded on its own, so
// the vector and scalar (purego, non-AVX-512) code give the same bits;
// the index-logit gradients then match the float64 formulation to about
// 1e−6 of a row's scale (TestFastGradientsMatchDenseReference).
//
// A NodeUpdater (Workspace.SetNodeUpdater) receives the gradients of a
// tree's node rows as soon as they are final, from the worker that
// computed them, and updates those rows (GRANDE fuses its Adam step there,
// while the rows are in the caches); Backward then selects the rows'
// columns anew, so the next step needs no Prepare.
//
// # Parameter layout
//
// All parameters are float32 in flat, contiguous, row-major slices (Params):
//
//	IndexLogits  Z  [E][I][n_e]  index ((e*I)+i)*n_e + k
//	Thresholds   T  [E][I][n_e]  same index (a threshold per node and column)
//	Leaves       Λ  [E][L][C]    index ((e*L)+l)*C + c
//	LeafWeights  W  [E][L] for LeafWeights, [E] for EstimatorWeights, empty for NoWeights
//
// Inputs x are row-major [B][n] float32, outputs and output gradients
// row-major [B][C]. Leaf indices returned by Route are [B][E].
//
// # Use
//
//	k, err := tree.New(cfg)
//	k.Init(tree.InitNormal, seed)          // or fill k.Params() yourself
//	ws := k.NewWorkspace()
//	grad := k.NewParams()
//	for each step:
//	    k.Prepare()                          // after every parameter change
//	    k.Forward(ws, x, B, keep, out)       // keep: dropout mask or nil
//	    dOut := dL/d(out)                    // head and loss, elsewhere
//	    k.Backward(ws, dOut, grad, dX)       // dX may be nil
//	    optimiser step on k.Params() with grad
//
// When the optimiser reports which entries it changed (optim.Adam.Changed),
// k.PrepareChanged(zChanged, tChanged) after its step replaces the next
// Prepare and re-selects only those nodes; with ReuseGradient,
// ws.GradientSupport tells the optimiser where the gradient is non-zero
// (optim.Adam.HintGrad).
//
// # Determinism and parallelism
//
// Work is split into parts that never share an output: node rows for
// Prepare; blocks of samples for the forward pass, Predict and the
// per-sample backward quantities (δ of the path nodes, tree-weight
// gradients, dX); and units of one tree (or of one of its depth levels, or
// its leaves) for the parameter gradients, where the samples are stably
// sorted by their node, every node's sums run over its samples in sample
// order and its entmax VJP follows once its samples are in. Every
// value is thus computed by one owner in a fixed order, and results are
// bit-identical for any number of workers (TestDeterministicAcrossWorkers).
// Steady-state calls do not allocate (TestNoAllocations): workspaces grow
// only when the batch grows, and the worker goroutines are a package-level
// pool.
//
// # Cost
//
// Per sample and tree a training step costs O(d) comparisons forward and
// O(d²/2) comparisons plus O(d·|support|) multiply-adds backward, instead of
// the reference's O(2^d·n_e); per step it adds O(E·2^d·n_e) for the arg-max
// of every node and for writing the (dense) gradient (with
// Workspace.ReuseGradient only the entries of the previous step are
// cleared), and one entmax-1.5 per node that receives a gradient.
// bench_test.go compares it with a dense float32 evaluation of the
// reference formulation:
//
//	go test -run '^$' -bench . ./tree
//
// The hot loops avoid data-dependent branches where the data decide (the
// routing direction, the sign of a turn, the arg-max), the counterfactual
// subtrees of a sample (and of two samples) are descended level by level so
// that their independent chains of loads overlap, and a node whose entmax
// support is a single column (the common case once a tree has trained)
// skips the support search. On amd64 with AVX2 the arg-max of Prepare and
// the sigmoid slopes run four or eight lanes at a time; both give the same
// bits as their scalar versions (tests compare them), which the purego
// build tag selects everywhere. With AVX-512, for one output, leaf weights
// and the softsign split at depth ≤ 5, the training forward pass, the
// per-sample sums of Backward, every tree's γ and path-node δ and its node
// sums run in assembly, lanes over the samples of a tree, each lane doing
// the Go code's operations in its order (deltas.go); the Go passes remain
// for everything else, and TestVecBackwardMatchesGo requires the same
// bits from both.
package tree
