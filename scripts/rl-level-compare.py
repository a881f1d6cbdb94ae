#!/usr/bin/env python3
"""Pairs two arms of a study by seed on the delivered policy's level (the
`level` column of `gdt rl bench --level N`: its mean return on N level
episodes shared by every training) and on its test return, per
environment: both arms' means, the mean of the per-seed differences (ARM −
BASE) with its standard error, and on how many seeds the arm is higher or
lower. Each side may be several files (comma-separated; a later file's row
replaces an earlier one's for the same environment and seed). Only seeds
present on both sides with a level on both are paired.

Usage: scripts/rl-level-compare.py BASE.csv[,MORE.csv] ARM.csv[,MORE.csv]
"""
import math, statistics, sys

from rl_rows import delivered, latest_rows


def level(r):
    f = (r.get("level") or "").split()
    return float(f[0]) if len(f) == 3 else math.nan


def paired(xs, ys):
    d = [y - x for x, y in zip(xs, ys)]
    se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else math.nan
    return statistics.mean(xs), statistics.mean(ys), statistics.mean(d), se, sum(v > 0 for v in d), sum(v < 0 for v in d)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base = {(r["env"], r["seed"]): r for r in latest_rows(sys.argv[1].split(","))}
    arm = {(r["env"], r["seed"]): r for r in latest_rows(sys.argv[2].split(","))}
    for env in sorted({e for e, _ in arm}):
        keys = [k for k in arm if k[0] == env and k in base and not math.isnan(level(base[k])) and not math.isnan(level(arm[k]))]
        if not keys:
            print(f"{env}: no seed with a level on both sides")
            continue
        keys.sort(key=lambda k: int(k[1]))
        for what, f in (("level", level), ("test", delivered)):
            b, a, d, se, hi, lo = paired([f(base[k]) for k in keys], [f(arm[k]) for k in keys])
            print(f"{env} {what} ({len(keys)} seeds): arm {a:.2f} against base {b:.2f}, difference {d:+.2f} (se {se:.2f}), higher on {hi}, lower on {lo}")


if __name__ == "__main__":
    main()
