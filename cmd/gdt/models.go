package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gdt-ml/gdt/hpo"
	"github.com/gdt-ml/gdt/model"
	"github.com/gdt-ml/gdt/option"
)

func init() {
	register(command{name: "models", summary: "list the model kinds, or one kind's options with defaults, ranges and meanings", run: runModels})
}

// declaredKind is one kind `gdt models` lists: a tabular model kind
// (package model) or a policy kind of `gdt rl`.
type declaredKind struct {
	Name            string        `json:"name"`
	Help            string        `json:"help"`
	UsesValidation  bool          `json:"uses_validation"`
	DefaultProtocol string        `json:"default_protocol,omitempty"`
	Commands        string        `json:"commands"`
	Options         []option.Info `json:"options,omitempty"`
	specs           []option.Spec
}

// declaredKinds returns every kind with its declared options.
func declaredKinds() []declaredKind {
	var out []declaredKind
	for _, n := range model.KindNames() {
		k, _ := model.LookupKind(n)
		cmds := "train, eval, bench"
		if _, err := hpo.LookupSpace(n); err == nil {
			cmds += ", tune"
		}
		out = append(out, declaredKind{Name: n, Help: k.Help, UsesValidation: k.UsesValidation, DefaultProtocol: k.DefaultProtocol,
			Commands: cmds, specs: k.Options.Specs()})
	}
	return append(out, policyKinds()...)
}

func runModels(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("models", "[KIND] [--json]",
		"Without KIND, lists the model kinds. With KIND, lists every option of the kind (the keys\n"+
			"of --set in gdt train, bench, tune and rl train) with its default, its allowed range\n"+
			"and its meaning. Options are declared once per kind; this is that declaration.", stderr)
	asJSON := jsonFlag(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return fmt.Errorf("%w: give at most one KIND", errUsage)
	}
	kinds := declaredKinds()
	if len(pos) == 0 {
		if *asJSON {
			return writeJSON(stdout, map[string]any{"kinds": kinds})
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "kind\toptions\tused by\tdescription")
		for _, k := range kinds {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", k.Name, len(k.specs), k.Commands, k.Help)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "\ngdt models KIND lists a kind's options.")
		return nil
	}
	var names []string
	for _, k := range kinds {
		names = append(names, k.Name)
		if k.Name != pos[0] {
			continue
		}
		for _, s := range k.specs {
			k.Options = append(k.Options, option.InfoOf(s))
		}
		if *asJSON {
			return writeJSON(stdout, k)
		}
		return printOptions(stdout, k)
	}
	return fmt.Errorf("%w: unknown kind %q (known: %s)", errUsage, pos[0], strings.Join(names, ", "))
}

// printOptions writes a kind's option table.
func printOptions(w io.Writer, k declaredKind) error {
	fmt.Fprintf(w, "%s — %s\n", k.Name, k.Help)
	if k.DefaultProtocol != "" {
		fmt.Fprintf(w, "default preprocessing: %s; ", k.DefaultProtocol)
	}
	fmt.Fprintf(w, "used by: %s\n\n", k.Commands)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "option\tdefault\trange\tmeaning")
	for _, s := range k.specs {
		meaning := s.Meaning
		if s.Log {
			meaning += " [log scale]"
		}
		if len(s.Aliases) > 0 {
			meaning += " (also: " + strings.Join(s.Aliases, ", ") + ")"
		}
		if len(s.Deprecated) > 0 {
			meaning += " (deprecated spelling: " + strings.Join(s.Deprecated, ", ") + ")"
		}
		for _, word := range slices.Sorted(maps.Keys(s.Words)) {
			meaning += "; " + word + ": " + s.Words[word]
		}
		if s.DefaultNote != "" {
			meaning += "; default: " + s.DefaultNote
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Key, s.DefaultText(), s.Range(), meaning)
	}
	return tw.Flush()
}
