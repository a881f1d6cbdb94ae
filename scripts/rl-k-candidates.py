#!/usr/bin/env python3
"""Replays "k candidates for the same steps, keep the best on validation"
on a SYMPOL study (gdt rl bench CSV) whose trainings all validate on the
same episodes (run with --set val_seed=V) and whose budget is 1/k of the
protocol's: consecutive seeds of an environment (S, S+100, …) form groups
of k, and each group delivers the delivered policy of its member with the
highest validation return (best_val_return; the first on ties). Prints,
per environment, the single trainings' and the groups' delivered test
returns: mean, minimum and how many fall below SOLVED.

Usage: scripts/rl-k-candidates.py [--k K] [--solved X] FILE.csv
(defaults k 2, solved 0.9, meant for MiniGrid tasks)
"""
import argparse, math

from rl_rows import delivered, num, sympol_rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k", type=int, default=2)
    ap.add_argument("--solved", type=float, default=0.9)
    ap.add_argument("file")
    a = ap.parse_args()
    by_env = {}
    for r in sympol_rows(a.file):
        by_env.setdefault(r["env"], []).append((int(r["seed"]), num(r.get("best_val_return")), delivered(r)))
    for env, rows in sorted(by_env.items()):
        rows.sort()
        single = [t for _, _, t in rows]
        groups = [rows[i:i + a.k] for i in range(0, len(rows) - a.k + 1, a.k)]
        picks = []
        for g in groups:
            best = g[0]
            for m in g[1:]:
                if m[1] > best[1]:
                    best = m
            picks.append(best[2])
        summary = lambda x: (f"mean {sum(x) / len(x):.3f}  min {min(x):.3f}  below {a.solved}: {sum(v < a.solved for v in x)} of {len(x)}"
                             if x else "none")
        print(f"{env}: single trainings  {summary(single)}")
        print(f"{env}: best of {a.k} on validation  {summary(picks)}")
        for g, p in zip(groups, picks):
            print("   " + "  ".join(f"{s}: val {v:.3f} test {t:.3f}" for s, v, t in g) + f"  -> {p:.3f}")


if __name__ == "__main__":
    main()
