#!/usr/bin/env python3
"""How one environment's SYMPOL trainings move over the budget, pooled over
`gdt rl bench` files (a later file's row replaces an earlier one's for the
same seed): per 100 k steps of the curves, the mean training return and the
median validation (the curve's selection figure, all val_episodes) and test
return of the evaluated trees; then, over the trainings that did not
restart, how many times rl/ppo's plateau (patience 5, relative tolerance
1e-4, on the 5-episode validation: optim.SYMPOLIntendedPlateau) would halve
the actor's rates and the step of its first halving, and the step of the
delivered (best-validation) evaluation; and the delivered test return of
the trainings that restarted and of those that did not (with --fail X,
how many of each deliver under X). Restarted trainings count in the
per-step table by their curve's steps (their later attempts' evaluations
included).

Usage: scripts/rl-curve-profile.py --env ENV [--fail X] FILE.csv ...
"""
import argparse, collections, statistics

from rl_rows import curve_points, delivered, halvings, latest_rows, num


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--env", required=True)
    ap.add_argument("--fail", type=float)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    rows = [r for r in latest_rows(a.files) if r["env"] == a.env]
    if not rows:
        raise SystemExit(f"no {a.env} rows in {' '.join(a.files)}")
    train, val, test = (collections.defaultdict(list) for _ in range(3))
    for r in rows:
        for p in curve_points(r):
            b = round(int(p[0]) / 100_000)
            if p[1] != "nan":
                train[b].append(num(p[1]))
            val[b].append(num(p[4]))
            test[b].append(num(p[5]))
    print(f"{a.env}: {len(rows)} trainings")
    print(f"{'steps':>7} {'points':>6} {'train mean':>11} {'val median':>11} {'test median':>12}")
    for b in sorted(val):
        tm = statistics.mean(train[b]) if train[b] else float("nan")
        print(f"{b * 100:>6}k {len(val[b]):>6} {tm:>11.1f} {statistics.median(val[b]):>11.1f} {statistics.median(test[b]):>12.1f}")
    single = [r for r in rows if r.get("restarts", "0") in ("0", "")]
    counts = collections.Counter()
    firsts, best = [], []
    for r in single:
        h = halvings(curve_points(r))
        counts[len(h)] += 1
        if h:
            firsts.append(h[0])
        if r.get("best_step"):
            best.append(int(r["best_step"]))
    print(f"\n{len(single)} trainings without a restart")
    print("plateau halvings (count: trainings):", ", ".join(f"{k}: {counts[k]}" for k in sorted(counts)))
    if firsts:
        q = statistics.quantiles(firsts, n=4)
        print(f"first halving: median {statistics.median(firsts):.0f}, quartiles {q[0]:.0f} … {q[2]:.0f}")
    if best:
        print(f"delivered evaluation: median step {statistics.median(best):.0f}, "
              f"{sum(s < 400_000 for s in best)} of {len(best)} before 400 k")

    print()
    for name, group in (("restarted", [r for r in rows if r not in single]), ("not restarted", single)):
        d = [delivered(r) for r in group]
        if not d:
            continue
        under = f", {sum(x < a.fail for x in d)} under {a.fail:g}" if a.fail is not None else ""
        print(f"{name}: {len(d)} trainings, delivered mean {statistics.mean(d):.1f}{under}")


if __name__ == "__main__":
    main()
