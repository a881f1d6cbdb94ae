package main

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

	"github.com/gdt-ml/gdt/multimodal"
)

func TestTrainMultimodalCLI(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "images"), 0o755)
	var b strings.Builder
	b.WriteString("image_id,image_file,lesion_id,dx,label,dx_type,age,sex,localization,dataset\n")
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
		f, _ := os.Create(filepath.Join(dir, "images", id+".png"))
		png.Encode(f, img)
		f.Close()
		b.WriteString(id + ",images/" + id + ".png,HAM_" + strconv.Itoa(i/2) + ",d" + strconv.Itoa(c) + "," + strconv.Itoa(c) +
			",histo," + strconv.Itoa(30+i) + ".0,male,back,x\n")
	}
	csvPath := filepath.Join(dir, "meta.csv")
	os.WriteFile(csvPath, []byte(b.String()), 0o644)
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
