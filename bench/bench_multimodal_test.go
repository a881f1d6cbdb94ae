package bench

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/multimodal"
)

// writeTinyHAM writes a HAM10000-shaped folder of n 8×8 images under root.
func writeTinyHAM(t *testing.T, root string, n int) {
	dir := filepath.Join(root, multimodal.HAM10000Dir)
	if err := os.MkdirAll(filepath.Join(dir, "images"), 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("image_id,image_file,lesion_id,dx,label,dx_type,age,sex,localization,dataset\n")
	for i := 0; i < n; i++ {
		c := i % 3
		img := image.NewRGBA(image.Rect(0, 0, 8, 8))
		for p := 0; p < 64; p++ {
			v := [3]uint8{60, 60, 60}
			if p%8 > 1 && p%8 < 6 && p/8 > 1 && p/8 < 6 {
				v[c] = 220
			}
			img.Set(p%8, p/8, color.RGBA{v[0], v[1], v[2], 255})
		}
		id := "ISIC_" + strconv.Itoa(i)
		f, err := os.Create(filepath.Join(dir, "images", id+".png"))
		if err != nil {
			t.Fatal(err)
		}
		png.Encode(f, img)
		f.Close()
		b.WriteString(id + ",images/" + id + ".png,HAM_" + strconv.Itoa(i/2) + "," + multimodal.HAM10000Classes[c] + "," +
			strconv.Itoa(c) + ",histo," + strconv.Itoa(30+10*c) + ".0,male,back,x\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "ham10000.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMultimodalSuite(t *testing.T) {
	root := t.TempDir()
	writeTinyHAM(t, root, 60)
	MultimodalOptions = map[string]string{"channels": "4,8", "image_embed": "8", "trees": "8", "depth": "3", "tree_embed": "4",
		"pretrain_epochs": "20", "pretrain_patience": "20", "epochs": "20", "batch_size": "16", "lr": "0.01"}
	defer func() { MultimodalOptions = nil }()
	suite, err := LookupSuite(SuiteMultimodal)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := suite.Load(root, "ham10000")
	if err != nil {
		t.Fatal(err)
	}
	folds, err := suite.Protocol.Folds(ds, 0)
	if err != nil || len(folds) != 5 {
		t.Fatalf("folds: %v %d", err, len(folds))
	}
	m := mmByData[ds]
	for _, f := range folds {
		side := map[string]string{}
		for name, idx := range map[string][]int{"train": f.Train, "valid": f.Valid, "test": f.Test} {
			for _, i := range idx {
				if s, ok := side[m.Groups[i]]; ok && s != name {
					t.Fatalf("fold %d: lesion %s in %s and %s", f.Trial, m.Groups[i], s, name)
				}
				side[m.Groups[i]] = name
			}
		}
		if len(f.Train)+len(f.Valid)+len(f.Test) != 60 || len(f.Valid) == 0 {
			t.Fatalf("fold %d sizes %d/%d/%d", f.Trial, len(f.Train), len(f.Valid), len(f.Test))
		}
	}
	rs, err := Run(context.Background(), Options{Def: suite, Models: []string{"mlp", "cnn", "cnn+mlp", "cnn+grande"}, Trials: 1, Root: root, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 {
		t.Fatalf("%d results", len(rs))
	}
	for _, r := range rs {
		if r.Err != "" {
			t.Errorf("%s: %s", r.Model, r.Err)
		}
		if r.Model != "mlp" && r.BalancedAccuracy < 0.5 {
			t.Errorf("%s: balanced accuracy %.3f on an easy image task", r.Model, r.BalancedAccuracy)
		}
	}
	var csv, md bytes.Buffer
	if err := WriteCSV(&csv, rs); err != nil || !strings.Contains(strings.SplitN(csv.String(), "\n", 2)[0], "balanced_accuracy") {
		t.Errorf("CSV header: %v %q", err, strings.SplitN(csv.String(), "\n", 2)[0])
	}
	if err := WriteMetricsTable(&md, SuiteMultimodal, []string{"mlp", "cnn", "cnn+mlp", "cnn+grande"}, rs); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + md.String())
	if !strings.Contains(md.String(), "| cnn+grande |") || !strings.Contains(md.String(), "thesis ConvNeXt+GRANDE") {
		t.Errorf("table:\n%s", md.String())
	}
	// Image models refuse rows without images.
	l := &imageLearner{name: "cnn"}
	if err := l.Fit(context.Background(), Problem{NumClasses: 3}, &Data{X: folds0Matrix()}, &Data{X: folds0Matrix()}); err == nil || !strings.Contains(err.Error(), "need the multimodal suite") {
		t.Errorf("no images: %v", err)
	}
}

func folds0Matrix() *data.Matrix { return data.NewMatrix(2, 2) }
