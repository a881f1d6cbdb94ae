#!/usr/bin/env python3
"""What a SYMPOL training would deliver if it stopped early, from its curve.

For each step mark M, the policy a training delivers when cut at M (rl/ppo's
rule, rl_rows.delivered_index, on the evaluations up to M) and its test
return; per mark, how many trainings that policy solves (test return ≥
--solved) and the misses with the cut policy's validation. Also, over the
trainings whose full-length delivered policy solves, the step at which any
evaluation first tests ≥ --solved (median, quartiles, how many by each mark).

A training's first attempt under a restart rule at AFTER is its curve cut at
the rule's check, so a mark answers "what does a restarted training keep";
for a second attempt of a shorter budget, the cut says little (a shorter
training runs its own, compressed schedule).

Usage: scripts/rl-truncated.py --env ENV --marks 300720,502320 [--solved 0.953] FILE.csv ...
(the first file listing a seed wins).
"""
import argparse, statistics

from rl_rows import curve_points, delivered_index, first_rows, num


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--marks", required=True, help="comma-separated steps")
    ap.add_argument("--solved", type=float, default=0.953, help="a test return at least this solves")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    rows = first_rows(a.files, a.env)
    marks = [int(x) for x in a.marks.split(",")]
    curves = {s: curve_points(r) for s, r in rows.items()}
    print(f"{a.env}: {len(rows)} trainings, solved = test return ≥ {a.solved}")
    print("| cut at step | cut delivery solves | misses: seed (test, validation) |")
    print("|---|---|---|")
    for m in marks:
        ok, miss = 0, []
        for s in sorted(curves):
            pts = [p for p in curves[s] if int(p[0]) <= m]
            if not pts:
                continue
            d = pts[delivered_index(pts)]
            if num(d[5]) >= a.solved:
                ok += 1
            else:
                miss.append(f"{s} ({num(d[5]):.4f}, {num(d[4]):.3f})")
        print(f"| {m} | {ok} of {len(curves)} | {'; '.join(miss)} |")
    first = []
    for s, pts in curves.items():
        if num(pts[delivered_index(pts)][5]) >= a.solved:
            first.append(next(int(p[0]) for p in pts if num(p[5]) >= a.solved))
    if first:
        first.sort()
        q = statistics.quantiles(first, n=4) if len(first) > 1 else [first[0]] * 3
        by = ", ".join(f"{sum(x <= m for x in first)} by {m}" for m in marks)
        print(f"solvers ({len(first)}): first evaluation testing ≥ {a.solved} at median {statistics.median(first):.0f}, "
              f"quartiles {q[0]:.0f} … {q[2]:.0f}; {by}")


if __name__ == "__main__":
    main()
