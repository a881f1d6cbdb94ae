package report_test

import (
	"fmt"
	"log"

	"github.com/gdt-ml/gdt/data"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/report"
)

// Writing the report of a saved model on a test file, explaining rows 0
// and 5.
func Example() {
	t, err := model.Load("model.json")
	if err != nil {
		log.Fatal(err)
	}
	s := t.Schema()
	s.Categorical = append(s.Categorical, t.Target) // class labels as text
	tab, err := data.ReadFile("test.csv", data.ReadOptions{Schema: s})
	if err != nil {
		log.Fatal(err)
	}
	y, err := report.Targets(t, tab)
	if err != nil {
		log.Fatal(err)
	}
	path, err := report.Write("report", t, tab, y, report.Config{Rows: []int{0, 5}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("wrote", path)
}
