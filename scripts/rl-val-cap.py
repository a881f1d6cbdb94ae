#!/usr/bin/env python3
"""How often a policy that validates at a return's cap tests below it: over
the SYMPOL trainings of ENV in the given gdt rl bench CSVs (curves with
each evaluation's test return, files from session 12 on), counts the
evaluations whose selection (mean over the row's validation episodes) is
at least --cap, and of those the ones whose test return (5 test episodes,
the applied actor at that evaluation) is below it, per quarter of the
step budget; then lists each such evaluation and whether it was the
training's delivered choice under today's rule (the last evaluation whose
selection is at least every earlier one).

Usage: scripts/rl-val-cap.py --env ENV --cap X [--budget 1000000] FILE.csv ...
Example (CartPole's baseline curves, session 16):
  scripts/rl-val-cap.py --env CartPole-v1 --cap 500 results/sympol-dev-curves.csv results/sympol-unseen-7011.csv \\
    results/sympol-unseen-40013.csv results/sympol-unseen-93017-cp.csv results/sympol-unseen-94017-cp.csv
"""
import argparse

from rl_rows import curve_points, delivered_index, num, sympol_rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--cap", type=float, required=True)
    ap.add_argument("--budget", type=float, default=1_000_000)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    runs = {}
    for f in a.files:
        for r in sympol_rows(f):
            if r["env"] == a.env and r["curve"]:
                runs.setdefault(int(r["seed"]), curve_points(r))
    evals = at_cap = 0
    quarter = [[0, 0] for _ in range(4)]
    low = []
    for seed, pts in sorted(runs.items()):
        if any(len(p) < 7 for p in pts):
            raise SystemExit(f"seed {seed}: curve points without test returns (an older file)")
        best = delivered_index(pts)
        for i, p in enumerate(pts):
            evals += 1
            if num(p[4]) < a.cap:
                continue
            at_cap += 1
            q = min(3, int(4 * int(p[0]) / a.budget))
            quarter[q][0] += 1
            if num(p[5]) < a.cap:
                quarter[q][1] += 1
                low.append((seed, int(p[0]), num(p[5]), i == best))
    print(f"{a.env}: {len(runs)} trainings, {evals} evaluations, {at_cap} validate ≥ {a.cap:g}, "
          f"{len(low)} of them test below it")
    print("| steps | validate at the cap | of them test below |")
    print("|---|---|---|")
    for q, (n, b) in enumerate(quarter):
        print(f"| {q * 25}–{(q + 1) * 25} % | {n} | {b} ({100 * b / n if n else 0:.1f} %) |")
    print("| seed | step | test | delivered (ties → later) |")
    print("|---|---|---|---|")
    for seed, step, test, chosen in low:
        print(f"| {seed} | {step} | {test:.4g} | {'yes' if chosen else 'no'} |")


if __name__ == "__main__":
    main()
