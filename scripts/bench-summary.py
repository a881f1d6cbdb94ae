#!/usr/bin/env python3
"""Summarise a `gdt bench` CSV per dataset and model: quality against time.

Usage: scripts/bench-summary.py CSV [METRIC]

Prints a Markdown table with, for every (dataset, model) in the file's
order of first appearance: the number of error-free folds, the mean and
standard deviation (ddof = 0, as in `gdt bench`'s tables) of METRIC
(default f1_macro), and the mean, minimum and maximum of fit_seconds (wall
time of each fit as recorded by the bench; `gdt bench` prints the mean
only). Standard library only.
"""
import csv
import statistics
import sys


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    path = sys.argv[1]
    metric = sys.argv[2] if len(sys.argv) == 3 else "f1_macro"
    groups = {}
    with open(path, newline="") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            if row.get("error"):
                continue
            try:
                m, s = float(row[metric]), float(row["fit_seconds"])
            except (KeyError, ValueError) as e:
                sys.exit(f"{path}:{line}: {e}")
            groups.setdefault((row["dataset"], row["model"]), []).append((m, s))
    if not groups:
        sys.exit(f"{path}: no error-free rows")
    print(f"| dataset | model | folds | {metric} | fit seconds, mean | min – max |")
    print("|---|---|---|---|---|---|")
    for (ds, model), rows in groups.items():
        ms = [m for m, _ in rows]
        ss = [s for _, s in rows]
        sd = statistics.pstdev(ms)  # ddof = 0, as the bench tables and the thesis
        print(f"| {ds.split('/')[-1]} | {model} | {len(rows)} | {statistics.mean(ms):.4f} ± {sd:.4f} "
              f"| {statistics.mean(ss):.1f} | {min(ss):.1f} – {max(ss):.1f} |")


if __name__ == "__main__":
    main()
