// Command rl-actor-trace trains one SYMPOL (or MLP) policy as gdt rl train
// would (same preset, same seed, same result) and prints, every -every
// iterations and at every evaluation, restart or divergence, what the
// actor's parameters look like: per tensor its largest magnitude, and for a
// log-std tensor its mean. It shows how a training blows up (for example
// MountainCarContinuous under accum_mode=sqrt, whose log-std runs away):
//
//	go run ./scripts/rl-actor-trace -env MountainCarContinuous-v0 -seed 7911 \
//	    -set accum_mode=sqrt -set val_episodes=100 -every 50
//
// Columns: iteration, run step, attempt, mean return of the recent
// training episodes, then the tensors; at an evaluation the validation
// (first n_eval_episodes) and selection (val_episodes) means.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"

	_ "github.com/gdt-ml/gdt/rl/env/all"
	"github.com/gdt-ml/gdt/rl/methods"
	"github.com/gdt-ml/gdt/rl/policy"
	"github.com/gdt-ml/gdt/rl/ppo"
)

type sets []string

func (s *sets) String() string     { return strings.Join(*s, ",") }
func (s *sets) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	envID := flag.String("env", "MountainCarContinuous-v0", "environment ID")
	method := flag.String("method", ppo.MethodSYMPOL, "sympol or mlp")
	seed := flag.Int("seed", 142, "environment and sampling seed")
	every := flag.Int("every", 50, "print every N iterations (and at every evaluation, restart or divergence)")
	var kv sets
	flag.Var(&kv, "set", "override a hyperparameter, key=value (repeatable; gdt models sympol lists them)")
	flag.Parse()
	if err := run(*envID, *method, *seed, *every, kv); err != nil {
		fmt.Fprintln(os.Stderr, "rl-actor-trace:", err)
		os.Exit(1)
	}
}

func run(envID, method string, seed, every int, kv []string) error {
	if every < 1 {
		return fmt.Errorf("-every %d: want ≥ 1", every)
	}
	cfg, err := ppo.Preset(envID, method)
	if err != nil {
		return err
	}
	cfg.Seed = seed
	for _, s := range kv {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("-set %q: want key=value", s)
		}
		if err := cfg.Set(k, v); err != nil {
			return err
		}
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	tr, err := methods.New(cfg)
	if err != nil {
		return err
	}
	for !tr.Done() {
		p, err := tr.Iterate()
		if err != nil {
			return err
		}
		if p.Iteration%every != 0 && p.Eval == nil && !p.Restarted && p.Diverged == nil {
			continue
		}
		line := fmt.Sprintf("it %d step %d attempt %d recent %.4g", p.Iteration, p.Step, p.Attempt, p.RecentReturn)
		if net, ok := tr.Actor().(policy.Net); ok {
			for _, ts := range net.Tensors() {
				line += " " + describe(ts)
			}
		}
		if p.Eval != nil {
			line += fmt.Sprintf(" | eval validation %.4g selection %.4g", p.Eval.Validation, p.Eval.Selection)
		}
		if p.Restarted {
			line += " | restarted"
		}
		if p.Diverged != nil {
			line += " | diverged: " + p.Diverged.Cause
		}
		fmt.Println(line)
	}
	return nil
}

// describe is a tensor's largest magnitude, or for a log-std its mean.
func describe(ts policy.Tensor) string {
	if len(ts.Value) == 0 {
		return ts.Name + " (empty)"
	}
	mx, sum := 0.0, 0.0
	for _, v := range ts.Value {
		mx = math.Max(mx, math.Abs(float64(v)))
		sum += float64(v)
	}
	if strings.Contains(ts.Name, "std") {
		return fmt.Sprintf("mean(%s) %.3g", ts.Name, sum/float64(len(ts.Value)))
	}
	return fmt.Sprintf("max|%s| %.3g", ts.Name, mx)
}
