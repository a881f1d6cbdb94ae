package hpo

import (
	"fmt"
	"math"
	"math/rand"
	"sync"

	"github.com/c-bata/goptuna"
)

// randomSampler is random search drawing every value, categorical ones
// included, from its own seeded generator (goptuna's RandomSampler draws
// categorical values from the process-global math/rand, which cannot be
// seeded, so its searches do not repeat).
type randomSampler struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newRandomSampler(seed int64) *randomSampler {
	return &randomSampler{rng: rand.New(rand.NewSource(seed))}
}

// Sample draws one value of distribution in goptuna's internal
// representation.
func (s *randomSampler) Sample(_ *goptuna.Study, _ goptuna.FrozenTrial, name string, distribution interface{}) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch d := distribution.(type) {
	case goptuna.UniformDistribution:
		return d.Low + s.rng.Float64()*(d.High-d.Low), nil
	case goptuna.LogUniformDistribution:
		lo, hi := math.Log(d.Low), math.Log(d.High)
		return math.Exp(lo + s.rng.Float64()*(hi-lo)), nil
	case goptuna.IntUniformDistribution:
		return float64(d.Low + s.rng.Intn(d.High-d.Low+1)), nil
	case goptuna.StepIntUniformDistribution:
		return float64(d.Low + s.rng.Intn((d.High-d.Low)/d.Step+1)*d.Step), nil
	case goptuna.DiscreteUniformDistribution:
		n := int(math.Floor((d.High-d.Low)/d.Q+1e-9)) + 1
		return d.Low + float64(s.rng.Intn(n))*d.Q, nil
	case goptuna.CategoricalDistribution:
		return float64(s.rng.Intn(len(d.Choices))), nil
	}
	return 0, fmt.Errorf("hpo: parameter %s: unsupported distribution %T", name, distribution)
}
