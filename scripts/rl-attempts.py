#!/usr/bin/env python3
"""Per attempt of SYMPOL runs that train several times (restart_margin 1:
every attempt restarts, the run delivers the best on validation over all
attempts; Empty-Random's and Acrobot's presets): for each run, each
attempt's best validation mean (Selection, over val_episodes episodes)
and the test return of that evaluation's policy, which attempt the run
delivered, and, beside it, the delivered policy of the same seed in a
BASELINE study (one training per run). Needs curves with seven numbers
per point (step train trained applied selection test sd). An attempt
starts with an evaluation of its fresh policy at the step where the last
one ended (the curve's step does not advance by half an eval_freq;
the row's restarts column says how many such starts to look for).

Usage: scripts/rl-attempts.py [--env ENV] [--baseline B.csv[,MORE.csv]] FILE.csv ...
"""
import argparse, math

from rl_rows import delivered, first_rows, run_attempts, sympol_rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--env", default="Acrobot-v1")
    ap.add_argument("--baseline", default="")
    ap.add_argument("--gap", type=int, default=25_000, help="half of eval_freq")
    ap.add_argument("--digits", type=int, default=1, help="decimals of the returns shown (MiniGrid: 4)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    k = a.digits
    base = {}
    for f in filter(None, a.baseline.split(",")):
        for r in sympol_rows(f):
            base.setdefault((r["env"], int(r["seed"])), delivered(r))
    rows = first_rows(a.files, a.env)
    print(f"{a.env}: per attempt, best validation mean → test return of that policy")
    deliv, first, b = [], [], []
    for seed in sorted(rows):
        r = rows[seed]
        parts = run_attempts(r, a.gap)
        cells, picks = [], []
        for i, at in enumerate(parts):
            # the attempt's own evaluations after its fresh start (attempt 0's
            # first evaluation is its start too)
            cand = at[1:] if len(at) > 1 else at
            s, v, t = max(cand, key=lambda x: x[1])  # the first maximum
            picks.append((v, t))
            cells.append(f"{v:7.{k}f} → {t:6.{k}f}")
        d = delivered(r)
        which = max(range(len(picks)), key=lambda i: (picks[i][0], -i))
        old = base.get((a.env, seed), math.nan)
        deliv.append(d)
        first.append(picks[0][1])
        b.append(old)
        print(f"{seed:6d}  " + " | ".join(cells) + f"   delivered {d:6.{k}f} (attempt {which}, restarts {r['restarts']})   baseline {old:6.{k}f}")
    n = len(deliv)
    if not n:
        return
    mean = lambda x: sum(x) / len(x)
    print(f"\n{n} runs: delivered mean {mean(deliv):.{k + 1}f}, min {min(deliv):.{k}f}; attempt 0 alone (its best on validation) "
          f"mean {mean(first):.{k + 1}f}, min {min(first):.{k}f}")
    pb = [(d, o) for d, o in zip(deliv, b) if not math.isnan(o)]
    if pb:
        print(f"paired with the baseline ({len(pb)} seeds): baseline mean {mean([o for _, o in pb]):.{k + 1}f}, min {min(o for _, o in pb):.{k}f}; "
              f"these runs {mean([d for d, _ in pb]):.{k + 1}f}; better on {sum(d > o for d, o in pb)}, worse on {sum(d < o for d, o in pb)}")


if __name__ == "__main__":
    main()
