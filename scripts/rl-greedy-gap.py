#!/usr/bin/env python3
"""The gap between the stochastic policy PPO trains and the greedy tree it
delivers: over every evaluation at or after --from steps of every training
of ENV in the files, the mean of the recent training episodes' returns
(sampled actions) beside the mean greedy validation return (the first
n_eval_episodes, and all val_episodes: the selection figure).

Usage: scripts/rl-greedy-gap.py --env ENV [--from STEP] FILE.csv ...
"""
import argparse, math

from rl_rows import curve_points, latest_rows, num


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", required=True)
    ap.add_argument("--from", dest="start", type=int, default=700_000)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    rows = [r for r in latest_rows(a.files) if r["env"] == a.env]
    train, val, sel = [], [], []
    for r in rows:
        for p in curve_points(r):
            if int(p[0]) >= a.start and not math.isnan(num(p[1])):
                train.append(num(p[1]))
                val.append(num(p[3]))
                sel.append(num(p[4]))
    if not train:
        raise SystemExit(f"{a.env}: no evaluation at or after {a.start} steps")
    m = lambda v: sum(v) / len(v)
    print(f"{a.env}: {len(rows)} trainings, {len(train)} evaluations from {a.start} steps: "
          f"training episodes (sampled) {m(train):.4g}, greedy validation {m(val):.4g} (first n_eval_episodes), "
          f"{m(sel):.4g} (all val_episodes); gap {m(train) - m(sel):.4g}")


if __name__ == "__main__":
    main()
