package multimodal

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
)

// CSVOptions name the columns of a multimodal CSV file.
type CSVOptions struct {
	// ImageColumn holds each row's image: a path relative to the images
	// folder, or an id to which ".png" is appended when it has no
	// extension. Default: the first of image_file, image_id, image, file.
	ImageColumn string
	// Target is the label column (default dx, else label). Classes are the
	// sorted distinct labels (numeric order when all are integers).
	Target string
	// Group is the column whose rows must stay together in splits
	// (default lesion_id when present; else every row is its own group).
	Group string
	// Drop lists further columns that are not features. By default the
	// HAM10000 columns image_id, image_file, lesion_id, label, dx_type and
	// dataset (the last two leak the label) are dropped when present.
	Drop []string
	// Categorical forces columns to be categorical even if numeric.
	Categorical []string
	// NAValues are text values that mean missing on top of
	// data.DefaultMissing (see data.ReadOptions.NAValues).
	NAValues []string
	LoadOptions
}

var defaultDrop = []string{"image_id", "image_file", "lesion_id", "dx", "label", "dx_type", "dataset", "patient_id", "img_id", "image_path"}

// LoadCSV reads a CSV file (comma-separated, with a header row; plain or
// gzipped) with package data's reader, whose rows join to images in
// imagesDir, a label column and tabular feature columns. The feature
// columns are typed by package data's rule (Records.Table): numeric when
// every non-missing field is a number, a *data.ColumnError when most are
// (data.NumericLookingPercent) unless opt.Categorical or opt.NAValues
// cover the others, categorical otherwise; data.DefaultMissing and
// opt.NAValues mean missing.
func LoadCSV(path, imagesDir string, opt CSVOptions) (*Multimodal, error) {
	rec, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	head := rec.Header
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	pick := func(given, what string, cands ...string) (string, error) {
		if given != "" {
			if _, ok := col[given]; !ok {
				return "", fmt.Errorf("%s:1: no column %q (the %s column)", path, given, what)
			}
			return given, nil
		}
		for _, c := range cands {
			if _, ok := col[c]; ok {
				return c, nil
			}
		}
		if len(cands) == 0 {
			return "", nil
		}
		return "", fmt.Errorf("%s:1: no %s column (looked for %s; name it with a flag)", path, what, strings.Join(cands, ", "))
	}
	imgCol, err := pick(opt.ImageColumn, "image", "image_file", "image_id", "image", "file")
	if err != nil {
		return nil, err
	}
	target, err := pick(opt.Target, "target", "dx", "label")
	if err != nil {
		return nil, err
	}
	group := opt.Group
	if group != "" {
		if _, err := pick(group, "group"); err != nil {
			return nil, err
		}
	} else if _, ok := col["lesion_id"]; ok {
		group = "lesion_id"
	}
	skip := map[string]bool{imgCol: true, target: true, group: true}
	drops := opt.Drop
	if drops == nil {
		drops = defaultDrop
	}
	for _, d := range drops {
		skip[d] = true
	}
	var feats []string
	for _, h := range head {
		h = strings.TrimSpace(h)
		if !skip[h] {
			feats = append(feats, h)
		}
	}
	rows, lines := sample(rec, opt.Every, opt.MaxRows)
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no data rows", path)
	}
	m := &Multimodal{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), ImageDir: imagesDir, ImageColumn: imgCol, Target: target,
		NAValues: data.MergeNAValues(nil, opt.NAValues)}
	// Labels.
	labels := map[string]bool{}
	for i, rec := range rows {
		v := strings.TrimSpace(rec[col[target]])
		if v == "" {
			return nil, fmt.Errorf("%s:%d: column %s: empty label", path, lines[i], target)
		}
		labels[v] = true
	}
	for l := range labels {
		m.Classes = append(m.Classes, l)
	}
	sortLabels(m.Classes)
	code := map[string]int{}
	for i, l := range m.Classes {
		code[l] = i
	}
	var files []string
	for i, rec := range rows {
		m.Y = append(m.Y, float64(code[strings.TrimSpace(rec[col[target]])]))
		img := strings.TrimSpace(rec[col[imgCol]])
		if img == "" {
			return nil, fmt.Errorf("%s:%d: column %s: empty image reference", path, lines[i], imgCol)
		}
		m.IDs = append(m.IDs, img)
		files = append(files, ImagePath(imagesDir, img))
		if group != "" {
			m.Groups = append(m.Groups, strings.TrimSpace(rec[col[group]]))
		} else {
			m.Groups = append(m.Groups, "row"+strconv.Itoa(i))
		}
	}
	var forced []string
	for _, c := range opt.Categorical {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%s:1: --categorical names no column %q", path, c)
		}
		if slices.Contains(feats, c) {
			forced = append(forced, c)
		}
	}
	// Type the whole file (so errors name the file's column numbers),
	// the columns that are not features by the lenient rule, then keep
	// the features.
	var others []string
	for _, h := range head {
		if !slices.Contains(feats, strings.TrimSpace(h)) {
			others = append(others, h)
		}
	}
	all, err := (&data.Records{Source: path, Header: head, Rows: rows, Lines: lines}).Table(
		data.Schema{Categorical: forced, Lenient: others, Missing: missingMarkers(opt.NAValues)})
	if err != nil {
		return nil, err
	}
	m.Tab = &data.Table{}
	for _, name := range feats {
		c := all.Col(name)
		if c == nil {
			return nil, fmt.Errorf("%s:1: column %q not found after typing (repeated or blank-padded header name?)", path, name)
		}
		m.Tab.Columns = append(m.Tab.Columns, c)
	}
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

// sortLabels sorts numerically when every label is an integer, else as text.
func sortLabels(l []string) {
	allInt := true
	for _, s := range l {
		if _, err := strconv.Atoi(s); err != nil {
			allInt = false
		}
	}
	sort.Slice(l, func(i, j int) bool {
		if allInt {
			a, _ := strconv.Atoi(l[i])
			b, _ := strconv.Atoi(l[j])
			return a < b
		}
		return l[i] < l[j]
	})
}

// ImagePath resolves an image column value: a path relative to dir (with
// forward slashes), or an id to which ".png" is appended when it has no
// extension. Absolute paths are kept as they are.
func ImagePath(dir, ref string) string {
	if filepath.Ext(ref) == "" {
		ref += ".png"
	}
	ref = filepath.FromSlash(ref)
	if filepath.IsAbs(ref) {
		return ref
	}
	return filepath.Join(dir, ref)
}

// readCSV reads a comma-separated file with a header row (plain or
// gzipped) with package data's reader.
func readCSV(path string) (*data.Records, error) {
	rec, err := data.ReadCSVFile(path, data.CSVOptions{Delimiter: ',', Header: true, TrimSpace: true})
	if err != nil {
		return nil, err
	}
	if rec.Header == nil {
		return nil, fmt.Errorf("%s:1: no header row", path)
	}
	return rec, nil
}

// sample returns the data rows of rec with the file line each starts on,
// keeping every every-th one (every > 1) and at most maxRows (> 0).
func sample(rec *data.Records, every, maxRows int) (rows [][]string, lines []int) {
	for k, r := range rec.Rows {
		if every > 1 && k%every != 0 {
			continue
		}
		if maxRows > 0 && len(rows) >= maxRows {
			break
		}
		rows, lines = append(rows, r), append(lines, rec.Lines[k])
	}
	return rows, lines
}

// missingMarkers returns data.DefaultMissing with the extra markers.
func missingMarkers(extra []string) []string {
	return data.MergeNAValues(data.DefaultMissing, extra)
}
