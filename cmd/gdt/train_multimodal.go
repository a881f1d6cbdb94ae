package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/multimodal"
)

// isMultimodalTrain reports whether gdt train's arguments ask for the
// multimodal model (--model multimodal or --images DIR). runTrain hands
// such calls to runTrainMultimodal.
func isMultimodalTrain(args []string) bool {
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		switch {
		case a == "model=multimodal", a == "images" || strings.HasPrefix(a, "images="):
			return true
		case a == "model" && i+1 < len(args) && args[i+1] == "multimodal":
			return true
		}
	}
	return false
}

// runTrainMultimodal is `gdt train --model multimodal --images DIR --data
// FILE`: images joined to a CSV's rows, a tabular backbone and a fusion head.
func runTrainMultimodal(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", "--model multimodal --images DIR --data FILE --out MODEL.json [flags]",
		"Trains an image encoder (small CNN, pretrained on the images) and a tabular backbone (--set tabular=mlp|grande|none)\n"+
			"fused by a dense head, with a grouped, stratified validation split for early stopping. FILE is a CSV with a\n"+
			"header: an image column (file name relative to DIR, or an id + .png), a label column and feature columns.", stderr)
	kind := fs.String("model", "multimodal", "must be multimodal")
	images := fs.String("images", "", "folder the image column's paths are relative to (default: FILE's folder)")
	path := fs.String("data", "", "CSV file (e.g. ../shared/data/multimodal/ham10000/ham10000.csv)")
	imgCol := fs.String("image-column", "", "image column (default: image_file, image_id, image or file)")
	target := fs.String("target", "", "label column (default: dx, else label)")
	group := fs.String("group", "", "rows of one group stay on one side of the validation split (default: lesion_id if present)")
	drop := fs.String("drop", "", "comma-separated columns that are not features (default: ids, label columns, dx_type and dataset)")
	categorical := fs.String("categorical", "", "comma-separated feature columns to treat as categorical even if numeric (a column whose values are mostly numbers with a few others is an error without it)")
	naValues := fs.String("na-values", "", fmt.Sprintf("comma-separated values that mean missing, besides %s and the empty field; stored in the model", strings.Join(data.DefaultMissing[1:], " ")))
	size := fs.Int("size", 64, "images are resized to SIZE×SIZE")
	out := fs.String("out", "", "model file to write (atomically)")
	protocol := fs.String("protocol", "gr-paper", "tabular preprocessing: gr-paper or standard")
	seed := fs.Int64("seed", 42, "random seed")
	valid := fs.Float64("valid", 0.1, "share of rows (whole groups) held out for early stopping")
	quiet := fs.Bool("quiet", false, "no progress lines")
	opts := optionFlags{}
	fs.Var(opts, "set", "option key=value (repeatable): image, tabular, channels, epochs, pretrain_epochs, n_estimators, depth, … (gdt models mlp lists them)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *kind != "multimodal" {
		return fmt.Errorf("%w: --model %s: this form of gdt train takes --model multimodal", errUsage, *kind)
	}
	if *path == "" || *out == "" {
		return fmt.Errorf("%w: --data and --out are required", errUsage)
	}
	if *images == "" {
		*images = filepath.Dir(*path)
	}
	cfg, err := multimodal.ParseOptions(multimodal.Config{Image: true, Tabular: "grande", Seed: *seed}, opts)
	if err != nil {
		return err
	}
	copt := multimodal.CSVOptions{ImageColumn: *imgCol, Target: *target, Group: *group,
		Categorical: splitList(*categorical), NAValues: splitList(*naValues),
		LoadOptions: multimodal.LoadOptions{Size: *size, NoImages: !cfg.Image}}
	if *drop != "" {
		copt.Drop = splitList(*drop)
	}
	start := time.Now()
	ds, err := multimodal.LoadCSV(*path, *images, copt)
	if err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprintf(stderr, "loaded %d rows, %d classes, features %v in %s\n", len(ds.Y), len(ds.Classes), ds.Tab.Names(), time.Since(start).Round(time.Millisecond))
	}
	progress := func(p multimodal.Progress) {
		if !*quiet {
			fmt.Fprintf(stderr, "%s epoch %d: train loss %.4f, validation loss %.4f (best %.4f), %.1f s/epoch — %s elapsed\n",
				p.Stage, p.Epoch, p.TrainLoss, p.ValidLoss, p.BestLoss, p.Seconds, time.Since(start).Round(time.Second))
		}
	}
	t, err := multimodal.TrainDataset(ctx, ds, multimodal.TrainOptions{Config: cfg, Protocol: *protocol, ValidFraction: *valid, Progress: progress})
	if err != nil {
		return err
	}
	if err := t.Save(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained multimodal (image %v, tabular %q) on %d rows in %.1fs; saved %s\n",
		t.Model.Config.Image, t.Model.Config.Tabular, len(ds.Y), time.Since(start).Seconds(), *out)
	for _, r := range t.Model.Reports {
		fmt.Fprintf(stdout, "  %s: %d epochs (best %d, validation loss %.4f), %.2f s/epoch\n", r.Stage, r.Epochs, r.BestEpoch, r.BestLoss, r.EpochSeconds)
	}
	return nil
}
