package main

import (
	"sort"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/hpo"
)

// loadTuned reads the configurations for `gdt bench --tuned PATH`: a file or
// directory written by `gdt tune`, or "thesis" for the thesis's published
// best configuration of every dataset for each of models (spec §8.1–8.2).
func loadTuned(path string, models []string) ([]bench.Tuned, error) {
	if path != "thesis" {
		return bench.ReadTuned(path)
	}
	var tuned []bench.Tuned
	for _, m := range models {
		best := hpo.ThesisBest(m)
		names := make([]string, 0, len(best))
		for d := range best {
			names = append(names, d)
		}
		sort.Strings(names)
		for _, d := range names {
			tuned = append(tuned, bench.Tuned{Kind: m, Dataset: d, Options: best[d], Protocol: "thesis appendix", Study: "thesis"})
		}
	}
	return tuned, nil
}
