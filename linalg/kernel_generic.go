package linalg

// kernelGo is the portable 6×16 micro-kernel (see microKernel).
func kernelGo(kb int, a, b, c []float32, ldc int, alpha float32, overwrite bool) {
	const mr, nr = 6, 16
	var acc [mr * nr]float32
	a = a[:kb*mr]
	b = b[:kb*nr]
	for p := 0; p < kb; p++ {
		ap := a[p*mr : p*mr+mr : p*mr+mr]
		bp := b[p*nr : p*nr+nr : p*nr+nr]
		for r := 0; r < mr; r++ {
			ar := ap[r]
			row := acc[r*nr : r*nr+nr : r*nr+nr]
			for q := range row {
				row[q] += ar * bp[q]
			}
		}
	}
	for r := 0; r < mr; r++ {
		dst := c[r*ldc : r*ldc+nr : r*ldc+nr]
		if overwrite {
			for q := range dst {
				dst[q] = float32(alpha*acc[r*nr+q]) + 0
			}
			continue
		}
		for q := range dst {
			dst[q] += float32(alpha * acc[r*nr+q])
		}
	}
}

// dotGo returns Σ x[i]·y[i] over len(x) elements, accumulated in four
// interleaved partial sums added pairwise at the end.
func dotGo(x, y []float32) float32 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	s := (s0 + s1) + (s2 + s3)
	for ; i < len(x); i++ {
		s += x[i] * y[i]
	}
	return s
}

// dot4Go sets out[r] = dotGo(x, a[r*lda:r*lda+len(x)]) for r < 4.
func dot4Go(x, a []float32, lda int, out *[4]float32) {
	for r := range out {
		out[r] = dotGo(x, a[r*lda:r*lda+len(x)])
	}
}

// axpyGo computes y[i] += alpha·x[i] for i < len(x), with the same
// operation per element as kernelGo's accumulation.
func axpyGo(alpha float32, x, y []float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}
