#!/bin/bash
# Seconds of SYMPOL training per 1 M environment steps, every environment of
# the thesis (spec §8.6: evaluation excluded), one training at a time with
# the thesis's best hyperparameters, seed 142:
#
#   scripts/rl-speed.sh [GDT_BINARY] [STEPS]
#
# Prints one line per environment: train_seconds from result.json scaled to
# 1 M steps, the steps actually trained, and the delivered policy's test
# return. Run it on an
# otherwise idle machine; the figures in BENCHMARKS.md ("seconds per 1 M
# steps, quiet") come from this script.
set -euo pipefail
GDT=${1:-gdt}
STEPS=${2:-1000000}
DIR=$(mktemp -d /tmp/gdt-rl-speed.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
printf '%-32s %10s %12s %10s %12s\n' env seconds/1M steps wall_s test_return
for env in CartPole-v1 Acrobot-v1 MountainCarContinuous-v0 Pendulum-v1 LunarLander-v2 \
  MiniGrid-Empty-Random-6x6-v0 MiniGrid-DoorKey-5x5-v0 MiniGrid-LavaGapS5-v0 \
  MiniGrid-LavaGapS7-v0 MiniGrid-DistShift1-v0; do
  start=$(date +%s.%N)
  "$GDT" rl train --env "$env" --method sympol --steps "$STEPS" --seed 142 --out "$DIR/$env" --quiet >/dev/null
  end=$(date +%s.%N)
  awk -v e="$env" -v s0="$start" -v s1="$end" -F'[:,]' '
    /"train_seconds":/ {t = $2} /"steps":/ {n = $2} /"test_return":/ && !seen {r = $2; seen = 1}
    END {printf "%-32s %10.1f %12d %10.1f %12.3f\n", e, t * 1e6 / n, n, s1 - s0, r}' "$DIR/$env/result.json"
done
