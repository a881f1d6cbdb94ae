package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdt-ml/gdt/bench"
	"github.com/gdt-ml/gdt/rl/ppo"
)

// This file gives `gdt rl train` the flag --tuned FILE: the best
// configuration a policy study of `gdt tune --model sympol --env ID`
// wrote. Its options are ppo's --set keys, so the flag expands to
// "--env ID --set key=value …" in front of the other arguments: explicit
// --set flags still override single values, and an explicit --env must
// name the file's environment.

// flagAt finds flag name in args ("-name v", "--name v", "-name=v",
// "--name=v") before the first "--" and returns its value, its index and
// the number of arguments it takes (0 when absent).
func flagAt(args []string, name string) (value string, at, n int) {
	for i, a := range args {
		if a == "--" {
			break
		}
		trimmed := strings.TrimLeft(a, "-")
		if len(a)-len(trimmed) < 1 || len(a)-len(trimmed) > 2 {
			continue
		}
		if trimmed == name {
			if i+1 < len(args) {
				return args[i+1], i, 2
			}
			return "", i, 1
		}
		if v, ok := strings.CutPrefix(trimmed, name+"="); ok {
			return v, i, 1
		}
	}
	return "", -1, 0
}

func hasFlag(args []string, name string) bool {
	_, at, _ := flagAt(args, name)
	return at >= 0
}

// expandTuned replaces --tuned FILE in the arguments of rl train by the
// file's environment and options.
func expandTuned(args []string) ([]string, error) {
	path, at, n := flagAt(args, "tuned")
	if at < 0 {
		return args, nil
	}
	if path == "" {
		return nil, fmt.Errorf("%w: --tuned needs a FILE written by gdt tune", errUsage)
	}
	rest := append(append([]string(nil), args[:at]...), args[at+n:]...)
	list, err := bench.ReadTuned(path)
	if err != nil {
		return nil, fmt.Errorf("--tuned: %w", err)
	}
	envID, _, _ := flagAt(rest, "env")
	method, _, _ := flagAt(rest, "method")
	if method == "" {
		method = ppo.MethodSYMPOL
	}
	var pick []bench.Tuned
	for _, t := range list {
		if t.Kind == method && (envID == "" || t.Dataset == envID) {
			pick = append(pick, t)
		}
	}
	switch {
	case len(pick) == 0:
		var have []string
		for _, t := range list {
			have = append(have, t.Kind+" on "+t.Dataset)
		}
		want := method
		if envID != "" {
			want += " on " + envID
		}
		return nil, fmt.Errorf("--tuned %s: no configuration of %s (the file holds %s)", path, want, strings.Join(have, ", "))
	case len(pick) > 1:
		return nil, fmt.Errorf("--tuned %s: %d configurations of %s; give --env to choose one", path, len(pick), method)
	}
	t := pick[0]
	keys := make([]string, 0, len(t.Options))
	for k := range t.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, 2+2*len(keys)+len(rest))
	if envID == "" {
		out = append(out, "--env", t.Dataset)
	}
	for _, k := range keys {
		out = append(out, "--set", k+"="+t.Options[k])
	}
	return append(out, rest...), nil
}
