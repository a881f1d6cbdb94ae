package nn

import (
	"fmt"
	"math"
	"strings"

	"github.com/gdt-ml/gdt/rng"
)

// Scheme names a weight initialisation scheme.
type Scheme uint8

// The initialisation schemes. Fan-in and fan-out are those of PyTorch and
// Keras: for a dense layer In and Out, for a convolution C_in·k·k and
// C_out·k·k.
const (
	// Orthogonal is torch.nn.init.orthogonal_: a (semi-)orthogonal matrix
	// from the QR decomposition of a standard Gaussian matrix with the
	// signs of R's diagonal folded into Q, times the gain.
	Orthogonal Scheme = iota
	// GlorotUniform is Xavier/Glorot uniform: U(−a, a) with
	// a = gain·√(6/(fan_in + fan_out)).
	GlorotUniform
	// HeUniform is Kaiming/He uniform for ReLU networks: U(−a, a) with
	// a = gain·√(6/fan_in).
	HeUniform
	// LeCunNormal is Flax's default kernel initialiser (lecun_normal):
	// a normal truncated at ±2σ, rescaled so that the variance is
	// gain²/fan_in.
	LeCunNormal
	// Zeros sets every weight to zero.
	Zeros
)

var schemeNames = [...]string{"orthogonal", "glorot_uniform", "he_uniform", "lecun_normal", "zeros"}

// String returns the scheme's name as accepted by ParseScheme.
func (s Scheme) String() string {
	if int(s) < len(schemeNames) {
		return schemeNames[s]
	}
	return fmt.Sprintf("Scheme(%d)", s)
}

// ParseScheme parses a scheme name (orthogonal, glorot_uniform, he_uniform,
// lecun_normal, zeros; "xavier_uniform" and "kaiming_uniform" are aliases).
func ParseScheme(s string) (Scheme, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "orthogonal":
		return Orthogonal, nil
	case "glorot_uniform", "xavier_uniform", "glorot":
		return GlorotUniform, nil
	case "he_uniform", "kaiming_uniform", "he":
		return HeUniform, nil
	case "lecun_normal", "lecun":
		return LeCunNormal, nil
	case "zeros", "zero":
		return Zeros, nil
	}
	return 0, fmt.Errorf("nn: unknown initialisation scheme %q (want orthogonal, glorot_uniform, he_uniform, lecun_normal or zeros)", s)
}

// Init is a weight initialisation: a scheme and a gain. A zero Gain means 1.
// Biases always start at zero.
type Init struct {
	Scheme Scheme
	Gain   float64
}

// OrthogonalInit returns the orthogonal initialisation with the given gain
// (CleanRL's layer_init: √2 for hidden layers, 1 for a value head, 0.01 for
// a policy head).
func OrthogonalInit(gain float64) Init { return Init{Scheme: Orthogonal, Gain: gain} }

// GlorotInit returns Glorot (Xavier) uniform with gain 1 (Keras's default).
func GlorotInit() Init { return Init{Scheme: GlorotUniform, Gain: 1} }

// HeInit returns He (Kaiming) uniform for ReLU layers.
func HeInit() Init { return Init{Scheme: HeUniform, Gain: 1} }

// LeCunInit returns Flax's default LeCun truncated-normal initialisation.
func LeCunInit() Init { return Init{Scheme: LeCunNormal, Gain: 1} }

func (in Init) validate() error {
	if in.Scheme > Zeros {
		return fmt.Errorf("nn: unknown initialisation scheme %d", in.Scheme)
	}
	if in.Gain < 0 || math.IsNaN(in.Gain) || math.IsInf(in.Gain, 0) {
		return fmt.Errorf("nn: initialisation gain %v, want a finite value ≥ 0", in.Gain)
	}
	return nil
}

func (in Init) gain() float64 {
	if in.Gain == 0 {
		return 1
	}
	return in.Gain
}

// fill initialises w, a rows×cols row-major matrix whose rows are the fan-in
// axis (rows = fan_in/receptive, cols = fan_out/receptive for dense layers),
// with the given fans.
func (in Init) fill(w []float32, rows, cols, fanIn, fanOut int, r *rng.MT19937) {
	g := in.gain()
	switch in.Scheme {
	case Zeros:
		clear(w)
	case GlorotUniform:
		a := g * math.Sqrt(6/float64(fanIn+fanOut))
		for i := range w {
			w[i] = float32(a * (2*r.Float64() - 1))
		}
	case HeUniform:
		a := g * math.Sqrt(6/float64(fanIn))
		for i := range w {
			w[i] = float32(a * (2*r.Float64() - 1))
		}
	case LeCunNormal:
		// The standard deviation of N(0,1) truncated to [−2, 2].
		const truncStd = 0.87962566103423978
		s := g * math.Sqrt(1/float64(fanIn)) / truncStd
		for i := range w {
			z := r.NormFloat64()
			for z < -2 || z > 2 {
				z = r.NormFloat64()
			}
			w[i] = float32(s * z)
		}
	case Orthogonal:
		orthogonal(w, rows, cols, g, r)
	}
}

// orthogonal fills the rows×cols matrix w with a (semi-)orthogonal matrix
// times gain: orthonormal columns when rows ≥ cols, orthonormal rows
// otherwise. It orthonormalises the columns of a tall Gaussian matrix by
// modified Gram–Schmidt applied twice (float64), which yields the Q of a QR
// decomposition with a positive diagonal of R — the sign convention of
// torch.nn.init.orthogonal_.
func orthogonal(w []float32, rows, cols int, gain float64, r *rng.MT19937) {
	n, k := rows, cols // tall n×k, k ≤ n
	if cols > rows {
		n, k = cols, rows
	}
	a := make([]float64, n*k) // column-major: column j is a[j*n:(j+1)*n]
	for i := range a {
		a[i] = r.NormFloat64()
	}
	for j := 0; j < k; j++ {
		cj := a[j*n : (j+1)*n]
		for pass := 0; pass < 2; pass++ {
			for p := 0; p < j; p++ {
				cp := a[p*n : (p+1)*n]
				var d float64
				for i := range cj {
					d += cj[i] * cp[i]
				}
				for i := range cj {
					cj[i] -= d * cp[i]
				}
			}
		}
		var s float64
		for _, v := range cj {
			s += v * v
		}
		s = math.Sqrt(s)
		if s == 0 {
			s = 1
		}
		for i := range cj {
			cj[i] /= s
		}
	}
	if rows >= cols {
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				w[i*cols+j] = float32(gain * a[j*n+i])
			}
		}
		return
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			w[i*cols+j] = float32(gain * a[i*n+j])
		}
	}
}

// streamSeed derives the 32-bit seed of stream i from a 64-bit seed
// (splitmix64 finaliser), so that layers of one network draw from
// independent, reproducible streams.
func streamSeed(seed uint64, i int) uint32 {
	z := seed + 0x9e3779b97f4a7c15*uint64(i+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return uint32(z ^ z>>32)
}
