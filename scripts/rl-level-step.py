#!/usr/bin/env python3
"""When do SYMPOL trainings reach their level, and what would "two
trainings of half the budget, the best on validation delivered" give if
a half-budget training behaved like the first half of a full one?

Reads gdt rl bench CSVs (curves with seven numbers per point: step train
trained applied selection test sd) of one environment. Per training, the
level step is its first evaluation whose selection (the val_episodes
mean) is within --within of its best selection; the script prints how
many trainings reach their level by each step in --steps.

Then the replay: each curve is cut after --cut steps and delivers there
by today's rule (the last evaluation whose selection is at least every
earlier one's; its test return). "Best of two" draws two different
trainings' cut curves (every ordered pair) and delivers the one with the
higher selection (the second on ties, as a later attempt would be). It
assumes that a training of half the budget is the first half of a full
training: a restarted attempt is not (its schedules, the rollout growth
and ent_decay, run over its own budget), so the replay is an optimistic
estimate, not a result.

Usage: scripts/rl-level-step.py [--env MountainCarContinuous-v0] [--within 3] [--cut 502000] FILE.csv ...
"""
import argparse, itertools, statistics

from rl_rows import curve_points, num, sympol_rows


def cut_delivered(pts, cut):
    """(selection, test) of the evaluation today's rule delivers from the
    points at or before step cut."""
    b = None
    for p in pts:
        if int(p[0]) > cut:
            break
        if b is None or num(p[4]) >= num(b[4]):
            b = p
    return num(b[4]), num(b[5])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="MountainCarContinuous-v0")
    ap.add_argument("--within", type=float, default=3)
    ap.add_argument("--cut", type=int, default=502_000)
    ap.add_argument("--steps", default="200000,300000,400000,502000,600000,700000,800000,1000000")
    ap.add_argument("--below", type=float, default=70, help="also count delivered test returns under this")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    runs = {}
    for f in a.files:
        for r in sympol_rows(f):
            if r["env"] == a.env and r["seed"] not in runs:
                runs[r["seed"]] = curve_points(r)
    if not runs:
        raise SystemExit(f"no {a.env} rows in {a.files}")
    level = []
    for pts in runs.values():
        sel = [num(p[4]) for p in pts]
        top = max(sel)
        level.append(next(int(p[0]) for p, s in zip(pts, sel) if s >= top - a.within))
    print(f"{a.env}: {len(runs)} trainings; reached the level (within {a.within:g} of the best selection) by step:")
    for s in (int(x) for x in a.steps.split(",")):
        print(f"  {s:>8}: {sum(x <= s for x in level)}")
    full = [cut_delivered(p, 1 << 62)[1] for p in runs.values()]
    cut = [cut_delivered(p, a.cut) for p in runs.values()]
    both = []
    for x, y in itertools.permutations(cut, 2):
        both.append(y[1] if y[0] >= x[0] else x[1])

    def line(name, xs):
        return (f"  {name}: mean {statistics.mean(xs):.2f}, under 0 {sum(t < 0 for t in xs) / len(xs):.3f}, "
                f"under {a.below:g} {sum(t < a.below for t in xs) / len(xs):.3f} (fractions)")
    print(line("delivered (full curve)", full))
    print(line(f"cut at {a.cut}", [t for _, t in cut]))
    print(line(f"best of two cut curves ({len(both)} ordered pairs)", both))


if __name__ == "__main__":
    main()
