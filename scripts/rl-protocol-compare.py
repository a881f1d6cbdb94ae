#!/usr/bin/env python3
"""Per-seed comparison of SYMPOL studies (gdt rl bench CSVs) on the same
seeds: the policy each training delivers (best_test_return where the row
has a best-validation policy, else test_return) under a "before" and an
"after" protocol, beside the after-study's final policy and its restarts.

Where a training did not restart, both studies trained the same policy
bit for bit (val_episodes does not change the training), so the paired
difference is the delivered choice alone.

Usage: scripts/rl-protocol-compare.py BEFORE.csv[,MORE.csv] AFTER.csv[,MORE.csv]
(the first file listing an (env, seed) wins).
"""
import csv, math, sys

from rl_floors import FLOOR
from rl_rows import num


def load(spec):
    rows = {}
    for f in spec.split(","):
        for r in csv.DictReader(open(f)):
            if r["method"] != "sympol" or r.get("variant") or r.get("profile", "default") != "default" or r.get("error"):
                continue
            k = (r["env"], int(r["seed"]))
            if k in rows:
                continue
            best = num(r.get("best_test_return"))
            rows[k] = {"delivered": best if r.get("best_step") else num(r["test_return"]), "kept_best": bool(r.get("best_step")),
                       "final": num(r["test_return"]), "restarts": int(r.get("restarts") or 0),
                       "best_step": r.get("best_step", "")}
    return rows


def stats(xs, floor):
    xs = [x for x in xs if not math.isnan(x)]
    if not xs:
        return "–"
    failed = sum(1 for x in xs if floor is not None and x < floor)
    return f"mean {sum(xs)/len(xs):.4g}, min {min(xs):.4g}, failed {failed}"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = load(sys.argv[1]), load(sys.argv[2])
    envs = sorted({e for e, _ in after})
    for env in envs:
        seeds = sorted(s for e, s in after if e == env)
        print(f"\n{env} ({len(seeds)} seeds; floor {FLOOR.get(env, '–')}):\n")
        print("| seed | before: delivered | after: delivered (best step) | after: final | restarts |")
        print("|---|---|---|---|---|")
        b, a, f = [], [], []
        for s in seeds:
            r = after[(env, s)]
            prev = before.get((env, s), {})
            old = prev.get("delivered", math.nan)
            mark = "" if prev.get("kept_best", True) else " ¹"
            b.append(old)
            a.append(r["delivered"])
            f.append(r["final"])
            print(f"| {s} | {old:.4g}{mark} | {r['delivered']:.4g} ({r['best_step']}) | {r['final']:.4g} | {r['restarts']} |")
        fl = FLOOR.get(env)
        print(f"before delivered: {stats(b, fl)}; after delivered: {stats(a, fl)}; after final: {stats(f, fl)}")
    print("\n¹ the before-study kept no best-validation policy for this training: its final policy")


if __name__ == "__main__":
    main()
