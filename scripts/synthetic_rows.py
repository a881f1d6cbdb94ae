"""Writes a synthetic binary-classification CSV (numpy only) for memory and
throughput measurements that need more rows than the benchmark datasets have.

    python3 scripts/synthetic_rows.py 111112 /tmp/big100k.csv

14 standard-normal features x0..x13; y = [x0 + 0.5 x3 - x7 + N(0, 0.5^2) > 0].
"""
import csv
import sys

import numpy as np

n, path = int(sys.argv[1]), sys.argv[2]
r = np.random.default_rng(0)
X = r.normal(size=(n, 14))
y = ((X[:, 0] + 0.5 * X[:, 3] - X[:, 7] + r.normal(scale=0.5, size=n)) > 0).astype(int)
with open(path, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow([f"x{i}" for i in range(14)] + ["y"])
    for i in range(n):
        w.writerow([f"{v:.5f}" for v in X[i]] + [y[i]])
