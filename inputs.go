package gdt

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gdt-ml/gdt/data"
)

// TableOf returns plain numeric rows as a data.Table of numeric columns.
// names gives the column names; nil names them x0, x1, … NaN marks a
// missing value. Every row must have one value per column.
func TableOf(X [][]float64, names []string) (*data.Table, error) {
	if len(X) == 0 {
		return nil, errors.New("gdt: no rows")
	}
	cols := len(X[0])
	if names == nil {
		names = make([]string, cols)
		for j := range names {
			names[j] = "x" + strconv.Itoa(j)
		}
	}
	if len(names) != cols {
		return nil, fmt.Errorf("gdt: row 0 has %d values but %d column names are given", cols, len(names))
	}
	if cols == 0 {
		return nil, errors.New("gdt: rows have no columns")
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return nil, fmt.Errorf("gdt: column name %q is given twice", n)
		}
		seen[n] = true
	}
	flat := make([]float64, len(X)*cols)
	for i, r := range X {
		if len(r) != cols {
			return nil, fmt.Errorf("gdt: row %d has %d values, expected %d (as row 0)", i, len(r), cols)
		}
		for j, v := range r {
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("gdt: row %d, column %q is %v: values must be finite (NaN = missing)", i, names[j], v)
			}
			flat[j*len(X)+i] = v
		}
	}
	t := &data.Table{Columns: make([]*data.Column, cols)}
	for j := range t.Columns {
		t.Columns[j] = data.NewNumeric(names[j], flat[j*len(X):(j+1)*len(X):(j+1)*len(X)])
	}
	return t, nil
}

// NewDataset pairs a feature table with labels y: class indices 0..C−1
// for Binary and Multiclass (the classes are named "0", "1", …) or values
// for Regression.
func NewDataset(X *data.Table, y []float64, task data.Task) (*data.Dataset, error) {
	if X == nil {
		return nil, errors.New("gdt: the feature table is nil")
	}
	if X.NumRows() != len(y) {
		return nil, fmt.Errorf("gdt: %d feature rows but %d labels", X.NumRows(), len(y))
	}
	if task > data.Regression {
		return nil, fmt.Errorf("gdt: unknown task %d", task)
	}
	if err := checkLabels(y, task, 0); err != nil {
		return nil, err
	}
	ds := &data.Dataset{Name: "data", Task: task, X: X, Y: y}
	if task != data.Regression {
		c := 0
		for _, v := range y {
			c = max(c, int(v)+1)
		}
		if task == data.Binary {
			c = 2
		}
		if c < 2 {
			return nil, fmt.Errorf("gdt: the labels hold only class 0; %s needs at least two classes", task)
		}
		for k := 0; k < c; k++ {
			ds.Classes = append(ds.Classes, strconv.Itoa(k))
		}
	}
	return ds, nil
}

// NewClassification pairs a feature table with text class labels. The
// classes are sorted (numerically when every label is a number, else
// lexicographically), as `gdt train` orders them; two classes make a
// Binary task, more a Multiclass one.
func NewClassification(X *data.Table, labels []string) (*data.Dataset, error) {
	if X == nil {
		return nil, errors.New("gdt: the feature table is nil")
	}
	if X.NumRows() != len(labels) {
		return nil, fmt.Errorf("gdt: %d feature rows but %d labels", X.NumRows(), len(labels))
	}
	set := map[string]bool{}
	for _, l := range labels {
		set[l] = true
	}
	classes := make([]string, 0, len(set))
	for l := range set {
		classes = append(classes, l)
	}
	numeric := true
	num := make(map[string]float64, len(classes))
	for _, c := range classes {
		v, ok := data.ParseFloat(c)
		if !ok || math.IsNaN(v) {
			numeric = false
			break
		}
		num[c] = v
	}
	sort.Slice(classes, func(a, b int) bool {
		if numeric && num[classes[a]] != num[classes[b]] {
			return num[classes[a]] < num[classes[b]]
		}
		return classes[a] < classes[b]
	})
	if len(classes) < 2 {
		return nil, fmt.Errorf("gdt: the labels hold one class (%s); classification needs at least two", strings.Join(classes, ", "))
	}
	index := make(map[string]int, len(classes))
	for k, c := range classes {
		index[c] = k
	}
	y := make([]float64, len(labels))
	for i, l := range labels {
		y[i] = float64(index[l])
	}
	task := data.Multiclass
	if len(classes) == 2 {
		task = data.Binary
	}
	return &data.Dataset{Name: "data", Task: task, X: X, Y: y, Classes: classes}, nil
}
