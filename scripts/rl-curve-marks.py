#!/usr/bin/env python3
"""Per training of one environment (gdt rl bench CSVs with curves that
carry the validation mean, fifth number, and the test return, sixth):
the best validation return reached by each of the given steps, the first
step whose policy tests at or above --solved, and the delivered test
return. What a restart rule keyed on validation at a step could see.

Usage: scripts/rl-curve-marks.py --env ENV [--marks 260000,520000] [--solved 0.95] FILE.csv ...
Example (LavaGapS7's 40 baseline trainings):
  scripts/rl-curve-marks.py --env MiniGrid-LavaGapS7-v0 --marks 260000,420000,520000,620000 \\
    results/sympol-dev-curves.csv results/sympol-lg7-base-20011.csv results/sympol-judge-5077.csv results/sympol-unseen-7011.csv
"""
import argparse, statistics

from rl_rows import curve_points, delivered, num, sympol_rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--marks", default="260000,520000")
    ap.add_argument("--solved", type=float, default=0.95)
    ap.add_argument("--fail", type=float, default=0.9, help="a delivered test return below this is a failure")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    marks = [int(m) for m in a.marks.split(",")]
    seen, firsts = set(), []
    best_at = {m: ([], []) for m in marks}  # (solvers, failures)
    print("| file | seed | delivered | " + " | ".join(f"best val ≤ {m // 1000} k" for m in marks) + f" | first test ≥ {a.solved} |")
    print("|---|---|---|" + "---|" * (len(marks) + 1))
    for f in a.files:
        for r in sympol_rows(f):
            if r["env"] != a.env or int(r["steps"]) != 1_000_000 or r["seed"] in seen:
                continue
            pts = curve_points(r)
            if not pts or len(pts[0]) < 5:
                continue
            seen.add(r["seed"])
            d = delivered(r)
            cells = []
            for m in marks:
                b = max(num(p[4]) for p in pts if int(p[0]) <= m)
                best_at[m][d < a.fail].append(b)
                cells.append(f"{b:.2f}")
            first = next((int(p[0]) for p in pts if len(p) > 5 and num(p[5]) >= a.solved), None)
            if first is not None:
                firsts.append(first)
            print(f"| {f.split('/')[-1]} | {r['seed']} | {d:.3f} | " + " | ".join(cells) + f" | {first if first is not None else '–'} |")
    for m in marks:
        s, fl = best_at[m]
        if s and fl:
            print(f"best validation by {m}: delivered ≥ {a.fail}: {min(s):.2f} … {max(s):.2f} ({len(s)}); below: {min(fl):.2f} … {max(fl):.2f} ({len(fl)})")
    if firsts:
        print(f"first test ≥ {a.solved}: {len(firsts)} trainings, {min(firsts)} … {max(firsts)}, median {statistics.median(firsts):.0f}")


if __name__ == "__main__":
    main()
