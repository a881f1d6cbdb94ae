#!/usr/bin/env python3
"""Replays rules for the policy a SYMPOL training delivers on finished
trainings and scores each on the test episodes, paired on the same
trainings. Needs gdt rl bench CSVs whose curve points carry the trained
model's test return and the spread of the validation returns (seven
numbers per point: step train trained applied selection test sd; files
written from session 12 on). The rules see only validation figures
(selection, sd); the test return of the evaluation a rule picks is what
that policy would score, because the delivered policy is a copy of the
actor at that evaluation, played on the same test episodes.

Rules:
  best     the last evaluation whose selection is at least every earlier
           one (gdt's delivered policy since session 15: ties go to the
           later, longer-trained policy)
  first    the first evaluation whose selection beats every earlier one
           (gdt's delivered policy before session 15)
  final    the last evaluation (the final policy)
  se:K     the latest evaluation whose selection is within K standard
           errors (sd/sqrt(n), n = --val-episodes) of the running best at
           its time: among evaluations that validation cannot tell apart,
           the most trained one
  lcb:K    the first evaluation with the highest lower bound selection −
           K standard errors: of two policies that validate alike, the
           steadier one
  from:F   "best" among the evaluations at or after F·1 M steps only (the
           last evaluation if none): fewer, longer-trained candidates
  oracle   the evaluation whose policy tests best (not a rule: it looks at
           the test; how much a perfect selection could add)

Usage: scripts/rl-selection-replay.py [--val-episodes 20] [--rules best,final,se:1,lcb:1] FILE.csv ...
Prints per environment the mean and minimum test return and the count of
trainings under issue 22's floors, per rule.
"""
import argparse, csv, math

from rl_floors import FLOOR
from rl_rows import curve_points


def load(files):
    runs = {}
    for f in files:
        for r in csv.DictReader(open(f)):
            if r["method"] != "sympol" or r.get("variant") or r.get("error") or not r["curve"]:
                continue
            pts = curve_points(r)
            if any(len(p) < 7 for p in pts):
                raise SystemExit(f"{f}: {r['env']} seed {r['seed']}: curve points without test returns (an older file)")
            k = (r["env"], int(r["seed"]))
            if k in runs:
                continue
            runs[k] = c = [(float(p[4]), float(p[5]), float(p[6]), int(p[0])) for p in pts]
            # The policy the training delivered must be one of the two
            # replayed rules gdt has used ("first" before session 15).
            got = {c[pick(c, rule, 1)][1] for rule in ("best", "first")}
            if r.get("best_test_return") and float(r["best_test_return"]) not in got:
                raise SystemExit(f"{f}: {k}: replayed best / first score {sorted(got)}, "
                                 f"the delivered policy {r['best_test_return']}")
    return runs


def pick(curve, rule, n):
    if rule == "final":
        return len(curve) - 1
    if rule == "oracle":
        return max(range(len(curve)), key=lambda i: curve[i][1])
    if rule.startswith("from:"):
        lo = float(rule[5:]) * 1_000_000
        late = [i for i, p in enumerate(curve) if p[3] >= lo]
        if not late:
            return len(curve) - 1
        b = late[0]
        for i in late:
            if curve[i][0] >= curve[b][0]:
                b = i
        return b
    if rule in ("best", "first"):
        b = 0
        for i, (s, _, _, _) in enumerate(curve):
            if s > curve[b][0] or (rule == "best" and s == curve[b][0]):
                b = i
        return b
    if rule.startswith("se:"):
        k = float(rule[3:])
        top, chosen = 0, 0
        for i, (s, _, _, _) in enumerate(curve):
            if s > curve[top][0]:
                top = chosen = i
            elif i > 0 and s >= curve[top][0] - k * curve[top][2] / math.sqrt(n):
                chosen = i
        return chosen
    if rule.startswith("lcb:"):
        k = float(rule[4:])
        lcb = [sel - k * sd / math.sqrt(n) for sel, _, sd, _ in curve]
        return lcb.index(max(lcb))
    raise SystemExit(f"unknown rule {rule!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--val-episodes", type=int, default=20)
    ap.add_argument("--rules", default="best,first,final,se:1,se:2,lcb:1,lcb:2")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    rules = a.rules.split(",")
    runs = load(a.files)
    envs = sorted({e for e, _ in runs})
    print(f"{'env':30} {'n':>3} " + " ".join(f"{r:>22}" for r in rules))
    print(f"{'':30} {'':>3} " + " ".join(f"{'mean / min / failed':>22}" for _ in rules))
    for env in envs:
        seeds = sorted(s for e, s in runs if e == env)
        cells = []
        for rule in rules:
            t = [runs[(env, s)][pick(runs[(env, s)], rule, a.val_episodes)][1] for s in seeds]
            fl = FLOOR.get(env)
            failed = "–" if fl is None else str(sum(v < fl for v in t))
            cells.append(f"{sum(t) / len(t):>9.4g} {min(t):>8.4g} {failed:>3}")
        print(f"{env:30} {len(seeds):>3} " + " ".join(cells))


if __name__ == "__main__":
    main()
