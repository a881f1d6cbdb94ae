#!/usr/bin/env python3
"""Per seed of one environment, the first evaluation at which two studies'
trainings differ: the step of the first curve point (step, training
return, validations, test return) that is not the same in both, or
"same" when the whole curve is. A training change that only acts after
some event (a plateau halving, a restart) leaves the curve identical up
to it, so this shows where each training left the baseline.

Usage: scripts/rl-curve-diverge.py --env ENV BASE.csv[,MORE.csv] ARM.csv[,MORE.csv]
"""
import argparse

from rl_rows import curve_points, delivered, sympol_rows


def load(spec, env):
    rows = {}
    for f in spec.split(","):
        for r in sympol_rows(f):
            if r["env"] == env:
                rows.setdefault(int(r["seed"]), r)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", required=True)
    ap.add_argument("base")
    ap.add_argument("arm")
    a = ap.parse_args()
    base, arm = load(a.base, a.env), load(a.arm, a.env)
    print("| seed | base delivered | arm delivered | first differing evaluation |")
    print("|---|---|---|---|")
    for s in sorted(arm):
        if s not in base:
            continue
        pb, pa = curve_points(base[s]), curve_points(arm[s])
        n = min(len(pb[0]), len(pa[0])) if pb and pa else 0
        where = "same"
        for x, y in zip(pb, pa):
            if x[:n] != y[:n]:
                where = f"{int(y[0]) // 1000} k"
                break
        else:
            if len(pb) != len(pa):
                where = "length"
        print(f"| {s} | {delivered(base[s]):.3f} | {delivered(arm[s]):.3f} | {where} |")


if __name__ == "__main__":
    main()
