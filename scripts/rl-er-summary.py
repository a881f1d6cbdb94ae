#!/usr/bin/env python3
"""Summarises gdt rl bench studies of SYMPOL on MiniGrid-Empty-Random-6x6
(issue 22, BENCHMARKS.md "Empty-Random's path lengths"): per file the mean
and minimum test return of the delivered and the final policy, how many
trainings deliver a policy scoring the wall follower's 0.955 on the test
episodes (the 5-node tree most trainings settle on; TestWallFollower in
rl/env/minigrid), how many deliver at least 0.965 (the test return of the
best memoryless policies for the start distribution: 0.965 or 0.9675,
TestReactiveCeiling), the restarts, and the largest test return any
evaluation of the curve reached.

Usage: scripts/rl-er-summary.py FILE.csv ...
"""
import sys

from rl_rows import curve_points, delivered, num, sympol_rows

ENV = "MiniGrid-Empty-Random-6x6-v0"


def main(files):
    print(f"{'file':40} {'seeds':>5} {'delivered':>9} {'min':>6} {'final':>6} {'=0.955':>6} {'>=0.965':>7} {'restarts':>8} {'curve max':>9}")
    for f in files:
        rows = [r for r in sympol_rows(f) if r["env"] == ENV]
        if not rows:
            print(f"{f:40} no {ENV} rows")
            continue
        d = [delivered(r) for r in rows]
        fin = [num(r["test_return"]) for r in rows]
        cmax = []
        for r in rows:
            t = [float(p[5]) for p in curve_points(r) if len(p) >= 7]
            cmax.append(max(t) if t else float("nan"))
        rs = sum(int(r.get("restarts") or 0) for r in rows)
        print(f"{f:40} {len(rows):5d} {sum(d)/len(d):9.4f} {min(d):6.4f} {sum(fin)/len(fin):6.4f} "
              f"{sum(abs(x-0.955) < 5e-4 for x in d):6d} {sum(x >= 0.965-5e-5 for x in d):7d} {rs:8d} {max(cmax):9.4f}")
        print("    delivered per seed: " + " ".join(f"{r['seed']}:{x:.4f}" for r, x in zip(rows, d)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
