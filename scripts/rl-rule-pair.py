#!/usr/bin/env python3
"""Pairs two restart rules of rl/ppo on one environment, seed by seed,
without training again where the two runs are provably the same.

A training that neither rule restarts is the same training under both,
bit for bit (the rule only reads the evaluations; trainings are
deterministic). So each side's missing rows are filled from the other
side where the other side's row ran without a restart (its own rule did
not fire) and its curve shows that this side's rule does not fire on it:
the rule is replayed on the curve's validation returns (the fifth curve
number, ppo's val_episodes mean) at the first evaluation at or after
after·total steps (with restart_below BELOW where given: a best
validation under it fires; AFTER 0 never fires, as restart_after 0
never restarts), and the gain the training has shown possible is taken
from --best-train, an upper bound on any training episode's return (the
real rule uses the attempt's best training episode, which is at most
that), so "does not fire" is proven, not estimated. A seed that either
rule restarts needs a row of its own on that side; such seeds are listed
as missing until both sides have run them.

Prints per seed both sides' delivered test returns and, over the seeds
both sides have, the mean, the minimum and the count below --fail (and
below the issue's floor).

--cand-ran-under AFTER,MARGIN[,BELOW]: the candidate's files ran under
another rule with the same AFTER (say margin 1, which restarts every
training: one run per seed serves every level at that AFTER). A row that
rule restarted is the candidate's training where the candidate's rule
fires on its first attempt too (the same check step, so the same
restart: same attempt seed, same remaining budget); a row it did not
restart is the candidate's where the candidate's rule provably does not
fire. Other rows are dropped (missing, or filled from the base's side as
usual). Assumes the candidate may not restart a second time where that
rule did not (rl/ppo restarts only while AFTER·total steps remain).

Usage: scripts/rl-rule-pair.py --env ENV --base AFTER,MARGIN[,BELOW] --cand AFTER,MARGIN[,BELOW]
       --best-train B [--fail 0.9] --base-files F.csv[,F.csv] --cand-files F.csv[,F.csv]
Example (DoorKey's preset against the protocol's defaults):
  scripts/rl-rule-pair.py --env MiniGrid-DoorKey-5x5-v0 --base 0.25,0.1 --cand 0.4,0.95 --best-train 0.9748 \\
    --base-files results/sympol-dev-curves.csv,results/sympol-judge-5077.csv,results/sympol-unseen-7011.csv \\
    --cand-files results/sympol-dk-restart-7711.csv,results/sympol-dk-restart-70011.csv
"""
import argparse, math

from rl_floors import FLOOR
from rl_rows import curve_points, delivered, first_rows, restart_check


def load(files, env):
    return first_rows(files.split(","), env,
                      lambda r: r.get("profile", "default") == "default" and int(r["steps"]) == 1_000_000)


def fires(r, after, margin, best_train, below=0):
    """Whether the rule (after, margin, below) may restart the first attempt of
    row r: True where it may, False where it provably does not, None where
    the curve cannot tell (no validation returns, or it ends first).
    AFTER 0 is rl/ppo's "never" (restart_after 0): it does not fire."""
    if after <= 0:
        return False
    pts = curve_points(r)
    if not pts or len(pts[0]) < 5:
        return None
    j = restart_check(pts, after, margin, best_train, below=below)
    return None if j is None else j[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--base", required=True, help="AFTER,MARGIN[,BELOW] of the baseline's rule (BELOW: restart_below)")
    ap.add_argument("--cand", required=True, help="AFTER,MARGIN[,BELOW] of the candidate's rule")
    ap.add_argument("--best-train", type=float, required=True, help="upper bound on one training episode's return")
    ap.add_argument("--fail", type=float, default=0.9, help="count seeds below this too")
    ap.add_argument("--base-files", required=True)
    ap.add_argument("--cand-files", required=True)
    ap.add_argument("--cand-ran-under", help="AFTER,MARGIN[,BELOW] the candidate's files ran under (same AFTER)")
    a = ap.parse_args()
    rules = [tuple(float(x) for x in s.split(",")) for s in (a.base, a.cand)]
    sides = [load(a.base_files, a.env), load(a.cand_files, a.env)]
    if a.cand_ran_under:
        ran = tuple(float(x) for x in a.cand_ran_under.split(","))
        if ran[0] != rules[1][0]:
            ap.error(f"--cand-ran-under {a.cand_ran_under}: its AFTER must be the candidate's ({rules[1][0]:g})")
        c = rules[1]
        for s, r in list(sides[1].items()):
            # keep a row where the candidate's rule fires exactly where that rule restarted
            if fires(r, c[0], c[1], a.best_train, *c[2:]) is not (int(r.get("restarts") or 0) > 0):
                del sides[1][s]
    floor = FLOOR.get(a.env)
    seeds = sorted(set(sides[0]) | set(sides[1]))
    vals = [{}, {}]
    print(f"{a.env}: base rule {a.base}, candidate rule {a.cand}, best training return ≤ {a.best_train}")
    print("| seed | base: delivered | candidate: delivered | candidate's source |")
    print("|---|---|---|---|")
    for s in seeds:
        src = ["", ""]
        for i in (0, 1):
            if s in sides[i]:
                vals[i][s], src[i] = delivered(sides[i][s]), "run"
                continue
            o = sides[1 - i][s]
            # o's own rule did not restart it (it ran under that rule with
            # no restart); this side's rule must provably not fire either.
            rule = rules[i]
            same = int(o.get("restarts") or 0) == 0 and fires(o, rule[0], rule[1], a.best_train, *rule[2:]) is False
            if same:
                vals[i][s], src[i] = delivered(o), "same training (neither rule fires)"
        cells = [f"{vals[i][s]:.4g}" if s in vals[i] else "missing (a rule fires: run it)" for i in (0, 1)]
        print(f"| {s} | {cells[0]} | {cells[1]} | {src[1]} |")
    both = [s for s in seeds if s in vals[0] and s in vals[1]]
    for name, v in (("base", vals[0]), ("candidate", vals[1])):
        xs = [v[s] for s in both]
        if not xs:
            continue
        below = sum(x < a.fail for x in xs)
        under = sum(x < floor for x in xs) if floor is not None else "–"
        print(f"{name}: {len(xs)} seeds, mean {sum(xs) / len(xs):.4f}, min {min(xs):.4f}, below {a.fail}: {below}, below the floor {floor}: {under}")
    d = [vals[1][s] - vals[0][s] for s in both]
    print(f"paired: better on {sum(x > 1e-9 for x in d)}, equal on {sum(abs(x) <= 1e-9 for x in d)}, worse on {sum(x < -1e-9 for x in d)}")


if __name__ == "__main__":
    main()
