#!/usr/bin/env python3
"""Per-seed comparison of SYMPOL studies (gdt rl bench CSVs) on the same
seeds: the policy each training delivers (best_test_return where the row
has a best-validation policy, else test_return) under a "before" and an
"after" protocol, beside the after-study's final policy and its restarts.

Where a training did not restart, both studies trained the same policy
bit for bit (val_episodes does not change the training), so the paired
difference is the delivered choice alone.

A training that diverged (its row's diverged_step, rl/ppo's divergence
guard) delivers its best-validation policy and has no final policy; its
step is shown beside its restarts. The summary counts, over the seeds both
studies have, the seeds the after-study delivers better, worse or equal
(within 0.005) on; --below X also counts the delivered returns under X
(beside the environment's floor).

Usage: scripts/rl-protocol-compare.py [--below X] BEFORE.csv[,MORE.csv] AFTER.csv[,MORE.csv]
(the first file listing an (env, seed) wins).
"""
import argparse, csv, math

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
                       "best_step": r.get("best_step", ""), "diverged": r.get("diverged_step", ""),
                       "reasons": r.get("restart_reasons", "")}
    return rows


def stats(xs, floor, below=None):
    xs = [x for x in xs if not math.isnan(x)]
    if not xs:
        return "–"
    failed = sum(1 for x in xs if floor is not None and x < floor)
    out = f"mean {sum(xs)/len(xs):.4g}, min {min(xs):.4g}, failed {failed}"
    if below is not None:
        out += f", under {below:g} {sum(1 for x in xs if x < below)}"
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--below", type=float, help="also count delivered returns under this")
    ap.add_argument("before")
    ap.add_argument("after")
    args = ap.parse_args()
    before, after = load(args.before), load(args.after)
    envs = sorted({e for e, _ in after})
    for env in envs:
        seeds = sorted(s for e, s in after if e == env)
        print(f"\n{env} ({len(seeds)} seeds; floor {FLOOR.get(env, '–')}):\n")
        print("| seed | before: delivered | after: delivered (best step) | after: final | restarts | diverged at |")
        print("|---|---|---|---|---|---|")
        b, a, f = [], [], []
        better = worse = equal = 0
        for s in seeds:
            r = after[(env, s)]
            prev = before.get((env, s), {})
            old = prev.get("delivered", math.nan)
            mark = "" if prev.get("kept_best", True) else " ¹"
            b.append(old)
            a.append(r["delivered"])
            f.append(r["final"])
            if not math.isnan(old) and not math.isnan(r["delivered"]):
                d = r["delivered"] - old
                better, worse, equal = better + (d > 0.005), worse + (d < -0.005), equal + (abs(d) <= 0.005)
            reasons = f" ({r['reasons']})" if r["reasons"] else ""
            print(f"| {s} | {old:.4g}{mark} | {r['delivered']:.4g} ({r['best_step']}) | {r['final']:.4g} | {r['restarts']}{reasons} | {r['diverged'] or '–'} |")
        fl = FLOOR.get(env)
        print(f"before delivered: {stats(b, fl, args.below)}; after delivered: {stats(a, fl, args.below)}; after final: {stats(f, fl, args.below)}")
        print(f"paired: after better on {better}, worse on {worse}, equal on {equal}; diverged in after: {sum(1 for s in seeds if after[(env, s)]['diverged'])}")
    print("\n¹ the before-study kept no best-validation policy for this training: its final policy")


if __name__ == "__main__":
    main()
