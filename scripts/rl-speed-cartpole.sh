#!/bin/sh
# Seconds of SYMPOL training per 1 M CartPole-v1 steps (issue 22's target:
# ≤ 20 s on 2 cores, test return 500), for the working tree and an older
# commit, alternately, so the ratio is measured under the same load:
#
#   scripts/rl-speed-cartpole.sh [OLD_COMMIT] [ROUNDS] [STEPS]
#   scripts/rl-speed-cartpole.sh 1b8296d 2            # the command for a quiet machine
#
# Each round trains once with each binary (`gdt rl train --env CartPole-v1
# --method sympol --steps STEPS --seed 142 --quiet`, each commit's own
# CartPole preset: since session 17 a 2 × 64 critic, before it the
# thesis's 2 × 256, e.g. at 21e8395) and prints train_seconds (evaluation excluded, spec
# §8.6) scaled to 1 M steps, the wall seconds of the whole command, user
# CPU seconds and the delivered and final policies' test returns; then one
# more training of the working tree prints the helper pool's counters
# (whether the second core was used, and if not why). Run it on an
# otherwise idle machine for absolute figures.
set -eu
old=${1:-1b8296d} rounds=${2:-2} steps=${3:-1000000}
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d /tmp/gdt-rl-speed-cp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
git -C "$top" archive "$old" | tar -x -C "$tmp/src"
(cd "$tmp/src" && go build -o "$tmp/old" ./cmd/gdt)
(cd "$top" && go build -o "$tmp/new" ./cmd/gdt)
printf '%-4s %-5s %14s %8s %8s %10s %10s\n' bin round s/1M_steps wall_s user_s delivered final
i=1
while [ "$i" -le "$rounds" ]; do
	for b in old new; do
		out="$tmp/run-$b-$i"
		/usr/bin/time -f '%e %U' -o "$tmp/time" "$tmp/$b" rl train --env CartPole-v1 --method sympol \
			--steps "$steps" --seed 142 --out "$out" --quiet >/dev/null
		python3 - "$b" "$i" "$out/result.json" "$tmp/time" <<'PY'
import json, sys
b, i, path, tpath = sys.argv[1:5]
r = json.load(open(path))
wall, user = open(tpath).read().split()[-2:]
# result.json before the delivered policy (commits before a9d32f0) holds
# only the final policy's figures at the top level.
final = r["final"]["test_return"] if "final" in r else r["test_return"]
delivered = "%.1f" % r["test_return"] if "final" in r else "-"
print("%-4s %-5s %14.1f %8.1f %8.1f %10s %10.1f" % (b, i, r["train_seconds"] * 1e6 / r["steps"], float(wall), float(user), delivered, final))
PY
	done
	i=$((i + 1))
done
echo "# $(uptime | sed 's/.*load/load/')"
# Whether the two cores were used: the same training (evaluation off) as
# rl/ppo's TestSpeedCartPole, with the helper pool's counters (jobs shared
# with the helper or run alone, and why: back-offs after a late helper, or
# other processes holding the cores).
(cd "$top" && go test -c -o "$tmp/ppo.test" ./rl/ppo)
(cd "$top/rl/ppo" && /usr/bin/time -f '# wall %e s, user %U s' env GDT_RL_SPEED_STEPS="$steps" "$tmp/ppo.test" \
	-test.run 'TestSpeedCartPole$' -test.v 2>&1 | sed -n 's/^ *speed_test.go:[0-9]*: /# /p; /^# wall/p')
