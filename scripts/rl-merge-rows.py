#!/usr/bin/env python3
"""Merges `gdt rl bench` CSV files of one study into one file that
`gdt rl bench` can resume from (and so render its tables without
training): a later file's row replaces an earlier one's for the same
environment and seed (rl_rows.latest_rows: reruns after a preset change),
and the columns are the union in the order of their first appearance
(older files lack the newer columns, which stay empty).

Usage: scripts/rl-merge-rows.py OUT.csv FILE.csv [RERUN.csv ...]
"""
import csv, sys

from rl_rows import latest_rows


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, files = sys.argv[1], sys.argv[2:]
    cols = []
    for f in files:
        for c in next(csv.reader(open(f))):
            if c not in cols:
                cols.append(c)
    rows = latest_rows(files)
    with open(out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        for r in rows:
            w.writerow({c: r.get(c, "") for c in cols})
    print(f"{len(rows)} rows from {len(files)} files into {out}")


if __name__ == "__main__":
    main()
