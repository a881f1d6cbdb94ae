#!/usr/bin/env python3
"""How far two studies' trainings of the same seed agree: per seed of ENV
present in both, the number of leading evaluations whose curve points
(step, training return, validation returns, test return, spread, nodes)
are equal in every number both files record (older files record fewer
per point), out of each side's count, the step of the last equal one and
of the first that differs ("same" when the whole curve is), and both
delivered returns. A run under a restart rule equals the baseline's
training up to the evaluation where the rule restarts it, a training
change that acts only after some event (a plateau halving) up to that
event (trainings are deterministic), and a rerun at another commit
everywhere, so this shows a rerun reproduces the recorded rows and where
each training left the baseline.

With --by-step (a run that evaluates more often, or on more validation
episodes, than the base) the points are paired by step instead: the
base's evaluation steps are a subset of a denser run's, and the numbers
that do not depend on how many validation episodes there are (step,
training return, the 5-episode validation that feeds the plateau, the
applied tree's, the test return, nodes) are compared at each step both
curves hold. Two more columns replay rl/ppo's plateau (optax rule,
patience 5 evaluations, relative tolerance 1e-4: optim.SYMPOLIntendedPlateau)
on each curve's 5-episode validation and give the step of its first
halving: the plateau counts evaluations, not steps (for a run under
reduce_lr=false: where its halving would have been).

Usage: scripts/rl-prefix-match.py [--by-step] --env ENV --base B.csv[,MORE.csv] FILE.csv ...
Example (LunarLander's level-rule runs against the recorded rows):
  scripts/rl-prefix-match.py --env LunarLander-v2 \\
    --base results/sympol-dev-curves.csv,results/sympol-judge-5077.csv,results/sympol-unseen-7011.csv,results/sympol-unseen-45017.csv \\
    results/sympol-ll-below-a.csv results/sympol-ll-below-b.csv results/sympol-ll-below-c.csv
"""
import argparse

from rl_rows import curve_points, delivered, first_halving, first_rows

# The curve point's numbers that do not depend on val_episodes: step,
# train, trained (the first n_eval_episodes validation episodes), applied,
# test and nodes (selection and its spread do).
FIXED = (0, 1, 2, 3, 5, 7)


def by_step(p, q):
    """Pairs the points of curves p and q at the steps both hold, in
    order, on the FIXED numbers both record: (equal leading pairs, pairs,
    last equal step, first differing step)."""
    qs = {x[0]: x for x in q}
    pairs = [(x, qs[x[0]]) for x in p if x[0] in qs]
    n = 0
    for x, y in pairs:
        # nodes 0: not recorded (some early rows; a pruned tree has ≥ 1)
        k = [i for i in FIXED if i < min(len(x), len(y)) and not (i == 7 and "0" in (x[i], y[i]))]
        if [x[i] for i in k] != [y[i] for i in k]:
            break
        n += 1
    last = pairs[n - 1][0][0] if n else "–"
    first = pairs[n][1][0] if n < len(pairs) else "same"
    return n, len(pairs), last, first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("--by-step", action="store_true", help="pair evaluations by step (a denser run against the base)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    base = first_rows(a.base.split(","), a.env)
    runs = first_rows(a.files, a.env)
    if a.by_step:
        print("| seed | equal leading common steps | common steps | base evaluations | run evaluations | last equal step "
              "| first differing step | base's first halving | run's first halving | base delivered | run delivered "
              "| base restarts | run restarts |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for s in sorted(runs):
            if s not in base:
                print(f"| {s} | no base row |" + " |" * 11)
                continue
            p, q = curve_points(base[s]), curve_points(runs[s])
            n, m, last, first = by_step(p, q)
            print(f"| {s} | {n} | {m} | {len(p)} | {len(q)} | {last} | {first} | {first_halving(p)} | "
                  f"{first_halving(q)} | {delivered(base[s]):.4g} | {delivered(runs[s]):.4g} | "
                  f"{base[s].get('restarts', '')} | {runs[s].get('restarts', '')} |")
        return
    print("| seed | equal leading evaluations | base evaluations | run evaluations | last equal step | first differing step "
          "| base delivered | run delivered | run's restarts |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in sorted(runs):
        if s not in base:
            print(f"| {s} | no base row | | | | | | | |")
            continue
        p, q = curve_points(base[s]), curve_points(runs[s])
        k = min(len(p[0]), len(q[0])) if p and q else 0
        n = 0
        while n < min(len(p), len(q)) and p[n][:k] == q[n][:k]:
            n += 1
        last = p[n - 1][0] if n else "–"
        first = q[n][0] if n < len(q) else ("same" if len(p) == len(q) else "length")
        print(f"| {s} | {n} | {len(p)} | {len(q)} | {last} | {first} | {delivered(base[s]):.4g} | "
              f"{delivered(runs[s]):.4g} | {runs[s].get('restarts', '')} |")


if __name__ == "__main__":
    main()
