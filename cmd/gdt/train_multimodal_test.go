package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/multimodal"
)

// multimodalData writes a small image data set (8×8 PNGs, two classes)
// and its metadata CSV (target column dx) for the multimodal CLI tests.
func multimodalData(t *testing.T, dir string) string {
	os.MkdirAll(filepath.Join(dir, "images"), 0o755)
	var b strings.Builder
	b.WriteString("image_id,image_file,lesion_id,dx,age,sex,localization\n")
	for i := 0; i < 30; i++ {
		c := i % 2
		img := image.NewRGBA(image.Rect(0, 0, 8, 8))
		for p := 0; p < 64; p++ {
			v := uint8(50)
			if c == 1 && p%8 > 2 && p/8 > 2 {
				v = 230
			}
			img.Set(p%8, p/8, color.RGBA{v, 60, 60, 255})
		}
		id := "ISIC_" + strconv.Itoa(i)
		f, err := os.Create(filepath.Join(dir, "images", id+".png"))
		if err != nil {
			t.Fatal(err)
		}
		png.Encode(f, img)
		f.Close()
		fmt.Fprintf(&b, "%s,images/%s.png,HAM_%d,d%d,%d.0,%s,back\n", id, id, i/2, c, 30+i, []string{"male", "female"}[i%2])
	}
	p := filepath.Join(dir, "meta.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTrainMultimodalCLI(t *testing.T) {
	dir := t.TempDir()
	csvPath := multimodalData(t, dir)
	out := filepath.Join(dir, "m.json")
	args := []string{"--model", "multimodal", "--data", csvPath, "--out", out, "--size", "8", "--valid", "0.25", "--quiet",
		"--set", "channels=4,8", "--set", "trees=8", "--set", "depth=3", "--set", "pretrain_epochs=2", "--set", "epochs=2"}
	if !isMultimodalTrain(args) || isMultimodalTrain([]string{"--model", "cart"}) {
		t.Fatal("isMultimodalTrain")
	}
	var stdout, stderr bytes.Buffer
	if err := runTrainMultimodal(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "trained multimodal") {
		t.Errorf("stdout: %s", stdout.String())
	}
	m, err := multimodal.LoadTrained(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Classes) != 2 || !m.Model.Config.Image || m.Model.Config.Tabular != "grande" {
		t.Errorf("model: classes %v config %+v", m.Classes, m.Model.Config)
	}
	if err := runTrainMultimodal(context.Background(), []string{"--model", "multimodal", "--data", csvPath}, &stdout, &stderr); err == nil {
		t.Error("missing --out accepted")
	}
}
