package data

import (
	"fmt"
	"strings"
	"testing"
)

func TestKeyedCSV(t *testing.T) {
	in := "a, b ,c\n1,x, 2.5\n2.0,y\nz,w,1\n"
	kc, err := NewKeyedCSV(strings.NewReader(in), "r.csv", "results file", "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		ok, err := kc.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		a, aerr := kc.Int("a")
		c, cerr := kc.Float("c", -1)
		if aerr != nil {
			got = append(got, aerr.Error())
			continue
		}
		if cerr != nil {
			t.Fatal(cerr)
		}
		got = append(got, fmt.Sprintf("%s|%d|%g", kc.Get("b"), a, c))
	}
	want := []string{"x|1|2.5", "y|2|-1", `r.csv:4: column a: expected an integer, found "z"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := NewKeyedCSV(strings.NewReader("a,c\n1,2\n"), "r.csv", "results file", "a", "b"); err == nil || !strings.Contains(err.Error(), `r.csv:1: not a results file (no "b" column)`) {
		t.Errorf("missing column: %v", err)
	}
	empty, err := NewKeyedCSV(strings.NewReader(""), "e.csv", "results file", "a")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := empty.Next(); ok || err != nil {
		t.Errorf("empty input: Next = %v, %v", ok, err)
	}
}
