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

Usage: scripts/rl-prefix-match.py --env ENV --base B.csv[,MORE.csv] FILE.csv ...
Example (LunarLander's level-rule runs against the recorded rows):
  scripts/rl-prefix-match.py --env LunarLander-v2 \\
    --base results/sympol-dev-curves.csv,results/sympol-judge-5077.csv,results/sympol-unseen-7011.csv,results/sympol-unseen-45017.csv \\
    results/sympol-ll-below-a.csv results/sympol-ll-below-b.csv results/sympol-ll-below-c.csv
"""
import argparse

from rl_rows import curve_points, delivered, sympol_rows


def load(files, env):
    rows = {}
    for f in files:
        for r in sympol_rows(f):
            if r["env"] == env:
                rows.setdefault(int(r["seed"]), r)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    base = load(a.base.split(","), a.env)
    runs = load(a.files, a.env)
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
