// Command gdt learns hard, axis-aligned decision trees, tree ensembles and
// tree policies with gradient descent, and benchmarks them against the
// thesis's published figures.
//
// Usage:
//
//	gdt <command> [flags]
//
// Run `gdt help` for the list of commands and `gdt <command> --help` for
// the flags of one.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/gdt-ml/gdt/safefile"
)

// command is one subcommand of gdt.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// errUsage marks errors whose message already explains correct usage.
var errUsage = errors.New("usage")

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	stop := handleSignals(cancel, os.Stderr, os.Exit)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// handleSignals makes the first SIGINT or SIGTERM cancel the commands'
// context (work stops at its next check; the command then exits 130,
// "interrupted"). When a save is under way at that moment, or on a second
// signal, it removes the saves' temporary files (safefile.RemoveTemps: the
// files being replaced keep their old content, no .NAME.tmp-N is left) and
// exits at once with 128 + the signal number (130 for SIGINT, 143 for
// SIGTERM). stop undoes it.
func handleSignals(cancel func(), stderr io.Writer, exit func(int)) (stop func()) {
	sig := make(chan os.Signal, 2)
	done := make(chan struct{})
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		interrupted := false
		for {
			select {
			case <-done:
				return
			case s := <-sig:
				cancel()
				if !interrupted && safefile.Writing() == 0 {
					interrupted = true
					continue
				}
				for _, name := range safefile.RemoveTemps() {
					fmt.Fprintf(stderr, "gdt: %v: removed the unfinished save %s\n", s, name)
				}
				code := 130
				if s == syscall.SIGTERM {
					code = 143
				}
				exit(code)
				return
			}
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "version" || args[0] == "--version" || args[0] == "-version") {
		return printVersion(stdout, len(args) > 1 && wantsFlag(args[1:], "json"))
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				c.run(ctx, []string{"--help"}, stdout, stdout)
				return 0
			}
		}
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gdt: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	if wantsFlag(args[1:], "help") || wantsFlag(args[1:], "h") {
		// help asked for is output: gdt train --help | less
		stderr = stdout
	}
	err := c.run(ctx, args[1:], stdout, stderr)
	code, msg := 0, ""
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		code, msg = 2, strings.TrimPrefix(err.Error(), errUsage.Error()+": ")
	case errors.Is(err, context.Canceled):
		code, msg = 130, "interrupted"
	default:
		code, msg = 1, err.Error()
	}
	fmt.Fprintf(stderr, "gdt %s: %s\n", c.name, msg)
	if wantsFlag(args[1:], "json") {
		writeJSON(stdout, map[string]any{"error": msg, "command": c.name, "exit_code": code})
	}
	return code
}

// wantsFlag reports whether args hold the boolean flag name (-name,
// --name, --name=true) before a "--".
func wantsFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		switch strings.TrimLeft(a, "-") {
		case name, name + "=true", name + "=1":
			if strings.HasPrefix(a, "-") {
				return true
			}
		}
	}
	return false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "gdt — decision trees, ensembles and tree policies learned with gradient descent")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: gdt <command> [flags]   (gdt <command> --help for its flags)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
}

// newFlags returns a FlagSet whose --help prints a usage line, the summary
// and the flag defaults.
func newFlags(name, args, summary string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: gdt %s %s\n\n%s\n\nFlags:\n", name, args, summary)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args allowing flags after positional arguments
// (gdt show model.json --format dot) and returns the positionals.
// parseOne is parseFlags for commands that take exactly one positional
// argument (what names it in the usage error, e.g. "MODEL file").
func parseOne(fs *flag.FlagSet, args []string, what string) (string, error) {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		fs.Usage()
		return "", fmt.Errorf("%w: want exactly one %s", errUsage, what)
	}
	return pos[0], nil
}

func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
