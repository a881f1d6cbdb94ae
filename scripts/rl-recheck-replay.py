#!/usr/bin/env python3
"""Replays choices among the policies a training rechecked (the `recheck`
column `gdt rl bench` writes with the recheck option: each kept
best-validation policy's step, mean and standard deviation on its recheck
episodes), scored on the test returns the curve records at the same
steps, paired on the same trainings.

    scripts/rl-recheck-replay.py [--env ENV] [--val-episodes N] [--recheck-episodes R] [--fail X] FILES

N and R must be the runs' val_episodes and recheck_episodes (the files do
not record them; defaults 20 and 200, LunarLander's studies of session 25).

Rules (K = how many of the latest candidates each rule sees):
  val        the best-validation policy (the last candidate): no recheck
  rK         the highest recheck mean among the latest K (today's rule)
  pooledK    the highest mean over the validation and recheck episodes
             pooled: (N·validation + R·recheck) / (N + R)
  seK        the latest of the K whose recheck mean is within one standard
             error of the highest
Prints, per rule, the mean test return of its choices, the minimum, the
count under --fail and better / worse / equal against rK at the largest K.
"""
import argparse, math, sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from rl_rows import curve_points, latest_rows, num  # noqa: E402


def candidates(r):
    """(step, recheck mean, recheck sd, validation, test) per rechecked
    policy, oldest first; None where the row has no recheck or the curve
    lacks a step."""
    s = r.get("recheck") or ""
    if not s:
        return None
    pts = {int(p[0]): p for p in curve_points(r)}
    out = []
    for c in s.split(";"):
        step, m, sd = c.split()
        p = pts.get(int(step))
        if p is None:
            return None
        out.append((int(step), float(m), float(sd), num(p[4]), num(p[5])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", default="LunarLander-v2")
    ap.add_argument("--val-episodes", type=int, default=20)
    ap.add_argument("--recheck-episodes", type=int, default=200)
    ap.add_argument("--fail", type=float, default=-200)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    rows = [r for r in latest_rows(a.files) if r["env"] == a.env]
    cands = {}
    for r in rows:
        c = candidates(r)
        if c:
            cands[int(r["seed"])] = c
    if not cands:
        sys.exit("no rows with a recheck column")
    kmax = max(len(c) for c in cands.values())
    nv, nr = a.val_episodes, a.recheck_episodes

    def pick_r(c):
        return max(range(len(c)), key=lambda i: (c[i][1], i))

    def pick_pooled(c):
        return max(range(len(c)), key=lambda i: ((nv * c[i][3] + nr * c[i][1]) / (nv + nr), i))

    def pick_se(c):
        t = pick_r(c)
        lim = c[t][1] - c[t][2] / math.sqrt(nr)
        return max(i for i in range(len(c)) if c[i][1] >= lim)

    rules = [("val", lambda c: len(c) - 1)]
    for k in sorted({3, 5, kmax}):
        if k > kmax:
            continue
        rules += [("r%d" % k, lambda c, k=k: len(c) - min(k, len(c)) + pick_r(c[-k:])),
                  ("pooled%d" % k, lambda c, k=k: len(c) - min(k, len(c)) + pick_pooled(c[-k:])),
                  ("se%d" % k, lambda c, k=k: len(c) - min(k, len(c)) + pick_se(c[-k:]))]
    ref = dict(rules)["r%d" % kmax]
    seeds = sorted(cands)
    print("%s: %d trainings with a recheck (most candidates %d)" % (a.env, len(seeds), kmax))
    print("%-10s %9s %9s %6s  %s" % ("rule", "mean", "min", "fail", "better/worse/equal vs r%d" % kmax))
    for name, rule in rules:
        t = [cands[s][rule(cands[s])][4] for s in seeds]
        rt = [cands[s][ref(cands[s])][4] for s in seeds]
        b = sum(x > y + 1e-9 for x, y in zip(t, rt))
        w = sum(x < y - 1e-9 for x, y in zip(t, rt))
        d = [x - y for x, y in zip(t, rt)]
        md = sum(d) / len(d)
        se = math.sqrt(sum((x - md) ** 2 for x in d) / max(1, len(d) - 1) / len(d))
        print("%-10s %9.2f %9.2f %6d  %d/%d/%d  diff %+.2f ± %.2f" % (name, sum(t) / len(t), min(t),
              sum(x < a.fail for x in t), b, w, len(t) - b - w, md, se))


if __name__ == "__main__":
    main()
