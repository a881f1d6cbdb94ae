// Package linalg provides a cache-blocked single-precision matrix product
// (GEMM) for the hot paths of package nn.
//
// Gemm computes C = alpha·op(A)·op(B) + beta·C on row-major matrices, where
// op(X) is X or Xᵀ; GemmParallel splits the same product over goroutines.
// The layout follows Goto and van de Geijn: op(B) is packed into kc×nr
// column strips and op(A) into mr×kc row strips (the transposes are
// absorbed by the packing, with 8×8 AVX2 transposes where a strip must be
// gathered), and a register-tiled micro-kernel multiplies one A strip by
// one B strip. On amd64 the micro-kernel is written in assembly: an 8×32
// tile in sixteen ZMM registers on CPUs with AVX-512, else a 6×16 tile in
// twelve YMM registers with AVX2 and FMA; other CPUs and architectures use
// a pure-Go 6×16 kernel with the same blocking (Kernel reports which). A
// product whose C is a single column is done with dot products or axpys
// instead of tiles.
//
// # Determinism
//
// Results depend on the operands, transA, k and whether n = 1 — never on m,
// on the tiling, on how C is split or on the number of goroutines:
//
//   - In general every element of C is computed by the same operations:
//     the products over one K block (256 terms) are accumulated from zero
//     in increasing k order with one multiply-add each (fused in the
//     assembly kernels), the sum is multiplied by alpha (rounded) and added
//     to C; K blocks follow in increasing order. The AVX2 and AVX-512
//     kernels therefore give identical bits; the pure-Go kernel, whose
//     multiply-adds the compiler may or may not fuse, can differ from them
//     in the last bits.
//   - When n = 1 and op(A) = A, each element is alpha times a dot product
//     of length k with fixed 8-lane blocking, added to C.
//
// GemmParallel splits C into whole micro-tiles (never into single
// columns), so it gives the same bits as Gemm for any number of workers.
//
// With the AVX-512 kernel, products whose op(B) is stored by rows, whose C
// is made of whole 8×32 tiles and whose operands fit in the L2 cache skip
// the packing: a variant of the micro-kernel reads A and B in place
// (kernel8x32s), with the same operations per element.
//
// # Helper pool
//
// Run and Start hand short pieces of work to a package-wide pool of
// GOMAXPROCS − 1 helper goroutines that spin for a while after each piece
// (a hand-off costs well under a microsecond) and then park. The submitter
// always works on its own job too, so nothing waits for a helper that has
// not started, and results never depend on which goroutine ran which part.
// GemmPool splits one product over the pool by whole micro-tiles (bits as
// Gemm's); it pays off from the 64-row products of a 256-wide layer. The
// pool adapts to the machine: while other processes keep the cores busy
// (read from the CPU clocks every quarter second) or helpers arrive late,
// work runs on the submitter alone (SetAdaptive turns this off).
//
// # Vector helpers
//
// Relu, ReluGrad and SumSquares are the elementwise loops of small
// networks, vectorised with AVX2 where available and bit-identical to
// their scalar definitions.
//
// Dimension and length errors are programming errors and panic with a
// message naming the offending argument, as slice indexing does.
package linalg
