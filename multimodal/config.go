package multimodal

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/model"
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

// Defaults returns c with zero fields set to the defaults.
func (c Config) Defaults() Config {
	if len(c.Channels) == 0 {
		c.Channels = []int{16, 32, 64, 128}
	}
	if c.StemStride == 0 {
		c.StemStride = 2
	}
	if c.ImageEmbed == 0 {
		c.ImageEmbed = 64
	}
	if len(c.MLPHidden) == 0 {
		c.MLPHidden = []int{128, 64}
	}
	if c.Trees == 0 {
		c.Trees = 256
	}
	if c.Depth == 0 {
		c.Depth = 6
	}
	if c.TreeEmbed == 0 {
		c.TreeEmbed = 32
	}
	if c.TreeFeatures == 0 {
		c.TreeFeatures = 0.8
	}
	if c.Dropout == 0 {
		c.Dropout = 0.2
	}
	if c.LR == 0 {
		c.LR = 1e-3
	}
	if c.WeightDecay == 0 {
		c.WeightDecay = 1e-4
	}
	if c.LRTree == 0 {
		c.LRTree = 0.01
	}
	if c.LRTreeWeights == 0 {
		c.LRTreeWeights = 0.005
	}
	if c.BatchSize == 0 {
		c.BatchSize = 64
	}
	if c.Epochs == 0 {
		c.Epochs = 200
	}
	if c.Patience == 0 {
		c.Patience = 20
	}
	if c.PretrainEpochs == 0 {
		c.PretrainEpochs = 30
	}
	if c.PretrainPatience == 0 {
		c.PretrainPatience = 5
	}
	if c.ClassWeights == "" {
		c.ClassWeights = "balanced"
	}
	if !c.NoAugment && !c.Augment.Active() {
		c.Augment = DefaultAugment()
	}
	if c.NoAugment {
		c.Augment = Augment{}
	}
	if c.Seed == 0 {
		c.Seed = 42
	}
	return c
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	if !c.Image && c.Tabular == "" {
		return fmt.Errorf("multimodal: config: neither an image branch nor a tabular backbone")
	}
	switch c.Tabular {
	case "", "mlp", "grande":
	default:
		return fmt.Errorf("multimodal: config: tabular backbone %q, expected mlp, grande or none", c.Tabular)
	}
	for _, v := range c.Channels {
		if v <= 0 {
			return fmt.Errorf("multimodal: config: channels %v, expected positive widths", c.Channels)
		}
	}
	for _, v := range c.MLPHidden {
		if v <= 0 {
			return fmt.Errorf("multimodal: config: mlp_hidden %v, expected positive widths", c.MLPHidden)
		}
	}
	switch {
	case c.ImageEmbed <= 0, c.StemStride <= 0, c.Trees <= 0, c.Depth <= 0, c.TreeEmbed <= 0, c.BatchSize < 2, c.Epochs <= 0, c.Patience <= 0,
		c.PretrainEpochs <= 0, c.PretrainPatience <= 0:
		return fmt.Errorf("multimodal: config: sizes, batch (≥ 2), epochs and patience must be positive: %+v", c)
	case !(c.Dropout >= 0 && c.Dropout < 1), !(c.TreeDropout >= 0 && c.TreeDropout < 1):
		return fmt.Errorf("multimodal: config: dropout %g / tree_dropout %g, expected in [0, 1)", c.Dropout, c.TreeDropout)
	case !(c.TreeFeatures > 0):
		return fmt.Errorf("multimodal: config: tree_features %g, expected > 0", c.TreeFeatures)
	case !(c.LR > 0), !(c.LRTree > 0), !(c.LRTreeWeights > 0), c.WeightDecay < 0:
		return fmt.Errorf("multimodal: config: learning rates must be > 0 and weight decay ≥ 0")
	case c.ClassWeights != "balanced" && c.ClassWeights != "none":
		return fmt.Errorf("multimodal: config: class_weights %q, expected balanced or none", c.ClassWeights)
	}
	return nil
}

// optionKeys lists the option names ParseOptions accepts.
var optionKeys = []string{"image", "tabular", "channels", "stem_stride", "image_embed", "mlp_hidden", "trees", "depth", "tree_embed",
	"tree_features", "tree_dropout", "dropout", "lr", "weight_decay", "lr_tree", "lr_tree_weights", "batch_size",
	"epochs", "patience", "pretrain_epochs", "pretrain_patience", "class_weights", "augment", "max_shift",
	"max_rotate", "fine_tune_all", "seed", "workers"}

// ParseOptions applies text options (CLI --set key=value) to c.
func ParseOptions(c Config, opts map[string]string) (Config, error) {
	ints := func(s string) ([]int, error) {
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
	err := model.EachOption("multimodal", opts, optionKeys, func(o *model.Option) error {
		var err error
		switch o.Key {
		case "image":
			c.Image = o.Bool()
		case "tabular":
			c.Tabular = o.Lower()
			if c.Tabular == "none" {
				c.Tabular = ""
			}
		case "channels":
			c.Channels, err = ints(o.Value)
		case "mlp_hidden":
			c.MLPHidden, err = ints(o.Value)
		case "stem_stride":
			c.StemStride = o.Int()
		case "image_embed":
			c.ImageEmbed = o.Int()
		case "trees":
			c.Trees = o.Int()
		case "depth":
			c.Depth = o.Int()
		case "tree_embed":
			c.TreeEmbed = o.Int()
		case "tree_features":
			c.TreeFeatures = o.Float()
		case "tree_dropout":
			c.TreeDropout = o.Float()
		case "dropout":
			c.Dropout = o.Float()
		case "lr":
			c.LR = o.Float()
		case "weight_decay":
			c.WeightDecay = o.Float()
		case "lr_tree":
			c.LRTree = o.Float()
		case "lr_tree_weights":
			c.LRTreeWeights = o.Float()
		case "batch_size":
			c.BatchSize = o.Int()
		case "epochs":
			c.Epochs = o.Int()
		case "patience":
			c.Patience = o.Int()
		case "pretrain_epochs":
			c.PretrainEpochs = o.Int()
		case "pretrain_patience":
			c.PretrainPatience = o.Int()
		case "class_weights":
			c.ClassWeights = o.Lower()
		case "augment":
			if !o.Bool() {
				c.NoAugment = true
			}
		case "max_shift":
			c.Augment.MaxShift = o.Float()
			c.Augment.Flip = true
		case "max_rotate":
			c.Augment.MaxRotate = o.Float()
			c.Augment.Flip = true
		case "fine_tune_all":
			c.FineTuneAll = o.Bool()
		case "seed":
			c.Seed = o.Int64()
		case "workers":
			c.Workers = o.Int()
		default:
			return model.ErrUnknownOption
		}
		return err
	})
	return c, err
}
