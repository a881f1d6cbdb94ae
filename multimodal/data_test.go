package multimodal

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdt-ml/gdt/datasets"
)

func TestStratifiedGroupKFoldSklearn(t *testing.T) {
	// Reference: sklearn 1.2.1
	// StratifiedGroupKFold(3).split(np.zeros(24), y, g) (shuffle=False).
	y := []float64{0, 0, 1, 1, 2, 2, 0, 1, 2, 0, 0, 1, 1, 1, 2, 0, 0, 2, 1, 0, 2, 2, 1, 0}
	g := strings.Split("a a b c c d e f f g h h i j k l l m n o p q r s", " ")
	want := [][]int{{0, 1, 3, 4, 10, 11, 18, 20}, {7, 8, 12, 14, 15, 16, 19, 22}, {2, 5, 6, 9, 13, 17, 21, 23}}
	got, err := StratifiedGroupKFold(y, g, 3, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("folds = %v, want %v", got, want)
	}
}

func TestStratifiedGroupKFoldProperties(t *testing.T) {
	n := 600
	y := make([]float64, n)
	g := make([]string, n)
	for i := range y {
		y[i] = float64((i * 7 % 13) % 4)
		g[i] = string(rune('A'+i%26)) + string(rune('a'+(i/26)%26)) // ~1-2 rows per group
		if i%5 == 0 && i > 0 {
			g[i] = g[i-1] // some multi-row groups
			y[i] = y[i-1]
		}
	}
	for _, shuffle := range []bool{false, true} {
		a, err := StratifiedGroupKFold(y, g, 5, shuffle, 42)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := StratifiedGroupKFold(y, g, 5, shuffle, 42)
		if !reflect.DeepEqual(a, b) {
			t.Fatal("not deterministic")
		}
		foldOf := map[string]int{}
		seen := make([]bool, n)
		for f, idx := range a {
			counts := make([]int, 4)
			for _, i := range idx {
				if seen[i] {
					t.Fatalf("row %d in two folds", i)
				}
				seen[i] = true
				if prev, ok := foldOf[g[i]]; ok && prev != f {
					t.Fatalf("group %s spans folds %d and %d", g[i], prev, f)
				}
				foldOf[g[i]] = f
				counts[int(y[i])]++
			}
			for c, k := range counts {
				if k < 20 || k > 40 { // ≈ 150/5 = 30 per class and fold
					t.Errorf("shuffle %v fold %d class %d: %d rows, expected about 30", shuffle, f, c, k)
				}
			}
		}
		for i, s := range seen {
			if !s {
				t.Fatalf("row %d in no fold", i)
			}
		}
	}
	c, _ := StratifiedGroupKFold(y, g, 5, true, 43)
	a, _ := StratifiedGroupKFold(y, g, 5, true, 42)
	if reflect.DeepEqual(a, c) {
		t.Error("seeds 42 and 43 gave the same folds")
	}
}

func TestStratifiedGroupKFoldErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		y    []float64
		g    []string
		k    int
		want string
	}{
		{"length", []float64{0, 1}, []string{"a"}, 2, "2 labels but 1 group"},
		{"k", []float64{0, 1}, []string{"a", "b"}, 1, "k = 1"},
		{"label", []float64{0, 1.5}, []string{"a", "b"}, 2, "row 1: label 1.5"},
		{"groups", []float64{0, 1, 0}, []string{"a", "a", "b"}, 3, "2 groups cannot fill 3"},
	} {
		_, err := StratifiedGroupKFold(tc.y, tc.g, tc.k, false, 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// writeSynthetic writes n tiny PNGs and a HAM10000-style CSV into dir:
// class c images are bright in channel c%3, the tabular age encodes the class.
func writeSynthetic(t testing.TB, dir string, n, size int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "images"), 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("image_id,image_file,lesion_id,dx,label,dx_type,age,sex,localization,dataset\n")
	sexes := []string{"male", "female", "unknown"}
	locs := []string{"back", "face", "trunk", "scalp"}
	for i := 0; i < n; i++ {
		c := (i * 5 % 11) % 3
		id := "ISIC_" + itoa(i)
		img := image.NewRGBA(image.Rect(0, 0, size, size))
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				v := [3]uint8{uint8(40 + (x*7+y*3+i)%30), uint8(40 + (x*5+i)%30), uint8(40 + (y*11)%30)}
				if (x-size/2)*(x-size/2)+(y-size/2)*(y-size/2) < size*size/8 {
					v[c] = 200
				}
				img.Set(x, y, color.RGBA{v[0], v[1], v[2], 255})
			}
		}
		f, err := os.Create(filepath.Join(dir, "images", id+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		f.Close()
		age := itoa(20+c*20+i%7) + ".0"
		if i%17 == 3 {
			age = ""
		}
		b.WriteString(id + ",images/" + id + ".png,HAM_" + itoa(i/2) + "," + HAM10000Classes[c] + "," + itoa(c) +
			",histo," + age + "," + sexes[i%3] + "," + locs[(i+c)%4] + ",rosendahl\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "ham10000.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

func TestLoadSynthetic(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 30, 8)
	m, err := LoadHAM10000(dir, LoadOptions{Workers: 3, Size: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Y) != 30 || m.Images.N != 30 || m.Tab.NumRows() != 30 {
		t.Fatalf("rows %d images %d table %d", len(m.Y), m.Images.N, m.Tab.NumRows())
	}
	if got := m.Tab.Names(); !reflect.DeepEqual(got, []string{"age", "sex", "localization"}) {
		t.Errorf("features %v", got)
	}
	if !m.Tab.Col("age").IsMissing(3) {
		t.Error("empty age not missing")
	}
	// Image 0 is class 0: its centre is bright in channel 0.
	img := m.Images.Image(0)
	if img[4*8+4] != 200 {
		t.Errorf("centre pixel channel 0 = %d, want 200", img[4*8+4])
	}
	one, _ := LoadHAM10000(dir, LoadOptions{Workers: 1, Size: 8})
	if !reflect.DeepEqual(one.Images.Pix, m.Images.Pix) {
		t.Error("decoding depends on the number of workers")
	}
	// Resizing to 4×4 works.
	small, err := LoadHAM10000(dir, LoadOptions{Size: 4, Every: 3})
	if err != nil || small.Images.Shape.H != 4 || len(small.Y) != 10 {
		t.Fatalf("resize/every: %v %+v", err, small)
	}
	// Errors name the file and line.
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "ham10000.csv"), []byte("image_id,image_file,lesion_id,dx,label,dx_type,age,sex,localization,dataset\nI,images/I.png,H,nv,9,histo,1,male,back,x\n"), 0o644)
	if _, err := LoadHAM10000(bad, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "ham10000.csv:2: column label") {
		t.Errorf("bad label: %v", err)
	}
	os.WriteFile(filepath.Join(bad, "ham10000.csv"), []byte("image_id,image_file,lesion_id,dx,label,dx_type,age,sex,localization,dataset\nI,images/I.png,H,nv,5,histo,1,male,back,x\n"), 0o644)
	if _, err := LoadHAM10000(bad, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "I.png") {
		t.Errorf("missing image: %v", err)
	}
}

func TestAugmentDeterministic(t *testing.T) {
	dir := t.TempDir()
	writeSynthetic(t, dir, 12, 8)
	m, err := LoadHAM10000(dir, LoadOptions{Size: 8})
	if err != nil {
		t.Fatal(err)
	}
	mean, std := m.Images.ChannelStats(nil)
	rows := []int{0, 3, 5, 7, 11}
	fill := func(workers int, aug Augment, augment bool) []float32 {
		b := &Batcher{Images: m.Images, Mean: mean, Std: std, Aug: aug, Seed: 9, Workers: workers}
		x := make([]float32, len(rows)*b.RowWidth())
		b.Fill(x, rows, augment, 2, 0)
		return x
	}
	plain := fill(1, DefaultAugment(), false)
	a1, a3 := fill(1, DefaultAugment(), true), fill(3, DefaultAugment(), true)
	if !reflect.DeepEqual(a1, a3) {
		t.Error("augmentation depends on the number of workers")
	}
	if reflect.DeepEqual(a1, plain) {
		t.Error("augmentation changed nothing")
	}
	// Zero augmentation through the sampling path equals plain normalisation.
	id := fill(2, Augment{}, true)
	if !reflect.DeepEqual(id, plain) {
		t.Error("inactive augmentation differs from plain normalisation")
	}
	// A pure horizontal flip (symmetry 1) through augment() mirrors columns.
	st := splitmix64(0)
	for {
		s := st
		if s.next()%8 == 1 {
			break
		}
		st.next()
	}
	out := make([]float32, 3*64)
	Augment{Flip: true}.augment(m.Images.Image(0), 3, 8, 8, mean, std, &st, out)
	ref := make([]float32, 3*64)
	normalise(m.Images.Image(0), 3, 64, mean, std, ref)
	for c := 0; c < 3; c++ {
		for y := 0; y < 8; y++ {
			for x := 0; x < 8; x++ {
				if out[c*64+y*8+x] != ref[c*64+y*8+7-x] {
					t.Fatalf("flip: channel %d (%d,%d) = %v, want %v", c, y, x, out[c*64+y*8+x], ref[c*64+y*8+7-x])
				}
			}
		}
	}
	// Stream delivers the same batches as Fill, in order.
	b := &Batcher{Images: m.Images, Mean: mean, Std: std, Aug: DefaultAugment(), Seed: 9, Workers: 2}
	batches := [][]int{{0, 3}, {5, 7, 11}}
	ch, release := b.Stream(batches, true, 2, 1, nil)
	var got []float32
	for bt := range ch {
		got = append(got, bt.X...)
		release(bt)
	}
	if !reflect.DeepEqual(got, a1) {
		t.Error("Stream differs from Fill")
	}
}

// dataRoot returns the shared data folder or skips.
func dataRoot(t testing.TB) string {
	root, err := datasets.Root("")
	if err != nil {
		t.Skipf("shared data not found (%v); set GDT_DATA", err)
	}
	if _, err := os.Stat(filepath.Join(root, HAM10000Dir, "ham10000.csv")); err != nil {
		t.Skipf("HAM10000 not found under %s", root)
	}
	return root
}

func TestHAM10000Real(t *testing.T) {
	root := dataRoot(t)
	m, err := LoadHAM10000(filepath.Join(root, HAM10000Dir), LoadOptions{NoImages: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Y) != 10015 {
		t.Fatalf("%d rows, want 10015", len(m.Y))
	}
	missing := 0
	for i := range m.Y {
		if m.Tab.Col("age").IsMissing(i) {
			missing++
		}
	}
	if missing != 57 {
		t.Errorf("%d missing ages, want 57", missing)
	}
	if n := len(m.Tab.Col("localization").Levels); n != 15 {
		t.Errorf("%d localization levels, want 15", n)
	}
	folds, err := StratifiedGroupKFold(m.Y, m.Groups, 5, true, 42)
	if err != nil {
		t.Fatal(err)
	}
	fold := map[string]int{}
	for f, idx := range folds {
		counts := make([]int, 7)
		for _, i := range idx {
			if p, ok := fold[m.Groups[i]]; ok && p != f {
				t.Fatalf("lesion %s in folds %d and %d", m.Groups[i], p, f)
			}
			fold[m.Groups[i]] = f
			counts[int(m.Y[i])]++
		}
		t.Logf("fold %d: %d rows, per class %v", f, len(idx), counts)
	}
}

// TestLoadCSVErrorLineWithEvery checks that an error in a row kept by the
// Every subsample names that row's file line (not its index among the
// kept rows).
func TestLoadCSVErrorLineWithEvery(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.csv")
	text := "image_file,age,dx\n" + // line 1
		"a.png,1,x\n" + // line 2, kept
		"b.png,2,y\n" + // line 3
		"c.png,3,\n" + // line 4, kept: empty label
		"d.png,4,x\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadCSV(p, dir, CSVOptions{LoadOptions: LoadOptions{Every: 2, NoImages: true}})
	if err == nil || !strings.Contains(err.Error(), "m.csv:4: column dx: empty label") {
		t.Fatalf("error %v, want one naming m.csv:4", err)
	}
}
