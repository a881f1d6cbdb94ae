#!/usr/bin/env python3
"""Compare two models of a `gdt bench` CSV dataset by dataset.

Usage: scripts/grande-pair.py CSV MODEL_A MODEL_B [METRIC]

For every dataset where both models have the same number of folds, prints
the mean METRIC (default f1_macro) of each model and the difference, then
the mean over those datasets, the win/loss count and the two-sided exact
Wilcoxon signed-rank p-value of the per-dataset differences (all 2^n sign
assignments enumerated; zero differences dropped, tied ranks averaged).
Standard library only.
"""
import collections
import csv
import itertools
import sys


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def wilcoxon_exact(diffs):
    d = [x for x in diffs if x != 0]
    n = len(d)
    if n == 0:
        return 1.0, 0.0, 0.0
    r = ranks([abs(x) for x in d])
    wp = sum(rk for rk, x in zip(r, d) if x > 0)
    total = sum(r)
    wm = total - wp
    stat = min(wp, wm)
    hits = 0
    for signs in itertools.product((0, 1), repeat=n):
        w = sum(rk for rk, s in zip(r, signs) if s)
        if min(w, total - w) <= stat + 1e-9:
            hits += 1
    return hits / 2 ** n, wp, wm


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    path, a, b = sys.argv[1:4]
    metric = sys.argv[4] if len(sys.argv) == 5 else "f1_macro"
    vals = collections.defaultdict(list)
    with open(path, newline="") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            if row.get("error"):
                continue
            try:
                vals[(row["dataset"], row["model"])].append(float(row[metric]))
            except (KeyError, ValueError) as e:
                sys.exit(f"{path}:{line}: column {metric!r}: {e}")
    datasets = sorted({ds for ds, _ in vals})
    diffs, ma, mb, lines = [], [], [], []
    for ds in datasets:
        xa, xb = vals.get((ds, a), []), vals.get((ds, b), [])
        if not xa or len(xa) != len(xb):
            continue
        va, vb = sum(xa) / len(xa), sum(xb) / len(xb)
        ma.append(va)
        mb.append(vb)
        diffs.append(va - vb)
        lines.append(f"| {ds.split('/')[-1]} | {va:.4f} | {vb:.4f} | {va - vb:+.4f} |")
    if not diffs:
        sys.exit(f"{path}: no dataset with the same number of folds for {a} and {b}")
    print(f"| dataset | {a} | {b} | difference |")
    print("|---|---|---|---|")
    print("\n".join(lines))
    n = len(diffs)
    p, wp, wm = wilcoxon_exact(diffs)
    print(f"| **mean ({n})** | {sum(ma) / n:.4f} | {sum(mb) / n:.4f} | {(sum(ma) - sum(mb)) / n:+.4f} |")
    wins = sum(1 for x in diffs if x > 0)
    losses = sum(1 for x in diffs if x < 0)
    print()
    print(f"{a} ahead on {wins}, behind on {losses}, tied on {n - wins - losses} of {n} datasets; "
          f"Wilcoxon signed-rank W+ = {wp:g}, W- = {wm:g}, exact two-sided p = {p:.3f}")


if __name__ == "__main__":
    main()
