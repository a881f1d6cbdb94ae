#!/usr/bin/env python3
"""Time to quality on the 15 GRANDE datasets: mean macro F1 and fit seconds.

Usage: scripts/time-to-quality.py [RESULTS_DIR]

Reads the committed `gdt bench grande` CSVs in RESULTS_DIR (default:
results/ beside this script's folder): grande-default.csv (model grande),
grande-fast.csv (grande-fast), grande-baselines.csv (random-forest, cart),
and prints two Markdown tables: per model the mean over the 15 datasets of
the per-dataset mean macro F1 and of the mean fit seconds per fold (plus
the PhishingWebsites, adult and madelon fit seconds, with CPU seconds in
brackets where recorded), then macro F1 and
fit seconds per dataset. Fit seconds are the wall times the CSVs recorded
(see each file's run conditions in BENCHMARKS.md); where a CSV also has
fit_cpu_seconds (process CPU time during the fit, recorded with
--workers 1), its mean is printed too.

The XGBoost column is not computed here: it quotes issue 18's figures
(XGBClassifier, 1000 rounds with early stopping on the same 10 %
validation split, balanced sample weights, 2 threads; mean macro F1
0.803, 0.49 s mean fit per fold, PhishingWebsites 1.1 s, adult 3.5 s,
madelon 1.4 s) as a reference. Standard library only.
"""
import csv
import os
import statistics
import sys

SOURCES = [  # (file, model name in the file, column title)
    ("grande-default.csv", "grande", "grande (published defaults)"),
    ("grande-fast.csv", "grande-fast", "grande-fast"),
    ("grande-baselines.csv", "random-forest", "random forest"),
    ("grande-baselines.csv", "cart", "CART"),
]
XGBOOST = {"f1": 0.803, "fit": 0.49, "PhishingWebsites": 1.1, "adult": 3.5, "madelon": 1.4}
NAMED = ["PhishingWebsites", "adult", "madelon"]


def load(path, model):
    """Per dataset (short name): lists of f1, fit seconds, CPU seconds."""
    out = {}
    with open(path, newline="") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            if row["model"] != model:
                continue
            if row.get("error"):
                sys.exit(f"{path}:{line}: {model} failed on {row['dataset']}: {row['error']}")
            try:
                f1, fit = float(row["f1_macro"]), float(row["fit_seconds"])
                cpu = float(row["fit_cpu_seconds"]) if row.get("fit_cpu_seconds") else None
            except ValueError as e:
                sys.exit(f"{path}:{line}: {e}")
            d = out.setdefault(row["dataset"].split("/")[-1], ([], [], []))
            d[0].append(f1)
            d[1].append(fit)
            if cpu is not None:
                d[2].append(cpu)
    return out


def main():
    if len(sys.argv) > 2:
        sys.exit(__doc__)
    root = sys.argv[1] if len(sys.argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results")
    cols = []
    for fname, model, title in SOURCES:
        path = os.path.join(root, fname)
        if not os.path.exists(path):
            sys.exit(f"{path}: not found")
        data = load(path, model)
        if len(data) != 15 or any(len(v[0]) != 5 for v in data.values()):
            sys.exit(f"{path}: {model} has {len(data)} datasets with "
                     f"{sorted({len(v[0]) for v in data.values()})} folds: expected 15 × 5")
        cols.append((title, data))
    mean = statistics.mean
    print("| model | mean macro F1 | mean fit s per fold | " + " | ".join(f"{n} fit s" for n in NAMED)
          + " | mean fit CPU s per fold |")
    print("|---|---|---|" + "---|" * len(NAMED) + "---|")
    for title, data in cols:
        f1 = mean(mean(v[0]) for v in data.values())
        fit = mean(mean(v[1]) for v in data.values())
        def cell(n):
            wall, cpu = data[n][1], data[n][2]
            return f"{mean(wall):.1f}" + (f" ({mean(cpu):.1f} CPU)" if len(cpu) == len(wall) else "")
        named = " | ".join(cell(n) for n in NAMED)
        cpu = "–"
        if all(len(v[2]) == len(v[0]) for v in data.values()):
            cpu = f"{mean(mean(v[2]) for v in data.values()):.1f}"
        print(f"| {title} | {f1:.4f} | {fit:.2f} | {named} | {cpu} |")
    named = " | ".join(f"{XGBOOST[n]:.1f}" for n in NAMED)
    print(f"| XGBoost (issue 18, quoted) | {XGBOOST['f1']:.3f} | {XGBOOST['fit']:.2f} | {named} | – |")
    print()
    print("| dataset | " + " | ".join(t for t, _ in cols) + " |")
    print("|---|" + "---|" * len(cols))
    for ds in sorted(cols[0][1], key=str.lower):
        cells = [f"{mean(d[ds][0]):.4f} ({mean(d[ds][1]):.1f} s)" for _, d in cols]
        print(f"| {ds} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
