package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdt-ml/gdt/datasets"
)

func init() {
	register(command{name: "datasets", summary: "list the benchmark datasets and suites", run: runDatasets})
}

func runDatasets(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("datasets", "[--suite NAME] [--verify] [--json]",
		"Lists the benchmark datasets of the manifest (loading each to show its shape) with their\n"+
			"target column and file (--json: every file, the dropped columns and the class counts),\n"+
			"or the datasets of one suite; gdt train/eval --dataset NAME reads one as listed. --verify also checks every file's SHA-256 against the manifest.", stderr)
	root := fs.String("data-root", "", "benchmark data folder (default: $GDT_DATA, else ../shared/data next to the repository)")
	suite := fs.String("suite", "", "list one suite: "+fmt.Sprint(datasets.SuiteNames()))
	verify := fs.Bool("verify", false, "verify file checksums")
	asJSON := jsonFlag(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	r, err := datasets.Root(*root)
	if err != nil {
		return err
	}
	var names []string
	if *suite != "" {
		entries, err := datasets.Suite(*suite)
		if err != nil {
			return err
		}
		for _, e := range entries {
			names = append(names, e.Dataset)
		}
	} else {
		names = datasets.Names("")
	}
	type entry struct {
		Name        string   `json:"name"`
		Task        string   `json:"task"`
		Rows        int      `json:"rows"`
		Features    int      `json:"features"`
		Classes     int      `json:"classes"`
		ClassCounts []int    `json:"class_counts"`
		Verified    bool     `json:"verified"`
		Target      string   `json:"target"`
		Files       []string `json:"files"`
		Dropped     []string `json:"dropped_columns,omitempty"`
	}
	if !*asJSON {
		fmt.Fprintf(stdout, "%-34s %-10s %7s %8s %7s  %-22s %s\n", "name", "task", "rows", "features", "classes", "target", "file")
	}
	list := []entry{}
	cwd, _ := os.Getwd()
	for _, n := range names {
		if *verify {
			if err := datasets.Verify(r, n); err != nil {
				return err
			}
		}
		ds, err := datasets.Load(r, n)
		if err != nil {
			return err
		}
		info, err := datasets.Describe(r, n)
		if err != nil {
			return err
		}
		e := entry{Name: n, Task: ds.Task.String(), Rows: len(ds.Y), Features: ds.X.NumCols(), Classes: ds.NumClasses(), ClassCounts: ds.ClassCounts(),
			Verified: *verify, Target: info.Target, Files: info.Files, Dropped: info.Dropped}
		list = append(list, e)
		if !*asJSON {
			file := ""
			if len(info.Files) > 0 {
				file = info.Files[0]
				if rel, err := filepath.Rel(cwd, file); err == nil && len(rel) < len(file) {
					file = rel
				}
			}
			if len(info.Files) > 1 {
				file += fmt.Sprintf(" (+%d)", len(info.Files)-1)
			}
			target := info.Target
			if len(info.Dropped) > 0 {
				target += " (drops " + strings.Join(info.Dropped, ", ") + ")"
			}
			fmt.Fprintf(stdout, "%-34s %-10s %7d %8d %7d  %-22s %s\n", n, e.Task, e.Rows, e.Features, e.Classes, target, file)
		}
	}
	if *asJSON {
		return writeJSON(stdout, map[string]any{"data_root": r, "suite": *suite, "suites": datasets.SuiteNames(), "datasets": list})
	}
	if *verify {
		fmt.Fprintf(stdout, "\nall %d datasets match their manifest checksums\n", len(names))
	}
	fmt.Fprintf(stdout, "\nsuites: %v (data root %s)\n", datasets.SuiteNames(), r)
	return nil
}
