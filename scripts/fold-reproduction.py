#!/usr/bin/env python3
"""Check that `gdt bench` rows reproduce a reference CSV fold by fold.

Usage: scripts/fold-reproduction.py REFERENCE_CSV MODEL NEW_CSV [NEW_CSV ...] [--metric M] [--tol T]

Matches every (dataset, trial) row of MODEL in the NEW files against the
REFERENCE file's row of the same model, dataset and trial, and prints per
dataset: the folds compared, how many have the identical METRIC (default
f1_macro, compared at the CSV's printed precision), the reference and new
means and their difference; each fold that moved is listed. Then the mean
over the datasets present in both (each dataset's mean over its folds, the
way `gdt bench` averages a suite) and whether its difference is within T
(default 0.002). A dataset whose fold set differs from the reference is
named and left out of the overall mean. Exits 1 if the difference exceeds
T or no dataset matches. Standard library only.
"""
import csv
import statistics
import sys


def rows(path, model, metric):
    out = {}
    for r in csv.DictReader(open(path, newline="")):
        if r["model"] != model or r.get("error"):
            continue
        out[(r["dataset"], int(r["trial"]))] = r[metric]
    return out


def main():
    args, metric, tol = [], "f1_macro", 0.002
    it = iter(sys.argv[1:])
    for a in it:
        if a == "--metric":
            metric = next(it)
        elif a == "--tol":
            tol = float(next(it))
        else:
            args.append(a)
    if len(args) < 3:
        sys.exit(__doc__)
    ref_path, model, new_paths = args[0], args[1], args[2:]
    ref = rows(ref_path, model, metric)
    new = {}
    for p in new_paths:
        new.update(rows(p, model, metric))
    datasets = sorted({d for d, _ in new})
    ref_means, new_means = [], []
    print("| dataset | folds | identical | reference mean | new mean | difference |")
    print("|---|---|---|---|---|---|")
    moved = []
    for d in datasets:
        folds = sorted(t for dd, t in new if dd == d)
        ref_folds = sorted(t for dd, t in ref if dd == d)
        if folds != ref_folds:
            print("| %s | %s vs reference %s: not compared | | | | |" % (d, folds, ref_folds))
            continue
        same = sum(1 for t in folds if float(ref[(d, t)]) == float(new[(d, t)]))
        for t in folds:
            if float(ref[(d, t)]) != float(new[(d, t)]):
                moved.append("%s fold %d: %s -> %s" % (d, t, ref[(d, t)], new[(d, t)]))
        rm = statistics.fmean(float(ref[(d, t)]) for t in folds)
        nm = statistics.fmean(float(new[(d, t)]) for t in folds)
        ref_means.append(rm)
        new_means.append(nm)
        print("| %s | %d | %d | %.4f | %.4f | %+.4f |" % (d, len(folds), same, rm, nm, nm - rm))
    if not ref_means:
        sys.exit("no dataset of model %s matches the reference" % model)
    for m in moved:
        print("moved:", m)
    r, n = statistics.fmean(ref_means), statistics.fmean(new_means)
    ok = abs(n - r) <= tol
    print("mean over %d datasets: reference %.4f, new %.4f, difference %+.4f (tolerance %.3f: %s)"
          % (len(ref_means), r, n, n - r, tol, "within" if ok else "EXCEEDED"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
