package bench

import "math"

// Env is one environment of the study: its Gymnasium ID and the short
// name the thesis's tables use.
type Env struct {
	ID, Short string
	Control   bool // a control task (in the information-loss and tree-size summaries)
}

// Envs lists the thesis's ten environments in table order (spec §8.1–§8.2).
var Envs = []Env{
	{"CartPole-v1", "CP", true},
	{"Acrobot-v1", "AB", true},
	{"LunarLander-v2", "LL", true},
	{"MountainCarContinuous-v0", "MC-C", true},
	{"Pendulum-v1", "PD-C", true},
	{"MiniGrid-Empty-Random-6x6-v0", "E-R", false},
	{"MiniGrid-DoorKey-5x5-v0", "DK", false},
	{"MiniGrid-LavaGapS5-v0", "LG-5", false},
	{"MiniGrid-LavaGapS7-v0", "LG-7", false},
	{"MiniGrid-DistShift1-v0", "DS", false},
}

// FailBelow is, per environment (short name), the mean test return below
// which a training counts as failed in the "Delivered and final policy"
// table: issue 22's floors for AB, LL, MC-C, LG-5 and DS, Gymnasium's
// reward threshold for CartPole-v1 (475), and 0.5 for the other MiniGrid
// tasks (as for LG-5 and DS). Pendulum has none.
var FailBelow = map[string]float64{
	"CP": 475, "AB": -150, "LL": -200, "MC-C": 0,
	"E-R": 0.5, "DK": 0.5, "LG-5": 0.5, "LG-7": 0.5, "DS": 0.5,
}

// LookupEnv finds an environment by ID or short name (case-sensitive ID,
// case-insensitive short name). Unknown IDs are returned as a non-control
// environment named by the ID.
func LookupEnv(s string) Env {
	for _, e := range Envs {
		if e.ID == s || equalFold(e.Short, s) {
			return e
		}
	}
	return Env{ID: s, Short: s}
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Method names of the benchmark.
const (
	SYMPOL = "sympol"
	MLP    = "mlp"
	SDT    = "sdt"
	DSDT   = "d-sdt"
	SADT5  = "sa-dt-d5"
	SADT8  = "sa-dt-d8"
	VIPER5 = "viper-d5"
	VIPER8 = "viper-d8"
)

// Methods lists every method in table order.
var Methods = []string{SYMPOL, DSDT, SADT5, SADT8, VIPER5, VIPER8, MLP, SDT}

// Interpretable reports whether a method's applied model is a tree.
func Interpretable(m string) bool { return m != MLP && m != SDT }

var nan = math.NaN()

// thesis tables, keyed by method then short env name.
type thesisTable map[string]map[string]float64

func row(envs []string, vals ...float64) map[string]float64 {
	m := map[string]float64{}
	for i, e := range envs {
		if !math.IsNaN(vals[i]) {
			m[e] = vals[i]
		}
	}
	return m
}

var (
	ctl  = []string{"CP", "AB", "LL", "MC-C", "PD-C"}
	grid = []string{"E-R", "DK", "LG-5", "LG-7", "DS"}
	all  = append(append([]string{}, ctl...), grid...)
)

// ThesisPPO are the thesis's mean test returns with PPO (spec §8.1, §8.2,
// §8.4).
var ThesisPPO = thesisTable{
	SYMPOL: row(all, 500, -80, -57, 94, -323, 0.964, 0.959, 0.951, 0.953, 0.939),
	DSDT:   row(all, 128, -205, -221, -10, -1343, 0.662, 0.654, 0.262, 0.381, 0.932),
	SADT5:  row(all, 446, -97, -197, 97, -1251, 0.583, 0.958, 0.951, 0.458, 0.952),
	SADT8:  row(all, 476, -75, -150, 96, -854, 0.845, 0.961, 0.951, 0.799, 0.954),
	VIPER5: row(all, 457, -77, -200, nan, nan, 0.651, 0.958, 0.948, 0.456, 0.954),
	VIPER8: row(all, 480, -75, -169, nan, nan, 0.845, 0.963, 0.948, 0.801, 0.954),
	MLP:    row(all, 500, -72, 241, 95, -191, 0.963, 0.963, 0.951, 0.760, 0.951),
	SDT:    row(all, 500, -77, -124, -4, -310, 0.966, 0.959, 0.839, 0.953, 0.954),
}

// ThesisA2C are the thesis's mean test returns with A2C (spec §8.8).
var ThesisA2C = thesisTable{
	SYMPOL: row(ctl, 500, -84, -85, 58, -502),
	DSDT:   row(ctl, 11, -427, -396, 0, -1137),
	SADT5:  row(ctl, 295, -102, -348, 0, -1467),
	SADT8:  row(ctl, 223, -99, -367, 2, -1526),
	MLP:    row(ctl, 500, -78, 208, 0, -202),
	SDT:    row(ctl, 500, -85, -159, 0, -201),
}

// ThesisVal are the validation returns of the trained model behind each
// method (spec §8.3).
var ThesisVal = thesisTable{
	MLP:    row(ctl, 500, -71, 256, 95, -169),
	SDT:    row(ctl, 500, -89, -91, -4, -295),
	SYMPOL: row(ctl, 500, -79, -9, 87, -305),
	SADT5:  row(ctl, 500, -71, 256, 95, -169),
	SADT8:  row(ctl, 500, -71, 256, 95, -169),
	DSDT:   row(ctl, 500, -89, -91, -4, -295),
}

// ThesisCohen is the information loss, Cohen's d (spec §8.3).
var ThesisCohen = thesisTable{
	MLP:    row(ctl, 0, 0.035, 0.341, -0.042, 1.195),
	SDT:    row(ctl, 0, -0.630, 0.750, -0.002, 0.081),
	SYMPOL: row(ctl, 0, 0.104, 0.370, -1.035, 0.468),
	SADT5:  row(ctl, 0.632, 0.728, 4.776, -2.011, 13.120),
	SADT8:  row(ctl, 1.214, 0.338, 8.155, -1.172, 4.101),
	DSDT:   row(ctl, 4.075, 0.982, 2.254, 0.745, 7.573),
}

// ThesisCohenMean is the mean Cohen's d over the control environments.
var ThesisCohenMean = map[string]float64{SYMPOL: -0.019, SADT5: 3.449, SADT8: 2.527, DSDT: 3.126, MLP: 0.306, SDT: 0.040}

// ThesisNodes is the tree size after pruning (spec §8.5).
var ThesisNodes = thesisTable{
	SYMPOL: row(ctl, 39.4, 78.6, 55.0, 23.4, 56.2),
	DSDT:   row(ctl, 14.2, 17.0, 19.8, 3.0, 28.6),
	SADT5:  row(ctl, 61.8, 56.5, 59.8, 61.0, 62.2),
	SADT8:  row(ctl, 315.0, 173.0, 270.2, 311.8, 388.2),
}

// ThesisNodesMean is the mean tree size over the control environments.
var ThesisNodesMean = map[string]float64{SYMPOL: 50.5, DSDT: 16.5, SADT5: 60.3, SADT8: 291.6}

// Ablation variants (spec §8.7) and their names in the tables.
const (
	VariantFull        = ""
	VariantTreeCritic  = "tree-critic"        // w/o separate architecture
	VariantNoDynamic   = "no-dynamic-rollout" // w/o dynamic rollout
	VariantStaticBatch = "static-batch"       // w/o batch size adjustment
	VariantNoAdamW     = "no-adamw"           // w/o AdamW
)

// Variants lists the ablation variants in table order.
var Variants = []string{VariantFull, VariantTreeCritic, VariantNoDynamic, VariantStaticBatch, VariantNoAdamW}

// VariantTitle is the thesis's name of a variant.
var VariantTitle = map[string]string{
	VariantFull:        "SYMPOL",
	VariantTreeCritic:  "w/o separate architecture",
	VariantNoDynamic:   "w/o dynamic rollout",
	VariantStaticBatch: "w/o batch size adjustment",
	VariantNoAdamW:     "w/o AdamW",
}

// ThesisAblation are the thesis's ablation returns (spec §8.7).
var ThesisAblation = thesisTable{
	VariantFull:        row(ctl, 500.0, -79.9, -57.4, 94.3, -323.3),
	VariantTreeCritic:  row(ctl, 135.6, -196.4, -276.8, -552.4, -1219.4),
	VariantNoDynamic:   row(ctl, 456.1, -92.0, -178.2, -144.1, -434.4),
	VariantStaticBatch: row(ctl, 498.8, -81.7, -320.7, -1818.8, -434.4),
	VariantNoAdamW:     row(ctl, 416.1, -78.3, -97.3, 0.0, -393.5),
}

// ThesisAblationNorm is the ablation's normalised mean (spec §7.5).
var ThesisAblationNorm = map[string]float64{VariantFull: 0.988, VariantTreeCritic: 0.080,
	VariantNoDynamic: 0.598, VariantStaticBatch: 0.372, VariantNoAdamW: 0.865}
