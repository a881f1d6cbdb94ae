#!/bin/sh
# Seconds of SYMPOL training on CartPole-v1 with a narrower critic, as a
# ratio to the thesis's 2 × 256 critic on the same seed, the trainings of
# one seed run back to back so that both see the same load:
#
#   scripts/rl-critic-ratio.sh "SEEDS" "WIDTHS" [STEPS]
#   scripts/rl-critic-ratio.sh "95017 142 7011" "128 64"
#
# For each seed it trains the working tree's binary once with
# `--set critic_width=256` and once per width (`gdt rl train --env
# CartPole-v1 --method sympol --seed S --quiet --set critic_width=W`; the
# rest is CartPole's preset) and prints train_seconds (evaluation
# excluded), the ratio to the 256 training's, and the delivered and final
# policies' test returns. Seconds alone depend on the machine's load; the
# ratio is the figure to read on a shared machine.
set -eu
seeds=${1:?seeds} widths=${2:?widths} steps=${3:-1000000}
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d /tmp/gdt-rl-critic-ratio.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
(cd "$top" && go build -o "$tmp/gdt" ./cmd/gdt)
printf '%-7s %-6s %8s %8s %10s %10s\n' seed width train_s ratio delivered final
for s in $seeds; do
	for w in 256 $widths; do
		out="$tmp/run-$s-$w"
		"$tmp/gdt" rl train --env CartPole-v1 --method sympol --steps "$steps" --seed "$s" \
			--set critic_width="$w" --out "$out" --quiet >/dev/null
		python3 - "$s" "$w" "$out/result.json" "$tmp/run-$s-256/result.json" <<'PY'
import json, sys
s, w, path, base = sys.argv[1:5]
r = json.load(open(path))
b = json.load(open(base))
final = r["final"]["test_return"] if r.get("final") else float("nan")  # null: diverged
print("%-7s %-6s %8.1f %8.3f %10.1f %10.1f" % (s, w, r["train_seconds"], r["train_seconds"] / b["train_seconds"], r["test_return"], final))
PY
	done
done
echo "# $(uptime | sed 's/.*load/load/')"
