#!/usr/bin/env python3
"""How much two trainings that share their start share their outcome.

Pairs of `gdt rl bench` files (BASE:ARM) that ran the same seeds of one
environment, where the arm changes the training only after some event
(a plateau option: the two are the same training up to the first
evaluation where their plateaus disagree), are read seed by seed; a pair
counts where its curves first differ at or before --max-diverge steps
(curves that never differ are one training, not two, and are left out).
Prints the 2 × 2 table of failures (delivered test return under --fail)
and the chance that the arm's training fails given that the base's did,
beside the marginal rates: what a protocol that forks one training into
two branches at that point could expect, if branches behave like these
pairs.

Usage: scripts/rl-branch-pairs.py --env ENV --fail X --max-diverge STEP BASE.csv:ARM.csv ...
"""
import argparse, collections

from rl_rows import curve_points, delivered, sympol_rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--env", required=True)
    ap.add_argument("--fail", type=float, required=True)
    ap.add_argument("--max-diverge", type=int, required=True)
    ap.add_argument("pairs", nargs="+")
    a = ap.parse_args()
    tab = collections.Counter()
    for pair in a.pairs:
        base, arm = pair.split(":")
        rows = [{r["seed"]: r for r in sympol_rows(f) if r["env"] == a.env} for f in (base, arm)]
        for seed, rb in rows[0].items():
            ra = rows[1].get(seed)
            if ra is None:
                continue
            div = next((int(x[0]) for x, y in zip(curve_points(rb), curve_points(ra)) if x != y), None)
            if div is None or div > a.max_diverge:
                continue
            tab[(delivered(rb) < a.fail, delivered(ra) < a.fail)] += 1
    n = sum(tab.values())
    if n == 0:
        raise SystemExit("no pair diverges by then")
    fb = tab[(True, True)] + tab[(True, False)]
    fa = tab[(True, True)] + tab[(False, True)]
    print(f"{a.env}: {n} pairs first differing by {a.max_diverge} steps; failure: delivered under {a.fail:g}")
    print(f"  both solve {tab[(False, False)]}, base fails only {tab[(True, False)]}, "
          f"arm fails only {tab[(False, True)]}, both fail {tab[(True, True)]}")
    cond = f"{tab[(True, True)] / fb:.3f}" if fb else "–"
    print(f"  P(base fails) {fb / n:.3f}, P(arm fails) {fa / n:.3f}, P(arm fails | base fails) {cond}")


if __name__ == "__main__":
    main()
