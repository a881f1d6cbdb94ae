package multimodal

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
)

// Config configures a multimodal network. The same code builds the
// image-only (Image, Tabular ""), tabular-only (Tabular "mlp"/"grande", no
// Image) and fused (both) variants. Zero values take the defaults noted.
type Config struct {
	// Image enables the image branch (a small CNN).
	Image bool `json:"image"`
	// Tabular is the tabular backbone: "" (none), "mlp" or "grande".
	Tabular string `json:"tabular"`

	// Channels are the output channels of the encoder's convolution
	// stages (3×3 convolution, batch norm, ReLU, 2×2 max pooling except
	// after the last stage, which is followed by global average pooling).
	// Default 16, 32, 64, 128.
	Channels []int `json:"channels"`
	// StemStride is the stride of the first convolution (default 2: a
	// 64×64 image is convolved at 32×32, a quarter of the cost).
	StemStride int `json:"stem_stride"`
	// ImageEmbed is the width of the encoder's last layer (dense + ReLU on
	// the pooled features; the only encoder layer trained during fusion).
	// Default 64.
	ImageEmbed int `json:"image_embed"`

	// MLPHidden are the hidden widths of the tabular MLP; its last hidden
	// layer is the tabular embedding. Default 128, 64.
	MLPHidden []int `json:"mlp_hidden"`
	// Trees and Depth shape the GRANDE backbone (default 256 trees of
	// depth 6); its leaves hold TreeEmbed values (default 32), so that the
	// ensemble's instance-weighted output is the tabular embedding.
	Trees     int `json:"trees"`
	Depth     int `json:"depth"`
	TreeEmbed int `json:"tree_embed"`
	// TreeFeatures is GRANDE's feature fraction per tree (default 0.8,
	// with GRANDE's floor of 10 and cap of 50 features).
	TreeFeatures float64 `json:"tree_features"`
	// TreeDropout is GRANDE's estimator dropout (default 0).
	TreeDropout float64 `json:"tree_dropout"`

	// Dropout is applied to the fused embedding before the head
	// (default 0.2).
	Dropout float64 `json:"dropout"`

	// LR is AdamW's learning rate of the neural layers (default 1e-3) and
	// WeightDecay their decoupled weight decay (default 1e-4). The trees use
	// GRANDE's rates (LRTree 0.01 for split indices, thresholds and leaves,
	// LRTreeWeights 0.005 for the leaf weights) without weight decay.
	LR            float64 `json:"lr"`
	WeightDecay   float64 `json:"weight_decay"`
	LRTree        float64 `json:"lr_tree"`
	LRTreeWeights float64 `json:"lr_tree_weights"`

	BatchSize int `json:"batch_size"` // default 64
	// Epochs and Patience bound the fusion (or tabular-only) training;
	// PretrainEpochs and PretrainPatience the image-encoder pretraining
	// (defaults 200/20 and 30/5).
	Epochs           int `json:"epochs"`
	Patience         int `json:"patience"`
	PretrainEpochs   int `json:"pretrain_epochs"`
	PretrainPatience int `json:"pretrain_patience"`
	// ClassWeights is "balanced" (default: sklearn's N/(C·N_c) per sample)
	// or "none".
	ClassWeights string `json:"class_weights"`
	// Augment is used while pretraining the encoder (default
	// DefaultAugment; set NoAugment to disable).
	Augment   Augment `json:"augment"`
	NoAugment bool    `json:"no_augment"`
	// FineTuneAll trains the whole encoder during fusion (with augmented
	// images) instead of freezing it except its last layer.
	FineTuneAll bool `json:"fine_tune_all"`

	Seed int64 `json:"seed"` // default 42
	// Workers bounds the goroutines of image preparation (0: GOMAXPROCS).
	Workers int `json:"workers"`
}

// Defaults returns c with zero fields set to the declared defaults
// (Options) and the default channel widths, hidden widths and augmentation.
func (c Config) Defaults() Config {
	c = Options.Defaults(c, "")
	if len(c.Channels) == 0 {
		c.Channels = []int{16, 32, 64, 128}
	}
	if len(c.MLPHidden) == 0 {
		c.MLPHidden = []int{128, 64}
	}
	if !c.NoAugment && !c.Augment.Active() {
		c.Augment = DefaultAugment()
	}
	if c.NoAugment {
		c.Augment = Augment{}
	}
	return c
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	if !c.Image && c.Tabular == "" {
		return fmt.Errorf("multimodal: config: neither an image branch nor a tabular backbone")
	}
	return Options.CheckConfig(c)
}

// ParseOptions applies text options (CLI --set key=value; `gdt models
// mlp` lists them) to c.
func ParseOptions(c Config, opts map[string]string) (Config, error) {
	err := Options.Apply(&c, opts)
	return c, err
}

// widths parses a list of positive integers separated by commas.
func widths(s string) ([]int, error) {
	var out []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '/' }) {
		v, err := strconv.Atoi(f)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("expected positive integers separated by commas")
		}
		out = append(out, v)
	}
	return out, nil
}

// Options declares the options of the multimodal network (the tabular-only
// learner kind "mlp" and `gdt train-multimodal`).
var Options = &option.List[Config]{Kind: "multimodal", Options: []option.Option[Config]{
	option.BoolOpt("image", "false", "enable the image branch (a small CNN)", func(c *Config) any { return &c.Image }),
	option.Custom(option.Spec{Key: "tabular", Type: option.Choice, Choices: []string{"none", "mlp", "grande"}, Default: "none",
		Meaning: "tabular backbone"},
		func(c *Config, v string) error {
			c.Tabular = map[bool]string{true: "", false: v}[v == "none"]
			return nil
		},
		func(c *Config) string { return c.Tabular }),
	option.Custom(option.Spec{Key: "channels", Type: option.Text, DefaultNote: "16,32,64,128", RangeNote: "positive widths separated by commas",
		Meaning: "output channels of the encoder's convolution stages"},
		func(c *Config, v string) (err error) {
			c.Channels, err = widths(v)
			return err
		},
		func(c *Config) string { return joinInts(c.Channels, ",") }),
	option.IntOpt("stem_stride", "2", 1, option.Unbounded, "stride of the first convolution", func(c *Config) any { return &c.StemStride }),
	option.IntOpt("image_embed", "64", 1, option.Unbounded, "width of the image encoder's last layer", func(c *Config) any { return &c.ImageEmbed }),
	option.Custom(option.Spec{Key: "mlp_hidden", Type: option.Text, DefaultNote: "128,64", RangeNote: "positive widths separated by commas",
		Meaning: "hidden widths of the tabular MLP (the last is the tabular embedding)"},
		func(c *Config, v string) (err error) {
			c.MLPHidden, err = widths(v)
			return err
		},
		func(c *Config) string { return joinInts(c.MLPHidden, ",") }),
	option.IntOpt("n_estimators", "256", 1, 1<<20, model.MeaningEstimators+" (GRANDE backbone)", func(c *Config) any { return &c.Trees }).Also("trees"),
	option.IntOpt("depth", "6", 1, 16, model.MeaningDepth, func(c *Config) any { return &c.Depth }),
	option.IntOpt("tree_embed", "32", 1, option.Unbounded, "values per leaf of the GRANDE backbone (the tabular embedding's width)",
		func(c *Config) any { return &c.TreeEmbed }),
	option.FloatOpt("tree_features", "0.8", 0, 1, "GRANDE backbone's feature fraction per tree (floor 10, cap 50 features)",
		func(c *Config) any { return &c.TreeFeatures }).Open(true, false),
	option.FloatOpt("tree_dropout", "0", 0, 1, model.MeaningDropout+" (GRANDE backbone)", func(c *Config) any { return &c.TreeDropout }).Open(false, true),
	option.FloatOpt("head_dropout", "0.2", 0, 1, "dropout on the fused embedding before the head (GRANDE's dropout drops trees: tree_dropout here)", func(c *Config) any { return &c.Dropout }).Open(false, true),
	option.FloatOpt("lr", "0.001", 0, option.Unbounded, "AdamW learning rate of the neural layers", func(c *Config) any { return &c.LR }).
		Open(true, false).LogScale(),
	option.FloatOpt("weight_decay", "0.0001", 0, option.Unbounded, "AdamW's decoupled weight decay of the neural layers",
		func(c *Config) any { return &c.WeightDecay }).LogScale(),
	option.FloatOpt("lr_tree", "0.01", 0, option.Unbounded, "learning rate of the trees' split indices, thresholds and leaves",
		func(c *Config) any { return &c.LRTree }).Open(true, false).LogScale(),
	option.FloatOpt("lr_tree_weights", "0.005", 0, option.Unbounded, "learning rate of the trees' leaf weights",
		func(c *Config) any { return &c.LRTreeWeights }).Open(true, false).LogScale(),
	option.IntOpt("batch_size", "64", 2, option.Unbounded, model.MeaningBatchSize, func(c *Config) any { return &c.BatchSize }),
	option.IntOpt("epochs", "200", 1, option.Unbounded, model.MeaningEpochs, func(c *Config) any { return &c.Epochs }),
	option.IntOpt("patience", "20", 1, option.Unbounded, model.MeaningPatience, func(c *Config) any { return &c.Patience }),
	option.IntOpt("pretrain_epochs", "30", 1, option.Unbounded, "epoch limit of the image encoder's pretraining", func(c *Config) any { return &c.PretrainEpochs }),
	option.IntOpt("pretrain_patience", "5", 1, option.Unbounded, "early-stopping patience of the encoder's pretraining",
		func(c *Config) any { return &c.PretrainPatience }),
	option.ChoiceOpt("class_weights", "balanced", []string{"none", "balanced"}, model.MeaningClassWeights,
		func(c *Config) any { return &c.ClassWeights }),
	option.BoolOpt("augment", "true", "augment images while pretraining the encoder", func(c *Config) any { return &c.NoAugment }).Inverted(),
	option.Custom(option.Spec{Key: "max_shift", Type: option.Float, Min: 0, Max: option.Unbounded, DefaultNote: "DefaultAugment",
		Meaning: "augmentation: largest shift (fraction of the image), with flips"},
		func(c *Config, v string) (err error) {
			c.Augment.MaxShift, err = strconv.ParseFloat(v, 64)
			c.Augment.Flip = true
			return err
		},
		func(c *Config) string { return formatNonZero(c.Augment.MaxShift) }),
	option.Custom(option.Spec{Key: "max_rotate", Type: option.Float, Min: 0, Max: option.Unbounded, DefaultNote: "DefaultAugment",
		Meaning: "augmentation: largest rotation (degrees), with flips"},
		func(c *Config, v string) (err error) {
			c.Augment.MaxRotate, err = strconv.ParseFloat(v, 64)
			c.Augment.Flip = true
			return err
		},
		func(c *Config) string { return formatNonZero(c.Augment.MaxRotate) }),
	option.BoolOpt("fine_tune_all", "false", "train the whole encoder during fusion instead of only its last layer",
		func(c *Config) any { return &c.FineTuneAll }),
	option.IntOpt("seed", "42", 0, option.Unbounded, model.MeaningSeed, func(c *Config) any { return &c.Seed }),
	option.IntOpt("workers", "0", 0, option.Unbounded, "goroutines of image preparation (0: GOMAXPROCS); results do not depend on it",
		func(c *Config) any { return &c.Workers }),
}}

func formatNonZero(f float64) string {
	if f == 0 {
		return ""
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
