package multimodal

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
)

// HAM10000Dir is the folder of the HAM10000 data below the shared data root.
const HAM10000Dir = "multimodal/ham10000"

// HAM10000Classes are the diagnoses in label order (the CSV's label column
// codes dx alphabetically).
var HAM10000Classes = []string{"akiec", "bcc", "bkl", "df", "mel", "nv", "vasc"}

// Multimodal is a data set of images joined to tabular rows: row i of Tab,
// image i of Images, label Y[i] and group key Groups[i] (rows of one group,
// e.g. one lesion, must never be split across training and test).
type Multimodal struct {
	Name     string
	IDs      []string // image ids
	Groups   []string // group keys (HAM10000: lesion_id)
	Y        []float64
	Classes  []string
	Tab      *data.Table
	Images   *ImageSet
	ImageDir string
	// ImageColumn and Target name the CSV columns the images and labels
	// came from ("" when unknown); a trained model records them so that
	// prediction reads new files the same way.
	ImageColumn string
	Target      string
	// NAValues are the extra missing markers the CSV was read with
	// (CSVOptions.NAValues); a trained model records them too.
	NAValues []string
}

// Dataset returns the tabular part as a data.Dataset (shared columns).
func (m *Multimodal) Dataset() *data.Dataset {
	return &data.Dataset{Name: m.Name, Task: data.Multiclass, X: m.Tab, Y: m.Y, Classes: m.Classes}
}

// LoadOptions configure LoadHAM10000.
type LoadOptions struct {
	// Workers decode images in parallel (0: GOMAXPROCS).
	Workers int
	// MaxRows, if > 0, keeps only the first MaxRows rows of the CSV (for
	// tests and smoke runs; the file is sorted by class, so prefer Every).
	MaxRows int
	// Every, if > 1, keeps every Every-th row (a class-spanning subsample).
	Every int
	// Size is the side of the square images (0: 64, the files' size;
	// others are resized bilinearly).
	Size int
	// NoImages skips decoding (tabular use only).
	NoImages bool
}

// LoadHAM10000 reads dir/ham10000.csv and the PNGs it names. The tabular
// features are age (numeric, missing allowed), sex and localization
// (categorical; "unknown" is a level of its own, as in the file). The
// columns dx_type and dataset leak the label and are not loaded as
// features; lesion_id is the group key.
func LoadHAM10000(dir string, opt LoadOptions) (*Multimodal, error) {
	path := filepath.Join(dir, "ham10000.csv")
	rec, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	head := rec.Header
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"image_id", "image_file", "lesion_id", "label", "age", "sex", "localization"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%s:1: no column %q (expected image_id,image_file,lesion_id,dx,label,dx_type,age,sex,localization,dataset)", path, need)
		}
	}
	m := &Multimodal{Name: "ham10000", Classes: HAM10000Classes, ImageDir: dir, ImageColumn: "image_file", Target: "dx"}
	var ages []float64
	var sex, loc []string
	var files []string
	recs, lines := sample(rec, opt.Every, opt.MaxRows)
	for i, rec := range recs {
		line := lines[i]
		get := func(k string) string { return strings.TrimSpace(rec[col[k]]) }
		lab, err := strconv.Atoi(get("label"))
		if err != nil || lab < 0 || lab >= len(HAM10000Classes) {
			return nil, fmt.Errorf("%s:%d: column label: expected an integer 0…%d, found %q", path, line, len(HAM10000Classes)-1, get("label"))
		}
		age := math.NaN()
		if s := get("age"); s != "" {
			if age, err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("%s:%d: column age: expected a number or empty, found %q", path, line, s)
			}
		}
		m.IDs = append(m.IDs, get("image_id"))
		m.Groups = append(m.Groups, get("lesion_id"))
		m.Y = append(m.Y, float64(lab))
		ages = append(ages, age)
		sex = append(sex, get("sex"))
		loc = append(loc, get("localization"))
		file := get("image_file")
		if file == "" {
			return nil, fmt.Errorf("%s:%d: column image_file is empty", path, line)
		}
		files = append(files, filepath.Join(dir, filepath.FromSlash(file)))
	}
	if len(m.Y) == 0 {
		return nil, fmt.Errorf("%s: no data rows", path)
	}
	m.Tab = &data.Table{Columns: []*data.Column{
		data.NewNumeric("age", ages),
		data.NewCategorical("sex", sex),
		data.NewCategorical("localization", loc),
	}}
	if !opt.NoImages {
		size := opt.Size
		if size <= 0 {
			size = 64
		}
		if m.Images, err = DecodeImages(files, size, size, opt.Workers); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Subset returns the rows idx (tables and images copied).
func (m *Multimodal) Subset(idx []int) *Multimodal {
	out := &Multimodal{Name: m.Name, Classes: m.Classes, ImageDir: m.ImageDir, Tab: m.Tab.Subset(idx), ImageColumn: m.ImageColumn, Target: m.Target}
	for _, i := range idx {
		out.IDs = append(out.IDs, m.IDs[i])
		out.Groups = append(out.Groups, m.Groups[i])
		out.Y = append(out.Y, m.Y[i])
	}
	if m.Images != nil {
		size := m.Images.Shape.Size()
		out.Images = &ImageSet{N: len(idx), Shape: m.Images.Shape, Pix: make([]uint8, len(idx)*size)}
		for j, i := range idx {
			copy(out.Images.Pix[j*size:], m.Images.Image(i))
		}
	}
	return out
}
