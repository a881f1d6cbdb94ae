#!/bin/sh
# Greedy return of a trained MiniGrid-LavaGapS7-v0 policy on each of the
# task's 15 layouts (lava column x = 2…4, gap row y = 1…5; layout "24" is
# the gap at (2, 4)), one episode per layout, each on a seed that draws it
# (found with the layouts of `go test -run TestLavaGapS7Layouts -v
# ./rl/env/minigrid`). 0 means the policy fails the layout (lava or time
# limit). The five test episodes (seeds 123456 …) are layouts 24, 24, 21,
# 31, 24, so a policy that fails 24 tests at 0.383 whatever else it solves.
#
#   scripts/rl-lavagap-layouts.sh DIR [--final]    # DIR from gdt rl train
#
# Uses `gdt` from PATH, or GDT=path/to/gdt.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR [--final]" >&2; exit 2; }
dir=$1
shift
gdt=${GDT:-gdt}
line=""
# layout:seed pairs (the seed's first reset draws that layout).
for ls in 21:142 22:155 23:154 24:144 25:147 31:150 32:250 33:359 34:145 35:158 41:156 42:152 43:143 44:257 45:146; do
	l=${ls%%:*} s=${ls#*:}
	r=$("$gdt" rl eval "$dir" --episodes 1 --seed "$s" --json "$@" |
		python3 -c 'import json, sys; print("%.4f" % json.load(sys.stdin)["test_return"])')
	line="$line $l:$r"
done
echo "$dir $*:$line"
