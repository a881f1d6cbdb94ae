#!/usr/bin/env python3
"""Checks a SYMPOL study (gdt rl bench CSV, method sympol, 10 seeds per
environment) against issue 22's "Done when": per environment the mean and
minimum test return of the delivered policy (best_test_return where the row
has a best-validation policy, else test_return) against the issue's targets
(mean ≥ target, no seed below the floor) for Acrobot, LunarLander,
MountainCarContinuous, LavaGapS5 and DistShift1, and the thesis's mean
(spec §8.1–8.2) for the other five. The final policy's mean is printed
beside it. Exits 1 if any environment misses or has fewer than 10 seeds.

Usage: scripts/rl-done-when.py [--per-seed] FILE.csv [RERUN.csv ...]

--per-seed also prints each environment's delivered test returns in seed
order (seed:return).

A later file's row replaces an earlier one's for the same environment and
seed (environments rerun on the same seeds after their preset changed).
"""
import math, sys

from rl_floors import TARGET
from rl_rows import delivered, latest_rows, num


def main():
    args = sys.argv[1:]
    per_seed = "--per-seed" in args
    files = [a for a in args if a != "--per-seed"]
    if not files:
        sys.exit(__doc__)
    deliv, final, seeds = {}, {}, {}
    for r in sorted(latest_rows(files), key=lambda r: int(r["seed"])):
        deliv.setdefault(r["env"], []).append(delivered(r))
        final.setdefault(r["env"], []).append(num(r["test_return"]))
        seeds.setdefault(r["env"], []).append(r["seed"])
    ok = True
    print(f"{'env':30} {'seeds':>5} {'delivered':>10} {'min':>9} {'target':>8} {'floor':>7} "
          f"{'thesis':>7} {'final':>9}  verdict")
    for env, (target, floor, thesis) in TARGET.items():
        d = deliv.get(env, [])
        if not d:
            print(f"{env:30} {0:>5}  (no rows)  MISSING")
            ok = False
            continue
        mean, lo = sum(d) / len(d), min(d)
        fm = sum(final[env]) / len(final[env])
        why = []
        if len(d) < 10:
            why.append(f"{len(d)} seeds")
        if not mean >= target:
            why.append("mean")
        if floor is not None and not lo >= floor:
            why.append(f"{sum(v < floor for v in d)} below floor")
        ok = ok and not why
        fl = "–" if floor is None else f"{floor:g}"
        print(f"{env:30} {len(d):>5} {mean:>10.4g} {lo:>9.4g} {target:>8g} {fl:>7} {thesis:>7g} {fm:>9.4g}  "
              + ("met" if not why else "MISSED: " + ", ".join(why)))
        if per_seed:
            print("    " + " ".join(f"{k}:{v:.4g}" for k, v in zip(seeds[env], d)))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
