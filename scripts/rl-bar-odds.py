#!/usr/bin/env python3
"""How likely one 10-seed sample meets issue 22's bar, per environment.

Pools the delivered test returns of the given `gdt rl bench` files (method
sympol; a later file's row replaces an earlier one's for the same
environment and seed) and draws B samples of 10 seeds with replacement from
each environment's pool: the share of draws whose mean reaches the target
and whose minimum is at or above the floor (rl_floors.TARGET) estimates the
chance that a fresh 10-seed study meets the bar for that environment, with
the pool standing in for the trainings' distribution (its seeds' test
episodes included). The last line multiplies the chances of the
environments printed: the chance that one study meets all of them at once,
the trainings being independent.

Pass only files whose rows were trained under the same preset for an
environment; --envs keeps the environments named (full names or the
abbreviations of `gdt rl bench`).

Usage: scripts/rl-bar-odds.py [--envs AB,LL,...] [--draws B] [--seed S] FILE.csv ...
"""
import argparse, random

from rl_floors import TARGET
from rl_rows import delivered, latest_rows

ABBR = {"AB": "Acrobot-v1", "LL": "LunarLander-v2", "MC-C": "MountainCarContinuous-v0",
        "LG-5": "MiniGrid-LavaGapS5-v0", "DS": "MiniGrid-DistShift1-v0", "CP": "CartPole-v1",
        "PD-C": "Pendulum-v1", "E-R": "MiniGrid-Empty-Random-6x6-v0",
        "DK": "MiniGrid-DoorKey-5x5-v0", "LG-7": "MiniGrid-LavaGapS7-v0"}


def chance(pool, target, floor, draws, rng, k=10):
    hits = 0
    for _ in range(draws):
        s = [rng.choice(pool) for _ in range(k)]
        if sum(s) / k >= target and (floor is None or min(s) >= floor):
            hits += 1
    return hits / draws


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--envs", default="")
    ap.add_argument("--draws", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    keep = {ABBR.get(e, e) for e in a.envs.split(",") if e}
    pools = {}
    for r in latest_rows(a.files):
        if not keep or r["env"] in keep:
            pools.setdefault(r["env"], []).append(delivered(r))
    rng = random.Random(a.seed)
    all_p = 1.0
    print(f"{'env':30} {'pool':>5} {'mean':>9} {'min':>9} {'target':>8} {'floor':>7} {'P(meet)':>8}")
    for env, (target, floor, _) in TARGET.items():
        pool = pools.get(env)
        if not pool:
            continue
        p = chance(pool, target, floor, a.draws, rng)
        all_p *= p
        fl = "–" if floor is None else f"{floor:g}"
        print(f"{env:30} {len(pool):>5} {sum(pool) / len(pool):>9.4g} {min(pool):>9.4g} "
              f"{target:>8g} {fl:>7} {p:>8.3f}")
    print(f"all of the above on one sample: {all_p:.4f}")


if __name__ == "__main__":
    main()
