package hpo

import (
	"strings"
	"testing"

	_ "github.com/gdt-ml/gdt/cart"
	_ "github.com/gdt-ml/gdt/forest"
	_ "github.com/gdt-ml/gdt/gradtree"
	_ "github.com/gdt-ml/gdt/grande"
)

// TestSpacesUseDeclaredOptions checks every search space against its
// kind's declaration: declared canonical keys, ranges inside the declared
// ranges, allowed choices and fixed values.
func TestSpacesUseDeclaredOptions(t *testing.T) {
	for _, name := range SpaceNames() {
		t.Run(name, func(t *testing.T) {
			if err := spaces[name].Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestSpaceCheckRejects shows that Check fails on undeclared keys, aliases,
// out-of-range bounds, bad choices and bad fixed values.
func TestSpaceCheckRejects(t *testing.T) {
	for _, tc := range []struct {
		name  string
		space Space
		want  string
	}{
		{"unknown key", Space{Kind: "grande", Params: []Param{{Name: "depht", Type: Int, Low: 1, High: 3}}}, `declares no option "depht"`},
		{"alias", Space{Kind: "cart", Params: []Param{{Name: "max_depth", Type: Int, Low: 1, High: 3}}}, `is spelled "depth"`},
		{"range", Space{Kind: "grande", Params: []Param{{Name: "depth", Type: Int, Low: 1, High: 20}}}, "depth=20: out of range: expected 1…16"},
		{"type", Space{Kind: "grande", Params: []Param{{Name: "depth", Type: Float, Low: 1, High: 3}}}, "declared int"},
		{"choice", Space{Kind: "grande", Params: []Param{cat("split", "softsign", "relu")}}, "split=relu: expected one of"},
		{"fixed", Space{Kind: "gradtree", Fixed: map[string]string{"restarts": "-1"}}, "restarts=-1: out of range"},
		{"rl", Space{Kind: "sympol", Params: []Param{{Name: "gamma", Type: Float, Low: 0.5, High: 1.5}}}, "gamma=1.5: out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.space.Name = tc.name
			err := tc.space.Check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestThesisBestDeclared checks that the thesis's best configurations
// (spec §8.1, §8.2) are valid options of their kinds.
func TestThesisBestDeclared(t *testing.T) {
	for _, kind := range []string{"gradtree", "grande"} {
		decl, err := Declared(kind)
		if err != nil {
			t.Fatal(err)
		}
		best := ThesisBest(kind)
		if len(best) == 0 {
			t.Fatalf("%s: no configurations", kind)
		}
		for ds, opts := range best {
			if err := decl.Check(opts); err != nil {
				t.Errorf("%s on %s: %v", kind, ds, err)
			}
		}
	}
}
