#!/usr/bin/env python3
"""How often is a SYMPOL training's greedy policy "solved" at its evaluations?

    python3 scripts/rl-greedy-stability.py THRESHOLD AFTER_STEP FILE.csv [FILE.csv ...]

Reads `gdt rl bench` CSVs (column "curve": step, training return, validation
return of the trained policy, of the applied policy) and prints, per file and
environment:

* seeds: trainings in the file, and how many of them end with a final
  validation return >= THRESHOLD ("final solved");
* evals: validation evaluations after AFTER_STEP steps, and the fraction of
  them whose greedy validation return is >= THRESHOLD;
* p5: that fraction to the 5th power, the chance that 5 trainings all end
  solved if each final policy were a draw from the late evaluations;
* train: mean training (stochastic policy) return at those evaluations.

Only the standard library is used.
"""
import csv
import sys
from collections import OrderedDict


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    try:
        thr = float(argv[1])
        after = int(argv[2])
    except ValueError:
        sys.exit("THRESHOLD must be a number and AFTER_STEP an integer\n" + __doc__)
    print(f"{'file':<40} {'env':<30} {'seeds':>5} {'final solved':>12} {'evals':>6} {'solved frac':>11} {'p5':>6} {'train':>7}")
    for path in argv[3:]:
        envs = OrderedDict()
        with open(path, newline="") as f:
            for line, row in enumerate(csv.DictReader(f), start=2):
                e = envs.setdefault(row["env"], {"seeds": 0, "final": 0, "evals": 0, "ok": 0, "train": 0.0})
                e["seeds"] += 1
                try:
                    e["final"] += float(row["val_return"]) >= thr
                except ValueError:
                    sys.exit(f"{path}:{line}: column val_return: not a number: {row['val_return']!r}")
                for point in filter(None, row.get("curve", "").split(";")):
                    fields = point.split()
                    if len(fields) != 4:
                        sys.exit(f"{path}:{line}: column curve: point {point!r} does not have 4 numbers")
                    step, train, val = int(fields[0]), float(fields[1]), float(fields[2])
                    if step <= after:
                        continue
                    e["evals"] += 1
                    e["ok"] += val >= thr
                    e["train"] += train
        for env, e in envs.items():
            frac = e["ok"] / e["evals"] if e["evals"] else float("nan")
            train = e["train"] / e["evals"] if e["evals"] else float("nan")
            print(f"{path[-40:]:<40} {env:<30} {e['seeds']:>5} {e['final']:>12} {e['evals']:>6} {frac:>11.2f} {frac**5:>6.2f} {train:>7.3f}")


if __name__ == "__main__":
    main(sys.argv)
