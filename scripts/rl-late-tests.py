#!/usr/bin/env python3
"""Summarises SYMPOL studies of one environment (gdt rl bench CSVs with
curves) by what the trainings reach and how steadily, for comparing
training changes on the same seeds:

  delivered  mean / minimum test return of the delivered policy, and how
             many trainings deliver less than SOLVED
  final      the same for the final policy
  val        mean validation return of the delivered policy (the same
             validation episodes per seed in every study)
  late       mean over trainings of the fraction of evaluations in the
             second half of the budget whose policy tests at SOLVED or
             more (the curve's sixth number): 1 means every late policy
             solves the test episodes
  restarts   restarts in all

With --paired, one line per seed and file as well.

Usage: scripts/rl-late-tests.py [--env ID] [--solved X] [--paired] FILE.csv ...
(default env MiniGrid-LavaGapS7-v0, solved 0.9)
"""
import argparse, math

from rl_rows import curve_points, delivered, num, sympol_rows


def load(path, env, solved):
    rows = {}
    for r in sympol_rows(path):
        if r["env"] != env:
            continue
        pts = curve_points(r)
        total = int(r["steps"])
        late = [num(p[5]) for p in pts if len(p) > 5 and int(p[0]) >= total // 2]
        rows[int(r["seed"])] = {
            "delivered": delivered(r),
            "final": num(r["test_return"]),
            "val": num(r.get("best_val_return")),
            "late": sum(x >= solved for x in late) / len(late) if late else math.nan,
            "restarts": int(r.get("restarts") or 0),
        }
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="MiniGrid-LavaGapS7-v0")
    ap.add_argument("--solved", type=float, default=0.9)
    ap.add_argument("--paired", action="store_true")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    studies = [(f, load(f, a.env, a.solved)) for f in a.files]
    print(f"{a.env}: test return ≥ {a.solved} counts as solved")
    print(f"{'file':44} {'n':>3} {'delivered':>9} {'min':>6} {'<solved':>7} {'final':>6} {'<solved':>7} {'val':>6} {'late':>5} {'restarts':>8}")
    for f, rows in studies:
        if not rows:
            print(f"{f:44}   0")
            continue
        n = len(rows)
        col = lambda k: [r[k] for r in rows.values()]
        mean = lambda k: sum(col(k)) / n
        print(f"{f:44} {n:>3} {mean('delivered'):>9.3f} {min(col('delivered')):>6.3f} "
              f"{sum(x < a.solved for x in col('delivered')):>7} {mean('final'):>6.3f} "
              f"{sum(x < a.solved for x in col('final')):>7} {mean('val'):>6.3f} {mean('late'):>5.2f} {sum(col('restarts')):>8}")
    if a.paired:
        seeds = sorted(set().union(*(rows.keys() for _, rows in studies)))
        for s in seeds:
            cells = []
            for f, rows in studies:
                r = rows.get(s)
                cells.append("—" if r is None else
                             f"{r['delivered']:.3f}/{r['final']:.3f} v {r['val']:.2f} late {r['late']:.2f} rs {r['restarts']}")
            print(f"{s:>6}  " + "  |  ".join(cells))


if __name__ == "__main__":
    main()
