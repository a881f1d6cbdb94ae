#!/usr/bin/env python3
"""Pairs a SYMPOL study run under another val_episodes (the arm) with
baseline trainings of the same seeds, per seed of ENV present in both.

val_episodes changes only which evaluation is delivered (and a restart the
validation decides): the training's random streams do not see it, so
where neither run restarted differently both curves hold the same
policies, and the arm's curve shows how each of the baseline's
evaluations validates on the longer validation. Per seed it prints:

- base: the delivered policy's test return under today's rule (the last
  evaluation whose selection is at least every earlier one), replayed from
  the baseline's curve (exact: the delivered policy is the actor at that
  evaluation, played on the same test episodes), and its step;
- arm: the arm's recorded delivered test return and step, and its
  selection at the step the baseline delivered;
- same: whether the two curves agree in every number but the selection
  mean and spread (the training is the same), else the step where they
  part; the arm's restarts;
- both rows' wall seconds (only comparable for runs made side by side).

Then per arm: mean, minimum and count under --below of the delivered
returns, and the seeds better / worse / equal (within 0.005); and over the
evaluations both curves share (the same policy), how the two validations
sort those that validate at least --below on the baseline's episodes:
how many of them validate that high on the arm's too, and of either
group how many test below --below.

Usage: scripts/rl-val-pair.py --env ENV [--below 500] --base B.csv[,MORE.csv] ARM.csv ...
Example (CartPole under 100 validation episodes, session 16):
  scripts/rl-val-pair.py --env CartPole-v1 --below 500 \\
    --base results/sympol-dev-curves.csv,results/sympol-unseen-7011.csv,results/sympol-unseen-93017-cp.csv,results/sympol-unseen-94017-cp.csv \\
    results/sympol-cp-val100-*.csv
"""
import argparse, math

from rl_rows import curve_points, delivered, delivered_index, first_rows, num


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("--below", type=float, default=500)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    has_curve = lambda r: bool(r["curve"])
    base, arm = first_rows(a.base.split(","), a.env, has_curve), first_rows(a.files, a.env, has_curve)
    print("| seed | base delivered | base step | arm delivered | arm step | arm selection at base step "
          "| same training | arm restarts | base s | arm s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    b_all, r_all = [], []
    grid = {}
    better = worse = equal = 0
    for s in sorted(arm):
        r = arm[s]
        if s not in base:
            print(f"| {s} | no base row | | {delivered(r):.4g} | {r['best_step']} | | | {r.get('restarts', '')} | | {r['seconds']} |")
            continue
        p, q = curve_points(base[s]), curve_points(r)
        if any(len(x) < 7 for x in p):
            raise SystemExit(f"base seed {s}: curve points without test returns (an older file)")
        i = delivered_index(p)
        bd, bstep = num(p[i][5]), p[i][0]
        k = min(len(p[0]), len(q[0]))
        keep = [j for j in range(k) if j not in (4, 6)]
        n = 0
        while n < min(len(p), len(q)) and all(p[n][j] == q[n][j] for j in keep):
            n += 1
        same = "same" if n == len(p) == len(q) else f"parts at {q[n][0] if n < len(q) else 'end'}"
        at = next((x[4] for x in q[:n] if x[0] == bstep), "–")
        for x, y in zip(p[:n], q[:n]):
            if num(x[4]) >= a.below:
                g = grid.setdefault(num(y[4]) >= a.below, [0, 0])
                g[0] += 1
                g[1] += num(x[5]) < a.below
        rd = delivered(r)
        b_all.append(bd)
        r_all.append(rd)
        if abs(rd - bd) <= 0.005:
            equal += 1
        elif rd > bd:
            better += 1
        else:
            worse += 1
        print(f"| {s} | {bd:.4g} | {bstep} | {rd:.4g} | {r['best_step']} | {at} | {same} | "
              f"{r.get('restarts', '')} | {base[s]['seconds']} | {r['seconds']} |")
    if not b_all:
        return
    for name, v in (("base", b_all), ("arm", r_all)):
        print(f"{name}: n {len(v)}, mean {sum(v) / len(v):.4g}, min {min(v):.4g}, under {a.below:g}: "
              f"{sum(x < a.below for x in v)}")
    print(f"arm against base: better {better}, worse {worse}, equal {equal}")
    for hi in (True, False):
        n, low = grid.get(hi, [0, 0])
        print(f"evaluations validating ≥ {a.below:g} on the base's episodes and {'≥' if hi else '<'} {a.below:g} "
              f"on the arm's: {n}, of them testing < {a.below:g}: {low}")


if __name__ == "__main__":
    main()
