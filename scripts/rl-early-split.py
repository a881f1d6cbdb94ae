#!/usr/bin/env python3
"""What separates one environment's failed trainings from its solvers
early: per curve number (the recent training return, the 5-episode
validation that feeds the plateau, the val_episodes validation, the
applied tree's test return) and per step mark, the mean over the
failures (delivered test return below --fail) and over the solvers, and
how often a failure's value is below a solver's over all (failure,
solver) pairs (ties count half: 0.5 means no separation, 1 that every
failure is below every solver). Also the step of the plateau's first
halving (rl-prefix-match.py's replay) and of the first evaluation whose
policy tests at or above --solved. Files are merged, later rows win
(rl_rows.latest_rows); rows of other budgets are skipped.

Usage: scripts/rl-early-split.py --env ENV [--marks 100128,...] [--fail 0.5] FILE.csv ...
Example (LavaGapS7's 60 baseline trainings under today's preset):
  scripts/rl-early-split.py --env MiniGrid-LavaGapS7-v0 results/sympol-judge-5077.csv \\
    results/sympol-unseen-7011.csv results/sympol-unseen-40013.csv results/sympol-unseen-45017.csv \\
    results/sympol-unseen-93017-b.csv \\
    results/sympol-lg7-norestart-{5377,7311,40813,45117,45217,45317,45817,45917,93717}.csv results/sympol-unseen-95017-lg7.csv
"""
import argparse
import math
import statistics

from rl_rows import curve_points, delivered, first_halving, latest_rows, num


# Curve numbers (index into a curve point) and their names.
FIELDS = ((1, "training return"), (2, "5-episode validation"), (4, "validation"), (5, "test return"))


def at(pts, step, i):
    """The curve's number i at the last evaluation at or before step."""
    v = float("nan")
    for p in pts:
        if int(p[0]) > step:
            break
        if len(p) > i:
            v = num(p[i])
    return v


def below_share(fails, solvers):
    """Over all (failure, solver) pairs, the share where the failure's
    value is below the solver's, ties counting half."""
    n = s = 0
    for f in fails:
        for g in solvers:
            n += 1
            s += 1 if f < g else 0.5 if f == g else 0
    return s / n if n else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--marks", default="100128,150416,200368,250544,300720,401072,502320")
    ap.add_argument("--fail", type=float, default=0.5)
    ap.add_argument("--solved", type=float, default=0.9)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    marks = [int(m) for m in a.marks.split(",")]
    rows = [r for r in latest_rows(a.files) if r["env"] == a.env and int(r["steps"]) == 1_000_000]
    rows = [r for r in rows if curve_points(r)]
    fails = [r for r in rows if delivered(r) < a.fail]
    solvers = [r for r in rows if delivered(r) >= a.fail]
    print(f"{len(rows)} trainings: {len(fails)} deliver below {a.fail}, {len(solvers)} at or above")
    print()
    print("| number | step | failures' mean | solvers' mean | failure below solver |")
    print("|---|---|---|---|---|")
    for i, name in FIELDS:
        for m in marks:
            # older files record no test return: those trainings drop out
            fv = [v for v in (at(curve_points(r), m, i) for r in fails) if not math.isnan(v)]
            sv = [v for v in (at(curve_points(r), m, i) for r in solvers) if not math.isnan(v)]
            if fv and sv:
                print(f"| {name} | {m // 1000} k | {statistics.mean(fv):.3f} ({len(fv)}) | {statistics.mean(sv):.3f} ({len(sv)}) | {below_share(fv, sv):.2f} |")

    def steps(rs, fn):
        out = []
        for r in rs:
            v = fn(curve_points(r))
            out.append(float("inf") if v is None or v == "none" else int(v))
        return out

    def first_solved(pts):
        if len(pts[0]) <= 5:
            return None
        return next((int(p[0]) for p in pts if len(p) > 5 and num(p[5]) >= a.solved), None)

    def med(xs):
        m = statistics.median(xs) if xs else float("nan")
        return "inf" if m == float("inf") else "–" if math.isnan(m) else str(int(m) // 1000)

    print()
    print("| event | failures (k steps, inf: never) | median f. | median s. | failure earlier than solver |")
    print("|---|---|---|---|---|")
    for name, fn in ((f"plateau's first halving", first_halving), (f"first test ≥ {a.solved}", first_solved)):
        fr = fails if fn is first_halving else [r for r in fails if len(curve_points(r)[0]) > 5]
        sr = solvers if fn is first_halving else [r for r in solvers if len(curve_points(r)[0]) > 5]
        fv, sv = steps(fr, fn), steps(sr, fn)
        earlier = 1 - below_share(sv, fv)  # share of pairs where the failure's step is smaller
        shown = " ".join("inf" if x == float("inf") else str(int(x) // 1000) for x in fv)
        print(f"| {name} | {shown} | {med(fv)} | {med(sv)} | {earlier:.2f} |")


if __name__ == "__main__":
    main()
