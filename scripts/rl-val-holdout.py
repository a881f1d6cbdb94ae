#!/usr/bin/env python3
"""Does a larger validation set choose better policies? For trainings run
twice with the same seed, once with 20 validation episodes (BASELINE, the
default) and once with N (--set val_episodes=N; the training is the same
bit for bit, and the validation seeds seed+0…19 are the first 20 of
seed+0…N−1), every evaluation's mean over the other N − 20 episodes is
(N·mean_N − 20·mean_20)/(N − 20). Per seed this prints the policy chosen
on the 20 episodes (the first maximum) scored on the other N − 20, and the
policy chosen on the other N − 20 scored on the 20: two choices, each
judged on episodes it was not chosen on, beside the test return (5 test
episodes) of each. Seeds whose curves differ (a training resumed from a
checkpoint) are skipped and named.

Usage: scripts/rl-val-holdout.py --n N BASELINE.csv[,MORE.csv] FILE.csv ...
"""
import argparse

from rl_rows import curve_points, sympol_rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("baseline")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    base = {}
    for f in a.baseline.split(","):
        for r in sympol_rows(f):
            base.setdefault((r["env"], r["seed"]), r)
    res = {}
    for f in a.files:
        for r in sympol_rows(f):
            b = base.get((r["env"], r["seed"]))
            if b is None:
                continue
            P = [[float(x) for x in p] for p in curve_points(r)]
            Q = [[float(x) for x in p] for p in curve_points(b)]
            if len(P) != len(Q) or any(p[5] != q[5] for p, q in zip(P, Q)):
                print(f"{r['env']} {r['seed']}: skipped, its training differs from the baseline's")
                continue
            s20 = [q[4] for q in Q]
            rest = [(a.n * p[4] - 20 * q[4]) / (a.n - 20) for p, q in zip(P, Q)]
            test = [p[5] for p in P]
            i20, irest = s20.index(max(s20)), rest.index(max(rest))
            res.setdefault(r["env"], []).append((rest[i20], test[i20], s20[irest], test[irest]))
            print(f"{r['env']} {r['seed']}: chosen on 20 → other {a.n - 20}: {rest[i20]:.1f} (test {test[i20]:.1f}); "
                  f"chosen on {a.n - 20} → the 20: {s20[irest]:.1f} (test {test[irest]:.1f})")
    for env, v in sorted(res.items()):
        m = lambda k: sum(x[k] for x in v) / len(v)
        print(f"{env}, {len(v)} seeds: chosen on 20, judged on the other {a.n - 20}: {m(0):.1f} (test {m(1):.1f}); "
              f"chosen on {a.n - 20}, judged on the 20: {m(2):.1f} (test {m(3):.1f})")


if __name__ == "__main__":
    main()
