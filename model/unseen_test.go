package model

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/modelfile"
)

func TestKnownLevelsCount(t *testing.T) {
	k := NewKnownLevels([]modelfile.Column{
		{Name: "age", Kind: "numeric"},
		{Name: "color", Kind: "categorical", Levels: []string{"red", "blue"}},
		{Name: "size", Kind: "categorical", Levels: []string{"S", "M"}},
	})
	cat := func(name string, vals ...string) *data.Column { return data.NewCategorical(name, vals, "") }
	many := make([]string, 12)
	for i := range many {
		many[i] = fmt.Sprint("c", i%11)
	}
	tests := []struct {
		name string
		x    *data.Table
		want Unseen
	}{
		{"all seen, missing not counted", &data.Table{Columns: []*data.Column{cat("color", "red", "", "blue"), cat("size", "S", "M", "")}}, nil},
		{"two columns", &data.Table{Columns: []*data.Column{cat("size", "XL", "M", "XL"), cat("color", "green", "red", "")}},
			Unseen{{Column: "color", Rows: 1, Levels: []LevelRows{{"green", 1}}}, {Column: "size", Rows: 2, Levels: []LevelRows{{"XL", 2}}}}},
		{"numeric input and absent columns skipped", &data.Table{Columns: []*data.Column{cat("age", "old"), cat("other", "x")}}, nil},
		{"more than ten levels", &data.Table{Columns: []*data.Column{cat("color", many...)}},
			Unseen{{Column: "color", Rows: 12, More: true, Levels: []LevelRows{{"c0", 2}, {"c1", 1}, {"c2", 1}, {"c3", 1}, {"c4", 1}, {"c5", 1}, {"c6", 1}, {"c7", 1}, {"c8", 1}, {"c9", 1}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := k.Count(tt.x); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Count = %+v, want %+v", got, tt.want)
			}
		})
	}
	// Chunk by chunk, the counts add up to those of the whole.
	var u Unseen
	u.Add(k.Count(&data.Table{Columns: []*data.Column{cat("color", "green", "red")}}))
	u.Add(k.Count(&data.Table{Columns: []*data.Column{cat("size", "XL"), cat("color", "pink", "green")}}))
	want := Unseen{{Column: "color", Rows: 3, Levels: []LevelRows{{"green", 2}, {"pink", 1}}}, {Column: "size", Rows: 1, Levels: []LevelRows{{"XL", 1}}}}
	if !reflect.DeepEqual(u, want) || u.Rows() != 4 {
		t.Errorf("added %+v (%d rows), want %+v", u, u.Rows(), want)
	}
	if s := u.String(); s != `"color": 3 rows ("green" 2, "pink" 1); "size": 1 row ("XL" 1)` {
		t.Errorf("String = %s", s)
	}
}
