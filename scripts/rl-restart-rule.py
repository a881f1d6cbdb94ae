#!/usr/bin/env python3
"""Replays rl/ppo's restart rule (restart_after, restart_margin) on the
learning curves of finished SYMPOL trainings (gdt rl bench CSVs, column
"curve": step, recent training return, validation return, applied) and
lists the trainings it would have restarted.

The curves hold the mean of the last 20 training episodes, not the best
single training episode the rule uses, and, in files written before the
fifth curve number existed, the thesis's 5-episode validation returns
instead of the mean over ppo's val_episodes (used where present), so
this is an approximation: the best training episode is at least the
recent mean, so the real rule's scale is at least as large.

--best-train X uses X as every training's best training episode instead
(where it is known: Pendulum's best episode returns about −2 on every
seed, read from the trainings' checkpoints, far above the recent mean).

Usage: scripts/rl-restart-rule.py [--after F] [--margin M] [--below L] [--best-train X] [FILE.csv[:ENV,ENV] ...]
Default files: the development studies on seeds 142 … 1042 of all ten
environments (results/sympol-delivered-dev.csv, -10seeds.csv, -control.csv
(Pendulum), -cp-minigrid.csv (CartPole, Empty-Random, DoorKey, LavaGapS7)).
"""
import argparse, csv

from rl_rows import curve_points, restart_check

DEFAULT = [
    ("results/sympol-delivered-dev.csv", None),
    ("results/sympol-10seeds.csv", None),
    ("results/sympol-control.csv", {"Pendulum-v1"}),
    ("results/sympol-cp-minigrid.csv", {"CartPole-v1", "MiniGrid-Empty-Random-6x6-v0",
                                        "MiniGrid-DoorKey-5x5-v0", "MiniGrid-LavaGapS7-v0"}),
]


def load(files):
    runs = {}
    for f, envs in files:
        for r in csv.DictReader(open(f)):
            if r["method"] != "sympol" or r.get("variant") or r.get("profile", "default") != "default":
                continue
            if envs and r["env"] not in envs:
                continue
            runs.setdefault((r["env"], int(r["seed"])), curve_points(r))  # the first file wins
    return runs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--after", type=float, default=0.25)
    ap.add_argument("--margin", type=float, default=0.1)
    ap.add_argument("--below", type=float, default=0, help="restart_below (0: none)")
    ap.add_argument("--total", type=int, default=1_000_000)
    ap.add_argument("--best-train", type=float, default=None)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = DEFAULT
    if a.files:
        files = []
        for f in a.files:
            name, _, envs = f.partition(":")
            files.append((name, set(envs.split(",")) if envs else None))
    runs = load(files)
    per_env = {}
    for (env, seed), c in sorted(runs.items()):
        per_env.setdefault(env, []).append(seed)
    print(f"restart_after {a.after}, restart_margin {a.margin}: {len(runs)} trainings")
    for env, seeds in sorted(per_env.items()):
        hit = []
        for s in seeds:
            j = restart_check(runs[(env, s)], a.after, a.margin, a.best_train, a.total, a.below)
            if j and j[1]:
                hit.append(f"{s} (step {j[0]}: gain {j[2]:.3g} of {j[3]:.3g})")
        print(f"{env}: {len(seeds)} seeds, restarted {len(hit)}" + (": " + "; ".join(hit) if hit else ""))


if __name__ == "__main__":
    main()
