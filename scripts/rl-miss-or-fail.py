#!/usr/bin/env python3
"""Sorts the weak trainings of one environment in gdt rl bench CSVs into
selection misses and training failures, from their curves.

Per training (worst delivered first): the delivered policy's test return,
its validation (the curve's fifth number, over ppo's val_episodes), the
best validation at 250 k / 450 k steps, and, where the curve carries every
evaluation's test return (sixth number; files from session 12 on), the
best test return of any evaluation ("oracle": what a perfect choice among
the policies the training had would deliver). A training that delivers
less than --below is a selection miss if some evaluation's policy tests
at --below or more, else a training failure ("?" without test returns).

Usage: scripts/rl-miss-or-fail.py --env ID --below X FILE.csv ...
"""
import argparse, math

from rl_rows import curve_points, delivered, num, sympol_rows


def best_until(pts, step):
    vals = [num(p[4]) for p in pts if len(p) > 4 and int(p[0]) <= step]
    return max(vals) if vals else math.nan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--below", type=float, required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    rows = []
    for f in a.files:
        for r in sympol_rows(f):
            if r["env"] != a.env:
                continue
            pts = curve_points(r)
            tests = [num(p[5]) for p in pts if len(p) > 5]
            oracle = max(tests) if tests else math.nan
            rows.append((delivered(r), r["seed"], num(r.get("best_val_return")), best_until(pts, 260_000),
                         best_until(pts, 460_000), oracle, f))
    rows.sort()
    print(f"{a.env}: {len(rows)} trainings; weak = delivered < {a.below}")
    print(f"{'seed':>6} {'delivered':>9} {'val':>8} {'val@250k':>8} {'val@450k':>8} {'oracle':>8}  kind")
    kinds = {}
    for d, s, v, v25, v45, o, f in rows:
        kind = ""
        if d < a.below:
            kind = "?" if math.isnan(o) else ("selection" if o >= a.below else "training")
            kinds[kind] = kinds.get(kind, 0) + 1
        print(f"{s:>6} {d:9.4g} {v:8.4g} {v25:8.4g} {v45:8.4g} {o:8.4g}  {kind}")
    print("weak:", ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none")


if __name__ == "__main__":
    main()
