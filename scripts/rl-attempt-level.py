#!/usr/bin/env python3
"""Where a SYMPOL run that trains several times (restart_margin 1: every
attempt restarts; Acrobot's and Empty-Random's presets) gets its level,
read from recorded curves, no training:

1. per evaluation of an attempt (its 1st, 2nd, ... evaluation after its
   fresh start; the runs' last attempt, which takes what is left of the
   budget, apart): the mean validation (Selection, over val_episodes
   episodes) and test return over the attempts that learned (best
   validation above --floor), and how many attempts reach their best
   validation there: still rising at the end, or flat early;
2. the run replayed as the best on validation over its first k attempts,
   each cut after its first n evaluations (k·n·eval_freq steps of
   training): the delivered policy's test and validation means and the
   test minimum;
3. the test return minus the validation mean, over every learned
   evaluation and over the delivered policies (the five test episodes
   start from the same five states in every run, seeds test_seed …);
5. with --vs-first BASE.csv[,MORE.csv]: FILES are runs of one training
   each (e.g. --steps 200000 --set restart_after=0: the schedule of
   rl/ppo's dynamic buffer compressed into 200 k steps), paired by seed
   with the first attempt of BASE's run: best validation, the test
   return of the policy rl/ppo would deliver, and the mean validation
   of evaluations 2 … 4, in each;
6. with --vs BASE.csv[,MORE.csv]: FILES's runs paired by seed with
   BASE's (both under a several-attempt protocol): the delivered policy's
   validation (over val_episodes episodes; less noisy than its test) and
   test return, and the mean over attempts that learned of each
   attempt's best validation (the trainings' level);
4. with --single FILES (one training of the whole budget per run, any
   val_episodes): the mean validation and test return by 100 k steps
   over the trainings that learned.

Usage: scripts/rl-attempt-level.py [--env ENV] [--single A.csv,B.csv] FILE.csv ...
       scripts/rl-attempt-level.py [--env ENV] --vs-first BASE.csv[,MORE.csv] FILE.csv ...
       scripts/rl-attempt-level.py [--env ENV] --vs BASE.csv[,MORE.csv] FILE.csv ...
Example (Acrobot's four samples under its preset, and older 1 M curves):
  scripts/rl-attempt-level.py results/sympol-unseen-40013-ab.csv \\
    results/sympol-unseen-93017.csv results/sympol-unseen-95017.csv results/sympol-unseen-96017.csv \\
    --single results/sympol-judge-5077.csv,results/sympol-unseen-7011.csv,results/sympol-unseen-40013.csv,results/sympol-dev-curves.csv
"""
import argparse
import statistics as st
from collections import defaultdict

from rl_rows import curve_points, delivered, first_rows, num, run_attempts



def own(at):
    """An attempt's evaluations after its fresh start (step, selection, test)."""
    return at[1:] if len(at) > 1 else at


def pick(c):
    """(validation, test) of the evaluation rl/ppo delivers among c: the
    last one whose validation is at least every earlier one's."""
    b = 0
    for j, x in enumerate(c):
        if x[1] >= c[b][1]:
            b = j
    return c[b][1], c[b][2]


def first_attempt(r, gap):
    """(best validation, delivered test, mean validation of evaluations
    2 … 4) of a run's first attempt."""
    at = own(run_attempts(r, gap)[0])
    v, t = pick(at)
    return v, t, st.mean(x[1] for x in at[1:4])


def vs_first(a, rows):
    base = first_rows(a.vs_first.split(","), a.env)
    seeds = sorted(set(rows) & set(base))
    if not seeds:
        raise SystemExit(f"no seed of {a.env} in both FILES and {a.vs_first}")
    print(f"{a.env}: {len(seeds)} seeds, one training (FILES) against the first attempt of BASE")
    print("| seed | best validation | base | delivered test | base | validation evals 2–4 | base |")
    print("|---|---|---|---|---|---|---|")
    cols = []
    for s in seeds:
        x, y = first_attempt(rows[s], a.gap), first_attempt(base[s], a.gap)
        cols.append(x + y)
        print(f"| {s} | {x[0]:.2f} | {y[0]:.2f} | {x[1]:.1f} | {y[1]:.1f} | {x[2]:.2f} | {y[2]:.2f} |")
    m = [st.mean(c[i] for c in cols) for i in range(6)]
    print(f"| mean | {m[0]:.2f} | {m[3]:.2f} | {m[1]:.2f} | {m[4]:.2f} | {m[2]:.2f} | {m[5]:.2f} |")
    better = sum(c[0] > c[3] for c in cols)
    under = sum(c[0] <= a.floor for c in cols), sum(c[3] <= a.floor for c in cols)
    print(f"best validation higher on {better} of {len(cols)}; not learned (best validation ≤ {a.floor:g}): {under[0]} against {under[1]}")
    d = [c[0] - c[3] for c in cols if c[0] > a.floor and c[3] > a.floor]
    if len(d) > 1:
        print(f"best validation, both learned (n {len(d)}): mean difference {st.mean(d):+.2f} (se {st.stdev(d) / len(d) ** 0.5:.2f})")


def run_level(r, a):
    """(delivered validation, delivered test, mean over learned attempts
    of their best validation) of a run."""
    parts = run_attempts(r, a.gap)
    v, t = pick([x for at in parts for x in own(at)])
    bests = [max(x[1] for x in own(at)) for at in parts]
    learned = [b for b in bests if b > a.floor]
    return v, t, st.mean(learned) if learned else float("nan")


def vs_runs(a, rows):
    base = first_rows(a.vs.split(","), a.env)
    seeds = sorted(set(rows) & set(base))
    if not seeds:
        raise SystemExit(f"no seed of {a.env} in both FILES and {a.vs}")
    cols = [run_level(rows[s], a) + run_level(base[s], a) for s in seeds]
    print(f"{a.env}: {len(seeds)} paired seeds (FILES against BASE)")
    def not_learned(r):
        parts = run_attempts(r, a.gap)
        return sum(max(x[1] for x in own(at)) <= a.floor for at in parts), len(parts)
    nf, nb = [not_learned(rows[s]) for s in seeds], [not_learned(base[s]) for s in seeds]
    print(f"attempts that never learned (best validation ≤ {a.floor:g}): {sum(x[0] for x in nf)} of {sum(x[1] for x in nf)} "
          f"against {sum(x[0] for x in nb)} of {sum(x[1] for x in nb)}")
    names = ("delivered validation", "delivered test", "attempts' best validation (learned)")
    for i, n in enumerate(names):
        d = [c[i] - c[i + 3] for c in cols]
        se = f" (se {st.stdev(d) / len(d) ** 0.5:.2f})" if len(d) > 1 else ""
        print(f"{n}: {st.mean(c[i] for c in cols):.2f} against {st.mean(c[i + 3] for c in cols):.2f}, "
              f"difference {st.mean(d):+.2f}{se}, higher on {sum(x > 0 for x in d)}, lower on {sum(x < 0 for x in d)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="Acrobot-v1")
    ap.add_argument("--gap", type=int, default=25_000, help="half of eval_freq")
    ap.add_argument("--floor", type=float, default=-150, help="an attempt learned when its best validation is above it")
    ap.add_argument("--single", default="", help="comma-separated files of one-training runs")
    ap.add_argument("--vs", default="", help="comma-separated baseline files (see 6.)")
    ap.add_argument("--vs-first", default="", help="comma-separated baseline files (see 5.)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    rows = first_rows(a.files, a.env)
    if a.vs_first:
        vs_first(a, rows)
        return
    if a.vs:
        vs_runs(a, rows)
        return
    runs = {s: run_attempts(r, a.gap) for s, r in rows.items()}

    print(f"{a.env}: {len(runs)} runs, {sum(len(p) for p in runs.values())} attempts")
    print("\n1. per evaluation of an attempt (learned attempts): mean validation, mean test, attempts whose best validation is there")
    sel, tst, best = defaultdict(list), defaultdict(list), defaultdict(int)
    for parts in runs.values():
        for i, at in enumerate(parts):
            c = own(at)
            b = max(range(len(c)), key=lambda j: c[j][1])  # the first maximum
            if c[b][1] <= a.floor:
                continue
            key = "last" if i == len(parts) - 1 else "earlier"
            best[(key, b)] += 1
            for j, (_, v, t) in enumerate(c):
                sel[(key, j)].append(v)
                tst[(key, j)].append(t)
    print("| attempts | evaluation | n | validation | test | best here |")
    print("|---|---|---|---|---|---|")
    for k in sorted(sel, key=lambda k: (k[0] == "last", k[1])):
        print(f"| {k[0]} | {k[1] + 1} | {len(sel[k])} | {st.mean(sel[k]):.2f} | {st.mean(tst[k]):.2f} | {best.get(k, 0)} |")

    print("\n2. best on validation over the first k attempts, each cut after n evaluations")
    print("| k | n | test mean | test min | validation mean |")
    print("|---|---|---|---|---|")
    maxn = max(len(own(at)) for p in runs.values() for at in p)
    for k in range(1, max(len(p) for p in runs.values()) + 1):
        for n in list(range(1, 5)) + ([maxn] if maxn > 4 else []):
            t_, v_ = [], []
            for parts in runs.values():
                c = [x for at in parts[:k] for x in own(at)[:n]]
                v, t = pick(c)
                t_.append(t)
                v_.append(v)
            print(f"| {k} | {n if n <= 4 else 'all'} | {st.mean(t_):.2f} | {min(t_):.1f} | {st.mean(v_):.2f} |")

    print("\n3. test minus validation")
    d_all = [x[2] - x[1] for p in runs.values() for at in p for x in own(at) if x[1] > a.floor]
    dv, dt = [], []
    for s, r in rows.items():
        parts = runs[s]
        c = [x for at in parts for x in own(at)]
        v, t = pick(c)
        dv.append(v)
        dt.append(t)
    print(f"every learned evaluation (n {len(d_all)}): mean {st.mean(d_all):+.2f} (sd {st.stdev(d_all):.1f})")
    print(f"delivered (n {len(dv)}): validation {st.mean(dv):.2f}, "
          f"test {st.mean(dt):.2f} (row's delivered {st.mean(delivered(r) for r in rows.values()):.2f}), "
          f"test − validation {st.mean(dt) - st.mean(dv):+.2f}")

    if a.single:
        print("\n4. one-training runs: mean validation / test by 100 k steps (trainings that learned)")
        for f in a.single.split(","):
            srows = first_rows([f], a.env)
            by = defaultdict(lambda: ([], []))
            n = 0
            for r in srows.values():
                if int(r.get("restarts") or 0) > 0:
                    continue
                pts = curve_points(r)
                # validation: the selection (5th number) where recorded, else
                # the 5-episode one (3rd); older files record no test return
                val = lambda p: num(p[4]) if len(p) > 4 else num(p[2])
                test = lambda p: num(p[5]) if len(p) > 5 else float("nan")
                if not pts or max(val(p) for p in pts) <= a.floor:
                    continue
                n += 1
                for p in pts[1:]:
                    b = round(int(p[0]) / 100_000)
                    by[b][0].append(val(p))
                    by[b][1].append(test(p))
            print(f"{f} ({n} trainings): " + " ".join(
                f"{b * 100}k {st.mean(v[0]):.1f}/{st.mean(v[1]):.1f}" for b, v in sorted(by.items())))


if __name__ == "__main__":
    main()
