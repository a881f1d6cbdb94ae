package multimodal

import (
	"fmt"
	"math"

	"github.com/gdt-ml/gdt/grande"
	"github.com/gdt-ml/gdt/nn"
	"github.com/gdt-ml/gdt/optim"
	"github.com/gdt-ml/gdt/tree"
)

// parts are the modules of a multimodal network. The image path is
// body (convolutions → global average pooling) → top (dense + ReLU, the
// "last layer" fine-tuned during fusion) → imgHead (pretraining and the
// image-only model). The fused path is Concat(top, tab) → dropout → head;
// the tabular-only path tab → dropout → head.
type parts struct {
	body    *nn.Sequential
	top     *nn.Sequential
	imgHead *nn.Dense
	tab     nn.Module
	tree    *nn.Tree // tab when it is GRANDE
	drop    *nn.Dropout
	head    *nn.Dense
	// evalBatch is the batch size of prediction and evaluation passes
	// (evalBatchSize; evalBatch without an image branch).
	evalBatch int
}

// seeds of the parts, derived from the model seed.
func partSeed(seed int64, part uint64) uint64 {
	s := splitmix64(uint64(seed)*0x9E3779B97F4A7C15 + part)
	return s.next()
}

// maxBatchValues bounds the float32 values (2 GiB) the image encoder
// allocates for one prediction or evaluation batch: forwardAll runs
// batches of evalBatchSize images, at most evalBatch and as many as fit in
// it (at least one). The default encoder (channels 16, 32, 64, 128, stem
// stride 2) fits the full evalBatch of 256 images up to 224 × 224 (80 % of
// the bound); larger images get smaller batches (246 at 256 × 256, 109 at
// 384 × 384, 15 at 1024 × 1024), which change no result: in inference mode
// every row is computed on its own (TestPredictBatchInvariant; the batch
// sizes: TestEvalBatchSize).
const maxBatchValues = 1 << 29

// maxImageValues bounds the float32 values the encoder allocates for ONE
// image (encoderValues), which is what a model file's image shape and
// channel widths size, so a file cannot make even a batch of one image
// allocate without bound; the weights, which the file holds, are checked
// against its parts. 2^26 values (256 MiB) admit the default encoder on
// the largest images a file may declare (maxImageSide: 1024 × 1024 needs
// 4.43e7 values, 66 % of it) while each side at most maxImageSide and each
// width at most maxWidth alone would allow one 1024 × 1024 image through
// 65,536 channels (over 10^11 values). Training allocates encoderValues
// (with gradients) times its batch size, which the user chooses.
const maxImageValues = 1 << 26

// encoderValues returns the float32 values the encoder made of layers
// allocates for images of shape img: perImage for each image of a batch
// (the batch buffers of the input pixels that prediction keeps in flight —
// three: the batch being forwarded and two filled ahead, see stream — and
// every layer's output, each layer keeping its own buffer for the whole
// batch) and col once per batch (a convolution's im2col workspace,
// C·3·3·H_o·W_o values for an image; one per worker, a small share beside
// a batch's outputs).
func encoderValues(img nn.Shape, layers []nn.Module) (perImage, col float64) {
	perImage = 3 * float64(img.Size())
	for _, l := range layers {
		perImage += float64(l.Out())
		if c, ok := l.(*nn.Conv2D); ok {
			in, out := c.InShape(), c.OutShape()
			col = max(col, float64(in.C)*9*float64(out.H)*float64(out.W))
		}
	}
	return perImage, col
}

// evalBatchSize returns the images per prediction batch for an encoder
// needing perImage and col values (encoderValues): evalBatch, or fewer so
// that the batch allocates at most maxBatchValues, and at least one.
func evalBatchSize(perImage, col float64) int {
	return max(1, min(evalBatch, int((maxBatchValues-col)/perImage)))
}

// buildParts creates freshly initialised modules for cfg (defaults
// applied) with images of shape img (ignored without an image branch),
// tabCols tabular inputs and classes outputs.
func buildParts(cfg Config, img nn.Shape, tabCols, classes int) (*parts, error) {
	p := &parts{evalBatch: evalBatch}
	embed := 0
	if cfg.Image {
		var layers []nn.Module
		sh := img
		for i, ch := range cfg.Channels {
			stride := 1
			if i == 0 {
				stride = cfg.StemStride
			}
			conv, err := nn.NewConv2D(sh, ch, 3, stride, 1, nn.HeInit(), partSeed(cfg.Seed, uint64(10+i)))
			if err != nil {
				return nil, fmt.Errorf("multimodal: encoder stage %d: %w", i, err)
			}
			if i == 0 {
				conv.SetSkipInputGrad(true)
			}
			sh = conv.OutShape()
			bn, err := nn.NewBatchNorm2D(sh, 0, 0)
			if err != nil {
				return nil, err
			}
			layers = append(layers, conv, bn, nn.NewReLU(sh.Size()))
			if i < len(cfg.Channels)-1 {
				if sh.H < 2 || sh.W < 2 {
					return nil, fmt.Errorf("multimodal: images of %v are too small for %d pooling stages", img, len(cfg.Channels)-1)
				}
				pool, err := nn.NewMaxPool2D(sh, 2, 2)
				if err != nil {
					return nil, err
				}
				sh = pool.OutShape()
				layers = append(layers, pool)
			}
		}
		gap, err := nn.NewGlobalAvgPool(sh)
		if err != nil {
			return nil, err
		}
		layers = append(layers, gap)
		perImage, col := encoderValues(img, layers)
		if v := perImage + col; v > maxImageValues {
			return nil, fmt.Errorf("multimodal: images of %v through channels %v (stem stride %d) make one image allocate %.3g float32 values in the encoder: expected at most %d (%d MiB); use smaller images, fewer channels or a larger stem stride",
				img, cfg.Channels, cfg.StemStride, v, maxImageValues, maxImageValues>>18)
		}
		p.evalBatch = evalBatchSize(perImage, col)
		if p.body, err = nn.NewSequential(layers...); err != nil {
			return nil, err
		}
		d, err := nn.NewDense(sh.C, cfg.ImageEmbed, nn.HeInit(), partSeed(cfg.Seed, 20))
		if err != nil {
			return nil, err
		}
		if p.top, err = nn.NewSequential(d, nn.NewReLU(cfg.ImageEmbed)); err != nil {
			return nil, err
		}
		if p.imgHead, err = nn.NewDense(cfg.ImageEmbed, classes, nn.GlorotInit(), partSeed(cfg.Seed, 21)); err != nil {
			return nil, err
		}
		embed += cfg.ImageEmbed
	}
	switch cfg.Tabular {
	case "mlp":
		var layers []nn.Module
		in := tabCols
		for i, h := range cfg.MLPHidden {
			d, err := nn.NewDense(in, h, nn.HeInit(), partSeed(cfg.Seed, uint64(30+i)))
			if err != nil {
				return nil, err
			}
			if i == 0 {
				d.SetSkipInputGrad(true)
			}
			layers = append(layers, d, nn.NewReLU(h))
			in = h
		}
		s, err := nn.NewSequential(layers...)
		if err != nil {
			return nil, err
		}
		p.tab = s
		embed += in
	case "grande":
		ne := treeFeatures(tabCols, cfg.TreeFeatures)
		seed := partSeed(cfg.Seed, 40)
		t, err := nn.NewTree(nn.TreeConfig{
			Kernel: tree.Config{Trees: cfg.Trees, Depth: cfg.Depth, Features: tabCols, Outputs: cfg.TreeEmbed,
				Subsets: grande.FeatureSubsets(cfg.Trees, tabCols, ne, seed), Split: tree.Softsign, Weights: tree.LeafWeights,
				Workers: cfg.Workers},
			Init: tree.InitNormal, Dropout: cfg.TreeDropout, Seed: seed})
		if err != nil {
			return nil, fmt.Errorf("multimodal: GRANDE backbone: %w", err)
		}
		t.SetSkipInputGrad(true)
		// Every optimiser step follows exactly one Backward (stage.run), so
		// the kernel may write its gradients instead of adding them.
		t.SetOverwriteGrad(true)
		p.tab, p.tree = t, t
		embed += cfg.TreeEmbed
	}
	if cfg.Tabular != "" {
		var err error
		if p.drop, err = nn.NewDropout(embed, cfg.Dropout, partSeed(cfg.Seed, 50)); err != nil {
			return nil, err
		}
		if p.head, err = nn.NewDense(embed, classes, nn.GlorotInit(), partSeed(cfg.Seed, 51)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// treeFeatures is GRANDE's feature count per tree: a fraction f ≤ 1 gives
// min(n, max(10, min(50, ⌊n·f⌋))), a value > 1 a count capped at n.
func treeFeatures(n int, f float64) int {
	if f > 1 {
		return min(n, int(f))
	}
	return min(n, max(10, min(50, int(math.Floor(float64(n)*f)))))
}

// imageNet is body → top → imgHead.
func (p *parts) imageNet() (*nn.Sequential, error) {
	return nn.NewSequential(p.body, p.top, p.imgHead)
}

// fusionNet is the network of the fusion (or tabular-only) stage. With
// fineTuneAll its input rows are [pixels, tab], else [pooled encoder
// features, tab] (tabular-only: tab).
func (p *parts) fusionNet(fineTuneAll bool) (*nn.Sequential, error) {
	if p.body == nil {
		return nn.NewSequential(p.tab, p.drop, p.head)
	}
	var img nn.Module = p.top
	if fineTuneAll {
		s, err := nn.NewSequential(p.body, p.top)
		if err != nil {
			return nil, err
		}
		img = s
	}
	cat, err := nn.NewConcat(img, p.tab)
	if err != nil {
		return nil, err
	}
	return nn.NewSequential(cat, p.drop, p.head)
}

// groups returns the optimiser groups of modules: trees get GRANDE's
// per-tensor groups (Adam, no decay), everything else one AdamW group.
func groups(cfg Config, name string, mods ...nn.Module) []optim.Group {
	var dense []optim.Param
	var out []optim.Group
	for _, m := range mods {
		if t, ok := m.(*nn.Tree); ok {
			for _, prm := range t.Params() {
				lr := cfg.LRTree
				if prm.Name == "weight" {
					lr = cfg.LRTreeWeights
				}
				out = append(out, optim.NewGroup(optim.Torch, name+".tree."+prm.Name, lr, prm))
			}
			continue
		}
		for _, prm := range m.Params() {
			prm.Name = fmt.Sprintf("%s.%d.%s", name, len(dense), prm.Name)
			dense = append(dense, prm)
		}
	}
	if len(dense) > 0 {
		g := optim.NewGroup(optim.Torch, name+".nn", cfg.LR, dense...)
		g.WeightDecay = cfg.WeightDecay
		out = append([]optim.Group{g}, out...)
	}
	return out
}
