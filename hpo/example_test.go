package hpo_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gdt-ml/gdt/hpo"
)

// Example searches a two-dimensional space at random, storing the study in a
// journal file that other processes could join.
func Example() {
	dir, _ := os.MkdirTemp("", "hpo-example")
	defer os.RemoveAll(dir)
	store, err := hpo.OpenStore(filepath.Join(dir, "studies.jsonl"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	space := &hpo.Space{Name: "demo", Kind: "demo", Params: []hpo.Param{
		{Name: "x", Type: hpo.Float, Low: -3, High: 3},
		{Name: "depth", Type: hpo.Int, Low: 1, High: 8},
	}}
	study, err := hpo.NewStudy(store, "demo", space, map[string]string{hpo.AttrTrials: "20"}, hpo.Config{Seed: 1, Pruner: "none", Sampler: "random"})
	if err != nil {
		fmt.Println(err)
		return
	}
	objective := func(ctx context.Context, opts map[string]string, report func(int, float64) error) (float64, error) {
		x, _ := strconv.ParseFloat(opts["x"], 64)
		d, _ := strconv.Atoi(opts["depth"])
		return -(x-1)*(x-1) - float64((d-4)*(d-4)), nil
	}
	if err := study.Work(context.Background(), study.Budget(), objective); err != nil {
		fmt.Println(err)
		return
	}
	c, _ := study.Counts()
	best, _ := study.Best()
	fmt.Println("complete trials:", c.Complete)
	fmt.Printf("best trial %d: depth %s, x %.2f\n", best.Number, best.Options["depth"], best.Params["x"])
	// Output:
	// complete trials: 20
	// best trial 1: depth 4, x 0.99
}
