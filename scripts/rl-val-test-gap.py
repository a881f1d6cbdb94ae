#!/usr/bin/env python3
"""Evaluations whose validation is high and consistent but whose test is
far below it: per recorded curve point (step train trained applied
selection test sd nodes) of the environment's rows, those with selection
above --above and a validation spread (sd) under --sd, and among them the
ones that test more than --gap below their selection. A policy that
validates alike on many episodes and tests much lower is a test-episode
artefact (the 5 test episodes start from the same states in every run)
or a validation/test difference worth a look.

Usage: scripts/rl-val-test-gap.py --env ENV [--above A] [--sd S] [--gap G] FILE.csv ...
"""
import argparse

from rl_rows import curve_points, num, sympol_rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", required=True)
    ap.add_argument("--above", type=float, default=60)
    ap.add_argument("--sd", type=float, default=5)
    ap.add_argument("--gap", type=float, default=10)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    n, hits = 0, []
    for f in a.files:
        for r in sympol_rows(f):
            if r["env"] != a.env:
                continue
            for p in curve_points(r)[1:]:
                if len(p) < 7:
                    continue
                sel, test, sd = num(p[4]), num(p[5]), num(p[6])
                if sel > a.above and sd < a.sd:
                    n += 1
                    if sel - test > a.gap:
                        hits.append(f"{f} seed {r['seed']} step {p[0]}: selection {sel:.2f} (sd {sd:.2f}), test {test:.2f}")
    print(f"{a.env}: {n} evaluations with selection > {a.above} and sd < {a.sd}; {len(hits)} test more than {a.gap} below")
    for h in hits:
        print("  " + h)


if __name__ == "__main__":
    main()
