#!/usr/bin/env python3
"""Returns and tree sizes of SYMPOL's delivered policy on
MiniGrid-Empty-Random-6x6 (issue 22, BENCHMARKS.md "Empty-Random, session
15"), paired with a baseline study on the same seeds.

For each study (one or more gdt rl bench CSVs, comma-separated) it prints
the delivered policy's test return (mean, minimum; better / equal / worse
than the baseline's on the seeds both hold), the delivered tree's pruned
nodes (the curve point at best_step: files written since curves count
nodes, an eighth number per point) and the final tree's (tree_nodes).

--delta D replays a smaller-tree tie-break on the curves: among the
evaluations whose validation mean (the curve's selection, over ppo's
val_episodes) is within D of the best one's, deliver the smallest tree
(ties: the higher validation, then the earlier), and score it on the
evaluation's test return (the curve's sixth number, the same five test
episodes as the delivered policy's). D = 0 is the delivered choice
itself (the first evaluation with the best validation). Needs the nodes.

Usage: scripts/rl-er-trees.py [--delta D ...] BASELINE.csv[,MORE.csv] STUDY.csv[,MORE.csv] ...
"""
import math
import sys

from rl_rows import curve_points, delivered, first_rows, num

ENV = "MiniGrid-Empty-Random-6x6-v0"


def load(spec):
    return first_rows(spec.split(","), ENV)


def points(r):
    """(step, selection, test, nodes) per evaluation; nodes None in older files."""
    out = []
    for p in curve_points(r):
        if len(p) < 7:
            continue
        out.append((int(p[0]), num(p[4]), num(p[5]), int(p[7]) if len(p) >= 8 else None))
    return out


def delivered_nodes(r):
    step = int(r.get("best_step") or 0)
    for s, _, _, n in points(r):
        if s == step:
            return n
    return None


def tie_break(r, delta):
    """(test return, nodes) of the smallest tree within delta of the best
    validation; None without node counts."""
    pts = points(r)
    if not pts or any(n is None for *_, n in pts):
        return None
    best = max(sel for _, sel, _, _ in pts if not math.isnan(sel))
    cand = [(n, -sel, i, t) for i, (_, sel, t, n) in enumerate(pts) if sel >= best - delta - 1e-12]
    n, _, _, t = min(cand)
    return t, n


def stats(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "–"
    return f"{sum(xs)/len(xs):.1f} (max {max(xs)})"


def paired(vals, base):
    common = [s for s in vals if s in base]
    b = sum(vals[s] > base[s] + 5e-5 for s in common)
    w = sum(vals[s] < base[s] - 5e-5 for s in common)
    return f"{b}/{len(common) - b - w}/{w}"


def main(args):
    deltas = []
    while args and args[0] == "--delta":
        deltas.append(float(args[1]))
        args = args[2:]
    if len(args) < 1:
        sys.exit(__doc__)
    base = {s: delivered(r) for s, r in load(args[0]).items()}
    print(f"{'study':58} {'seeds':>5} {'mean':>7} {'min':>7} {'b/e/w':>8}  {'nodes':>14}  {'final nodes':>14}")
    for spec in args:
        rows = load(spec)
        d = {s: delivered(r) for s, r in rows.items()}
        v = list(d.values())
        print(f"{spec[-58:]:58} {len(v):5d} {sum(v)/len(v):7.4f} {min(v):7.4f} {paired(d, base):>8}  "
              f"{stats([delivered_nodes(r) for r in rows.values()]):>14}  {stats([int(r['tree_nodes']) for r in rows.values()]):>14}")
        for delta in deltas:
            tb = {s: tie_break(r, delta) for s, r in rows.items()}
            if any(x is None for x in tb.values()):
                print(f"    tie-break {delta}: curves without node counts")
                continue
            t = {s: x[0] for s, x in tb.items()}
            v = list(t.values())
            print(f"{'    smallest tree within ' + str(delta):58} {len(v):5d} {sum(v)/len(v):7.4f} {min(v):7.4f} {paired(t, base):>8}  "
                  f"{stats([x[1] for x in tb.values()]):>14}")
        print("    per seed (delivered, nodes): " + " ".join(
            f"{s}:{d[s]:.4f}/{delivered_nodes(rows[s])}" for s in sorted(rows)))


if __name__ == "__main__":
    main(sys.argv[1:])
