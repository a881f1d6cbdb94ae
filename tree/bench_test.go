package tree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// The benchmarks compare the sparse kernel with a dense float32 evaluation
// of the thesis formulation as the reference implementations do it (every
// node for every sample, every leaf indicator as a product over its path,
// dense backward through all nodes and leaves, entmax VJP for every node).
//
//	go test -run '^$' -bench . ./tree
//
// Metrics: steps/s (forward + backward of one batch, Prepare included) and
// ns/row.

// denseStep is the dense float32 reference step (single-threaded).
type denseStep struct {
	E, d, I, L, ne, n, C int
	split                SplitFunc
	leafW                bool
	feat                 []int32
	Z, T, Lam, W         []float32
	H                    []float32 // [E][I][ne] one-hot of the argmax
	dZ, dT, dLam, dW, dI []float32
	z, shat, slope       []float32 // [E][I]
	p, dp                []float32 // [E][L]
	o                    []float32 // [E][C]
	om, a, da            []float32 // [E]
	pre, suf             []float32 // [d+1]
}

func newDenseStep(k *Kernel) *denseStep {
	p := k.Params()
	s := &denseStep{E: k.e, d: k.d, I: k.ni, L: k.nl, ne: k.ne, n: k.n, C: k.c, split: k.split,
		leafW: k.mode == LeafWeights, feat: k.feat,
		Z: p.IndexLogits, T: p.Thresholds, Lam: p.Leaves, W: p.LeafWeights}
	s.H = make([]float32, len(s.Z))
	s.dZ, s.dT, s.dI = make([]float32, len(s.Z)), make([]float32, len(s.Z)), make([]float32, len(s.Z))
	s.dLam, s.dW = make([]float32, len(s.Lam)), make([]float32, len(s.W))
	s.z, s.shat, s.slope = make([]float32, s.E*s.I), make([]float32, s.E*s.I), make([]float32, s.E*s.I)
	s.p, s.dp = make([]float32, s.E*s.L), make([]float32, s.E*s.L)
	s.o = make([]float32, s.E*s.C)
	s.om, s.a, s.da = make([]float32, s.E), make([]float32, s.E), make([]float32, s.E)
	s.pre, s.suf = make([]float32, s.d+1), make([]float32, s.d+1)
	return s
}

func (s *denseStep) step(x []float32, B int, dy []float32, out []float32) {
	ne := s.ne
	P := make([]float32, ne)
	clear(s.H)
	for r := 0; r < s.E*s.I; r++ {
		Entmax15(P, s.Z[r*ne:(r+1)*ne])
		best := 0
		for k := range P {
			if P[k] > P[best] {
				best = k
			}
		}
		s.H[r*ne+best] = 1
	}
	clear(s.dT)
	clear(s.dI)
	clear(s.dLam)
	clear(s.dW)
	for b := 0; b < B; b++ {
		xb := x[b*s.n : (b+1)*s.n]
		for e := 0; e < s.E; e++ {
			F := s.feat[e*ne : (e+1)*ne]
			for i := 0; i < s.I; i++ {
				r := e*s.I + i
				h, t := s.H[r*ne:(r+1)*ne], s.T[r*ne:(r+1)*ne]
				var s1, s2 float32
				for k := range h {
					s1 += t[k] * h[k]
					s2 += xb[F[k]] * h[k]
				}
				z := s1 - s2
				s.z[r] = z
				s.shat[r] = float32(math.RoundToEven(s.split.Value(float64(z))))
				s.slope[r] = float32(s.split.Slope(float64(z)))
			}
			for l := 0; l < s.L; l++ {
				prod := float32(1)
				for j := 0; j < s.d; j++ {
					node := (1 << j) + l>>(s.d-j) - 1
					f := s.shat[e*s.I+node]
					if (l>>(s.d-j-1))&1 == 1 {
						f = 1 - f
					}
					prod *= f
				}
				s.p[e*s.L+l] = prod
			}
			var om float32
			for c := 0; c < s.C; c++ {
				var o float32
				for l := 0; l < s.L; l++ {
					o += s.Lam[(e*s.L+l)*s.C+c] * s.p[e*s.L+l]
				}
				s.o[e*s.C+c] = o
			}
			if s.leafW {
				for l := 0; l < s.L; l++ {
					om += s.W[e*s.L+l] * s.p[e*s.L+l]
				}
			}
			s.om[e] = om
		}
		// tree weights
		if s.E == 1 {
			s.a[0] = 1
		} else {
			mx := float32(math.Inf(-1))
			for _, v := range s.om {
				mx = max(mx, v)
			}
			var sum float32
			for e := range s.a {
				s.a[e] = float32(math.Exp(float64(s.om[e] - mx)))
				sum += s.a[e]
			}
			for e := range s.a {
				s.a[e] /= sum
			}
		}
		g := dy[b*s.C : (b+1)*s.C]
		var hbar float32
		for c := 0; c < s.C; c++ {
			var y float32
			for e := 0; e < s.E; e++ {
				y += s.a[e] * s.o[e*s.C+c]
			}
			out[b*s.C+c] = y
		}
		for e := 0; e < s.E; e++ {
			var h float32
			for c := 0; c < s.C; c++ {
				h += g[c] * s.o[e*s.C+c]
			}
			s.da[e] = h
			hbar += s.a[e] * h
		}
		// backward, densely over all leaves and nodes
		for e := 0; e < s.E; e++ {
			gam := s.a[e] * (s.da[e] - hbar)
			for l := 0; l < s.L; l++ {
				var dp float32
				for c := 0; c < s.C; c++ {
					dp += s.a[e] * g[c] * s.Lam[(e*s.L+l)*s.C+c]
					s.dLam[(e*s.L+l)*s.C+c] += s.a[e] * g[c] * s.p[e*s.L+l]
				}
				if s.leafW && s.E > 1 {
					dp += gam * s.W[e*s.L+l]
					s.dW[e*s.L+l] += gam * s.p[e*s.L+l]
				}
				s.dp[e*s.L+l] = dp
			}
			dshat := s.z[e*s.I : (e+1)*s.I] // reuse z as dL/dŝ after the slope is stored
			clear(dshat)
			for l := 0; l < s.L; l++ {
				// product of the other factors via prefix and suffix products
				s.pre[0] = 1
				for j := 0; j < s.d; j++ {
					node := (1 << j) + l>>(s.d-j) - 1
					f := s.shat[e*s.I+node]
					if (l>>(s.d-j-1))&1 == 1 {
						f = 1 - f
					}
					s.pre[j+1] = s.pre[j] * f
				}
				s.suf[s.d] = 1
				for j := s.d - 1; j >= 0; j-- {
					node := (1 << j) + l>>(s.d-j) - 1
					f := s.shat[e*s.I+node]
					if (l>>(s.d-j-1))&1 == 1 {
						f = 1 - f
					}
					s.suf[j] = s.suf[j+1] * f
				}
				dp := s.dp[e*s.L+l]
				for j := 0; j < s.d; j++ {
					node := (1 << j) + l>>(s.d-j) - 1
					v := dp * s.pre[j] * s.suf[j+1]
					if (l>>(s.d-j-1))&1 == 1 {
						v = -v
					}
					dshat[node] += v
				}
			}
			F := s.feat[e*ne : (e+1)*ne]
			for i := 0; i < s.I; i++ {
				r := e*s.I + i
				dz := dshat[i] * s.slope[r]
				h, t := s.H[r*ne:(r+1)*ne], s.T[r*ne:(r+1)*ne]
				dT, dI := s.dT[r*ne:(r+1)*ne], s.dI[r*ne:(r+1)*ne]
				for k := range h {
					dT[k] += dz * h[k]
					dI[k] += dz * (t[k] - xb[F[k]])
				}
			}
		}
	}
	for r := 0; r < s.E*s.I; r++ {
		Entmax15VJP(s.dZ[r*ne:(r+1)*ne], s.Z[r*ne:(r+1)*ne], s.dI[r*ne:(r+1)*ne])
	}
}

type benchSetup struct {
	k    *Kernel
	x    []float32
	dy   []float32
	out  []float32
	grad *Params
	ws   *Workspace
}

func newBench(b *testing.B, cfg Config, B int, scheme InitScheme) *benchSetup {
	b.Helper()
	k, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if err := k.Init(scheme, 42); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	s := &benchSetup{k: k, x: randomSlice(r, B*cfg.Features), dy: randomSlice(r, B*cfg.Outputs),
		out: make([]float32, B*cfg.Outputs), grad: k.NewParams(), ws: k.NewWorkspace()}
	k.Prepare()
	return s
}

func (s *benchSetup) step(b *testing.B, B int, keep []bool) {
	s.k.Prepare()
	if err := s.k.Forward(s.ws, s.x, B, keep, s.out); err != nil {
		b.Fatal(err)
	}
	if err := s.k.Backward(s.ws, s.dy, s.grad, nil); err != nil {
		b.Fatal(err)
	}
}

// cpuStart records the process CPU time when the timed loop starts.
var cpuStart float64

func startTimer(b *testing.B) {
	b.ResetTimer()
	cpuStart = processCPU()
}

// reportSteps reports wall-clock steps/s and ns/row, and the process CPU
// milliseconds per step (which do not depend on other load on the machine;
// with several workers they add up the workers' time).
func reportSteps(b *testing.B, B int) {
	cpu := processCPU() - cpuStart
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "steps/s")
	b.ReportMetric(sec*1e9/float64(b.N*B), "ns/row")
	b.ReportMetric(cpu*1e3/float64(b.N), "cpu-ms/step")
}

// BenchmarkStepDepth10 is the headline comparison: one GradTree training
// step (depth 10, E = 1, batch 128, 50 features, sigmoid splits) with the
// sparse kernel (1 worker and GOMAXPROCS workers) and with the dense
// float32 reference.
func BenchmarkStepDepth10(b *testing.B) {
	const B = 128
	cfg := Config{Trees: 1, Depth: 10, Features: 50, Outputs: 1, Split: Sigmoid}
	for _, w := range []int{1, runtime.GOMAXPROCS(0)} {
		for _, sparse := range []bool{false, true} {
			name := fmt.Sprintf("kernel/workers=%d", w)
			if sparse {
				// trained-like logits (std ≈ 1.7 instead of Glorot's ±0.075):
				// a few columns per entmax support
				name += "/sparse-logits"
			}
			b.Run(name, func(b *testing.B) {
				cfg.Workers = w
				s := newBench(b, cfg, B, InitGlorot)
				if sparse {
					for i, v := range s.k.Params().IndexLogits {
						s.k.Params().IndexLogits[i] = v * 40
					}
				}
				startTimer(b)
				for i := 0; i < b.N; i++ {
					s.step(b, B, nil)
				}
				reportSteps(b, B)
			})
		}
	}
	b.Run("dense", func(b *testing.B) {
		s := newBench(b, cfg, B, InitGlorot)
		d := newDenseStep(s.k)
		startTimer(b)
		for i := 0; i < b.N; i++ {
			d.step(s.x, B, s.dy, s.out)
		}
		reportSteps(b, B)
	})
}

// BenchmarkStepGradTreeAdult is GradTree's training step on a dataset of
// Adult's shape (the target): one tree of depth 10, 14 features,
// batch 128, sigmoid splits, one worker (restarts run in parallel), with
// trained-like parameters and N(0, 1) inputs. A GradTree trained on Adult
// (60 epochs, gdt train --model gradtree) routes a batch of 128 rows to about
// 30 leaves through about 100 nodes, visits about 400 of the 1023 nodes
// including the counterfactual routes, and 99% of the nodes on the paths
// have an entmax support of one column (their logits are far apart); its
// selected thresholds have a spread of 1.66. Here: thresholds N(0, 1.66²),
// logits of std ≈ 1.7 with the largest raised by 4 in 90% of the rows (one
// column in the support) and a few columns in the support of the others.
func BenchmarkStepGradTreeAdult(b *testing.B) {
	const B = 128
	cfg := Config{Trees: 1, Depth: 10, Features: 14, Outputs: 1, Split: Sigmoid, Workers: 1}
	s := newBench(b, cfg, B, InitGlorot)
	adultLikeParams(s.k)
	// the head's gradient carries the 1/B of the mean loss
	for i := range s.dy {
		s.dy[i] /= B
	}
	startTimer(b)
	for i := 0; i < b.N; i++ {
		s.step(b, B, nil)
	}
	reportSteps(b, B)
}

// adultLikeParams gives k (one tree of depth 10 on 14 features) the
// trained-like parameters of BenchmarkStepGradTreeAdult.
func adultLikeParams(k *Kernel) {
	p := k.Params()
	r := rand.New(rand.NewPCG(5, 6))
	ne := k.SubsetSize()
	for i := range p.IndexLogits {
		p.IndexLogits[i] *= 40
		p.Thresholds[i] = float32(1.66 * r.NormFloat64())
	}
	for row := 0; row < len(p.IndexLogits)/ne; row++ {
		if r.IntN(10) > 0 {
			z := p.IndexLogits[row*ne : (row+1)*ne]
			z[argmax(z)] += 4
		}
	}
	k.Prepare()
}

// BenchmarkScaling sweeps depth, rows and features (1 worker): the step
// cost is linear in rows and in features and polynomial (≈ d²) in depth,
// not exponential.
func BenchmarkScaling(b *testing.B) {
	type pt struct{ d, rows, n int }
	var pts []pt
	for d := 4; d <= 12; d++ {
		pts = append(pts, pt{d, 256, 50})
	}
	for _, rows := range []int{64, 256, 1024, 4096} {
		pts = append(pts, pt{10, rows, 50})
	}
	for _, n := range []int{10, 50, 200, 800} {
		pts = append(pts, pt{10, 256, n})
	}
	for _, p := range pts {
		b.Run(fmt.Sprintf("depth=%d/rows=%d/features=%d", p.d, p.rows, p.n), func(b *testing.B) {
			cfg := Config{Trees: 1, Depth: p.d, Features: p.n, Outputs: 1, Split: Sigmoid, Workers: 1}
			s := newBench(b, cfg, p.rows, InitGlorot)
			startTimer(b)
			for i := 0; i < b.N; i++ {
				s.step(b, p.rows, nil)
			}
			reportSteps(b, p.rows)
		})
	}
}

// BenchmarkGRANDEStep is a GRANDE-size step: 2048 trees of depth 6, batch
// 64, 50 features with 30 per tree, instance-wise leaf weights, softsign;
// at initialisation (all 30 columns in every entmax support), with
// estimator dropout, with trained-like logits (std 3 instead of 0.05,
// about 3 columns per support), and at initialisation with Config.Fast.
func BenchmarkGRANDEStep(b *testing.B) {
	const B, E, n, ne = 64, 2048, 50, 30
	r := rand.New(rand.NewPCG(3, 4))
	subsets := make([][]int, E)
	for e := range subsets {
		subsets[e] = r.Perm(n)[:ne]
	}
	cfg := Config{Trees: E, Depth: 6, Features: n, Outputs: 1, Subsets: subsets, Split: Softsign, Weights: LeafWeights}
	keep := make([]bool, B*E)
	_ = DropoutMask(keep, 0.25, 1)
	for _, w := range []int{1, runtime.GOMAXPROCS(0)} {
		for _, variant := range []string{"init", "dropout", "sparse-logits", "fast"} {
			b.Run(fmt.Sprintf("kernel/workers=%d/%s", w, variant), func(b *testing.B) {
				cfg.Workers = w
				cfg.Fast = variant == "fast"
				s := newBench(b, cfg, B, InitNormal)
				var kp []bool
				switch variant {
				case "dropout":
					kp = keep
				case "sparse-logits":
					for i, v := range s.k.Params().IndexLogits {
						s.k.Params().IndexLogits[i] = v * 60
					}
				}
				startTimer(b)
				for i := 0; i < b.N; i++ {
					s.step(b, B, kp)
				}
				reportSteps(b, B)
			})
		}
	}
	b.Run("dense", func(b *testing.B) {
		s := newBench(b, cfg, B, InitNormal)
		d := newDenseStep(s.k)
		startTimer(b)
		for i := 0; i < b.N; i++ {
			d.step(s.x, B, s.dy, s.out)
		}
		reportSteps(b, B)
	})
}

// BenchmarkPredict measures inference throughput (rows/s) for a depth-10
// tree and a GRANDE-size ensemble.
func BenchmarkPredict(b *testing.B) {
	const B = 4096
	for _, cfg := range []Config{
		{Trees: 1, Depth: 10, Features: 50, Outputs: 1},
		{Trees: 2048, Depth: 6, Features: 50, Outputs: 1, Weights: LeafWeights},
	} {
		b.Run(fmt.Sprintf("E=%d/depth=%d", cfg.Trees, cfg.Depth), func(b *testing.B) {
			s := newBench(b, cfg, B, InitNormal)
			startTimer(b)
			for i := 0; i < b.N; i++ {
				if err := s.k.Predict(s.ws, s.x, B, s.out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*B)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkEntmaxSupport measures one node's entmax-1.5 support and
// threshold (the per-node, per-step cost of the backward pass) for rows of
// 30 logits, dense (init-like) and sparse (trained-like).
func BenchmarkEntmaxSupport(b *testing.B) {
	for _, scale := range []float64{0.05, 3} {
		b.Run(fmt.Sprintf("logit-std=%v", scale), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			rows := make([][]float32, 1024)
			for i := range rows {
				rows[i] = make([]float32, 30)
				for k := range rows[i] {
					rows[i][k] = float32(r.NormFloat64() * scale)
				}
			}
			idx := make([]int32, 30)
			sv := make([]float64, 30)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				z := rows[i%1024]
				entmaxSupport(z, float64(z[argmax(z)]), idx, sv)
			}
		})
	}
}

// TestDenseBenchStepMatchesKernel makes sure the benchmark's dense float32
// step computes the same thing as the kernel, so that the speed comparison
// is like for like.
func TestDenseBenchStepMatchesKernel(t *testing.T) {
	for ci, c := range []gradCase{
		{trees: 1, depth: 5, features: 7, outputs: 1, batch: 30, split: Sigmoid, logitScale: 1},
		{trees: 4, depth: 3, features: 9, subset: 5, outputs: 2, batch: 20, split: Softsign, mode: LeafWeights, logitScale: 1},
	} {
		r := rand.New(rand.NewPCG(uint64(ci), 3))
		k := randomKernel(t, c, r)
		x := randomSlice(r, c.batch*c.features)
		dy := randomSlice(r, c.batch*c.outputs)
		out, grad, _ := runKernel(t, k, x, c.batch, nil, dy, false)
		d := newDenseStep(k)
		dout := make([]float32, len(out))
		d.step(x, c.batch, dy, dout)
		for _, v := range []struct {
			name      string
			got, want []float32
		}{{"y", dout, out}, {"dZ", d.dZ, grad.IndexLogits}, {"dT", d.dT, grad.Thresholds},
			{"dΛ", d.dLam, grad.Leaves}, {"dW", d.dW, grad.LeafWeights}} {
			closeTo(t, fmt.Sprintf("case %d dense %s", ci, v.name), v.got, to64(v.want), 1e-4, 1e-3)
		}
	}
}
