#!/bin/sh
# What more validation episodes cost one SYMPOL training: trains the same
# seed alternately under val_episodes A and B (same binary, same training:
# val_episodes does not touch its random streams) and prints per run the
# training seconds (rollouts and updates), the evaluation seconds
# (validation and test episodes), the wall seconds of the command, user
# CPU seconds, the delivered policy's test return and the step it was
# kept at; then the ratios B / A of the means. Alternating keeps the load
# alike for both; run it on an otherwise idle machine for absolute figures.
#
#   scripts/rl-val-cost.sh [ENV] [SEED] [ROUNDS] [A] [B] [STEPS]
#   scripts/rl-val-cost.sh CartPole-v1 88011 2 20 100    # CartPole's 100 validation episodes (session 16)
set -eu
env=${1:-CartPole-v1} seed=${2:-88011} rounds=${3:-2} va=${4:-20} vb=${5:-100} steps=${6:-1000000}
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d /tmp/gdt-rl-val-cost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
(cd "$top" && go build -o "$tmp/gdt" ./cmd/gdt)
printf '%-8s %-5s %9s %8s %8s %8s %10s %10s\n' val_eps round train_s eval_s wall_s user_s delivered best_step
i=1
while [ "$i" -le "$rounds" ]; do
	for v in "$va" "$vb"; do
		out="$tmp/run-$v-$i"
		/usr/bin/time -f '%e %U' -o "$tmp/time" "$tmp/gdt" rl train --env "$env" --method sympol \
			--steps "$steps" --seed "$seed" --set "val_episodes=$v" --out "$out" --quiet >/dev/null
		python3 - "$v" "$i" "$out/result.json" "$tmp/time" >>"$tmp/table" <<'PY'
import json, sys
v, i, path, tpath = sys.argv[1:5]
r = json.load(open(path))
wall, user = open(tpath).read().split()[-2:]
print(f"{v:<8} {i:<5} {r['train_seconds']:9.1f} {r['eval_seconds']:8.2f} {float(wall):8.1f} {float(user):8.1f} "
      f"{r['test_return']:10.4g} {r['step']:>10}")
PY
		tail -n 1 "$tmp/table"
	done
	i=$((i + 1))
done
python3 - "$va" "$vb" "$tmp/table" <<'PY'
import sys
va, vb, path = sys.argv[1:4]
rows = [l.split() for l in open(path)]
def mean(v, k):
    x = [float(r[k]) for r in rows if r[0] == v]
    return sum(x) / len(x)
for k, name in ((2, "train_s"), (3, "eval_s"), (4, "wall_s"), (5, "user_s")):
    print(f"{name}: {mean(va, k):.2f} (val_episodes {va}) → {mean(vb, k):.2f} ({vb}), ratio {mean(vb, k) / mean(va, k):.3f}")
PY
