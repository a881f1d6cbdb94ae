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

// ExampleRLObjective tunes SYMPOL on CartPole: each trial trains one
// policy (seed 142) for 3000 steps and scores its final validation return.
func ExampleRLObjective() {
	dir, _ := os.MkdirTemp("", "hpo-rl-example")
	defer os.RemoveAll(dir)
	store, err := hpo.OpenStore(filepath.Join(dir, "studies.jsonl"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()
	setup := hpo.RLSetup{Env: "CartPole-v1", Method: "sympol", Seeds: 1, Steps: 3000}
	space, _ := hpo.LookupSpace("sympol")
	space = space.Without(map[string]string{"eval_freq": "1000"})
	study, err := hpo.NewStudy(store, "sympol:CartPole-v1", space, hpo.RLAttrs(setup, 2), hpo.Config{Sampler: "random", Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	obj, err := hpo.RLObjective(setup)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := study.Work(context.Background(), study.Budget(), obj); err != nil {
		fmt.Println(err)
		return
	}
	best, _ := study.Best()
	fmt.Println("best n_envs, gamma:", best.Options["n_envs"], best.Options["gamma"])
}
