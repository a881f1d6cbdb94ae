#!/usr/bin/env python3
"""Arms of one environment against a baseline on paired seeds (gdt rl
bench CSVs): per arm, over the seeds the baseline and every arm share,
the delivered policy's test return (mean, minimum, count under --level),
the final policy's (the same), the first step whose validation (the
curve's fifth number, the val_episodes mean) reaches --level (median and
maximum over the seeds; "never" counts the trainings that do not), the
training seconds of the rows (load-dependent: compare arms run back to
back for speed) and the paired count of seeds the arm delivers better,
worse or equal on. --per-seed prints each seed's delivered, final and
first step.

Usage: scripts/rl-arm-pair.py --env ENV --level X BASE.csv[,MORE.csv] NAME=ARM.csv[,MORE.csv] ...
Example (CartPole, issue 22 session 17):
  scripts/rl-arm-pair.py --env CartPole-v1 --level 500 \\
    results/sympol-cp-val100-a.csv,results/sympol-cp-val100-b.csv,results/sympol-cp-val100-94917.csv,results/sympol-unseen-95017-cp.csv \\
    w128=results/sympol-cp-critic128.csv w64=results/sympol-cp-critic64.csv
(the first file listing a seed wins).
"""
import argparse, math, statistics

from rl_rows import curve_points, delivered, first_rows, num


def load(spec, env):
    return first_rows(spec.split(","), env, lambda r: r.get("profile", "default") == "default")


def first_at(r, level):
    """The first evaluation step whose validation mean reaches level, or None."""
    for p in curve_points(r):
        if len(p) > 4 and num(p[4]) >= level:
            return int(p[0])
    return None


def summary(name, rows, seeds, level, base=None):
    d = [delivered(rows[s]) for s in seeds]
    f = [num(rows[s]["test_return"]) for s in seeds]
    steps = [first_at(rows[s], level) for s in seeds]
    reached = sorted(x for x in steps if x is not None)
    secs = [num(rows[s]["seconds"]) for s in seeds]
    out = (f"| {name} | {statistics.mean(d):.4g} | {min(d):.4g} | {sum(x < level for x in d)} "
           f"| {statistics.mean(f):.4g} | {min(f):.4g} | {sum(x < level for x in f)} "
           f"| {statistics.median(reached) if reached else '–'} | {max(reached) if reached else '–'} | {len(steps) - len(reached)} "
           f"| {statistics.median(secs):.1f} |")
    if base is None:
        return out + " |"
    better = worse = equal = 0
    for s in seeds:
        x = delivered(rows[s]) - delivered(base[s])
        better, worse, equal = better + (x > 0.005), worse + (x < -0.005), equal + (abs(x) <= 0.005)
    return out + f" {better} / {worse} / {equal} |"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", required=True)
    ap.add_argument("--level", type=float, required=True, help="the return that counts as reached (CartPole: 500)")
    ap.add_argument("--per-seed", action="store_true")
    ap.add_argument("base")
    ap.add_argument("arms", nargs="+", help="NAME=FILE.csv[,MORE.csv]")
    a = ap.parse_args()
    base = load(a.base, a.env)
    arms = []
    for spec in a.arms:
        name, _, files = spec.partition("=")
        arms.append((name, load(files, a.env)))
    seeds = sorted(set(base).intersection(*(set(r) for _, r in arms)))
    if not seeds:
        raise SystemExit("no seed is in the baseline and every arm")
    lv = f"{a.level:g}"
    print(f"{a.env}, {len(seeds)} paired seeds: {seeds[0]} … {seeds[-1]}\n")
    print(f"| arm | delivered mean | min | under {lv} | final mean | min | under {lv} "
          f"| first val ≥ {lv}: median step | max | never | median train s (load-dependent) | better / worse / equal |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(summary("baseline", base, seeds, a.level))
    for name, rows in arms:
        print(summary(name, rows, seeds, a.level, base))
    if a.per_seed:
        print("\n| seed | " + " | ".join(f"{n}: delivered / final / first ≥ {lv}" for n in ["baseline"] + [n for n, _ in arms]) + " |")
        print("|---|" + "---|" * (len(arms) + 1))
        for s in seeds:
            cells = []
            for rows in [base] + [r for _, r in arms]:
                r = rows[s]
                cells.append(f"{delivered(r):.4g} / {num(r['test_return']):.4g} / {first_at(r, a.level) or 'never'}")
            print(f"| {s} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
