#!/usr/bin/env python3
"""The delivered tree's size under today's pruning and under the pruning by
visited states, for `gdt rl train` run directories (issue 22, Empty-Random).

    scripts/rl-er-visited.py [--gdt BIN] [--out F.csv] --arm NAME --bench A.csv[,B.csv] DIR... [--arm ...]

For every run DIR (of `gdt rl train ... --out DIR`) it runs

    gdt rl eval DIR --json                   the delivered policy itself
    gdt rl eval DIR --prune full --json      its tree as gdt rl show prints it today
    gdt rl eval DIR --prune visited --json   pruned with the observations of its greedy episodes

and prints, per run, the test return of each and the two trees' node
counts, and whether the run's delivered test return and tree size equal
the bench row of the same seed in the --bench files (best_test_return;
the curve point at best_step holds the delivered tree's pruned nodes).
(Rows written before a84f686 delivered the first of the evaluations that
validate alike, today's code delivers the last: the tree may then differ
while the test return is the same.) Per arm: the mean and maximum node counts and the mean test return.
With --out the per-run table is written as CSV.
"""
import csv, json, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rl_rows import curve_points, delivered, num, sympol_rows  # noqa: E402


def bench_rows(paths):
    rows = {}
    for p in paths:
        for r in sympol_rows(p):
            rows[(r["env"], int(r["seed"]))] = r
    return rows


def delivered_nodes(r):
    step = int(r.get("best_step") or 0)
    for p in curve_points(r):
        if len(p) >= 8 and int(p[0]) == step:
            return int(p[7])
    return None


def run_eval(gdt, d, prune=None):
    cmd = [gdt, "rl", "eval", d, "--json"] + (["--prune", prune] if prune else [])
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def main(argv):
    gdt, out, arms, arm, bench = "gdt", None, [], None, {}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--gdt":
            gdt, i = argv[i + 1], i + 2
        elif a == "--out":
            out, i = argv[i + 1], i + 2
        elif a == "--arm":
            arm = (argv[i + 1], [], {})
            arms.append(arm)
            i += 2
        elif a == "--bench":
            arm[2].update(bench_rows(argv[i + 1].split(",")))
            i += 2
        else:
            arm[1].append(a)
            i += 1
    table = []
    for name, dirs, brows in arms:
        for d in dirs:
            res = json.load(open(os.path.join(d, "result.json")))
            seed = res["seed"]
            actor = run_eval(gdt, d)
            full = run_eval(gdt, d, "full")
            vis = run_eval(gdt, d, "visited")
            v = vis["visits"]
            b = brows.get((res["env"], seed))
            row = {"arm": name, "seed": seed, "test_return": actor["test_return"],
                   "bench_test_return": delivered(b) if b else "", "bench_nodes": delivered_nodes(b) if b else "",
                   "full_nodes": full["tree_nodes"], "full_test_return": full["test_return"],
                   "visited_nodes": vis["tree_nodes"], "visited_test_return": vis["test_return"],
                   "observations": v["observations"], "episodes": v["episodes"],
                   "start_states_seen": v["start_states_seen"], "start_states": v["start_states"], "complete": v["complete"]}
            table.append(row)
            same = ""
            if b:
                same = "test return equals the bench row's" if abs(num(row["bench_test_return"]) - actor["test_return"]) < 1e-6 else "TEST RETURN DIFFERS FROM THE BENCH ROW'S"
                if row["bench_nodes"] not in (None, full["tree_nodes"]):
                    # Rows written before a84f686 delivered the first of the
                    # evaluations that validate alike; today's code the last.
                    same += f" (the row's delivered tree: {row['bench_nodes']} nodes, best_step {b['best_step']})"
            print(f"{name} {seed}: test {actor['test_return']:.4f} (full tree {full['test_return']:.4f}, visited {vis['test_return']:.4f}); "
                  f"nodes full {full['tree_nodes']}, visited {vis['tree_nodes']} ({v['observations']} observations, "
                  f"{v['episodes']} episodes, {v['start_states_seen']}/{v['start_states']} starts); {same}", flush=True)
    for name, _, _ in arms:
        rs = [r for r in table if r["arm"] == name]
        if not rs:
            continue
        mean = lambda k: sum(r[k] for r in rs) / len(rs)
        ne = sum(1 for r in rs if abs(r["visited_test_return"] - r["test_return"]) > 1e-9 or abs(r["full_test_return"] - r["test_return"]) > 1e-9)
        print(f"{name}: {len(rs)} runs; delivered test return {mean('test_return'):.4f}; nodes today's pruning mean {mean('full_nodes'):.1f} "
              f"(max {max(r['full_nodes'] for r in rs)}), visited mean {mean('visited_nodes'):.1f} (max {max(r['visited_nodes'] for r in rs)}); "
              f"pruned trees' test return differs from the policy's on {ne}; all starts covered on {sum(r['complete'] for r in rs)}")
    if out:
        with open(out + ".tmp", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(table[0].keys()))
            w.writeheader()
            w.writerows(table)
        os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main(sys.argv[1:])
