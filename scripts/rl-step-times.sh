#!/bin/sh
# Wall times of one SYMPOL update step on a CartPole minibatch, on one and
# two cores, for the working tree and an older commit, alternately
# (rl/ppo's TestStepTimes: the critic's phases, its whole step, and the
# minibatch step with the actor's; minima and 10th percentiles over TRIALS
# trials, so that the minima mean something on a busy machine too):
#
#   scripts/rl-step-times.sh [OLD_COMMIT] [ROUNDS] [TRIALS]
#   scripts/rl-step-times.sh 3c0e5db 2 3000
#
# The old tree gets the working tree's rl/ppo/speed_test.go; a commit from
# before Trainer.minibatchStep (issue 22, session 12) also gets an adapter
# with its update's arrangement (the actor's step started on the pool, the
# critic's on the caller), and one from before nn.SparseStats (session 13)
# a stub of it. GDT_RL_STEP_PRETRAIN=N trains N steps before the trials
# (default 20,000; a longer-trained critic has more dead units).
set -eu
old=${1:-3c0e5db} rounds=${2:-2} trials=${3:-3000}
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d /tmp/gdt-rl-step.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
git -C "$top" archive "$old" | tar -x -C "$tmp/src"
cp "$top/rl/ppo/speed_test.go" "$tmp/src/rl/ppo/speed_test.go"
if ! grep -q 'func (t \*Trainer) minibatchStep' "$tmp/src/rl/ppo/trainer.go"; then
	cat >"$tmp/src/rl/ppo/zz_minibatch_step_test.go" <<'GO'
package ppo

import "github.com/gdt-ml/gdt/linalg"

// minibatchStep as update ran it before Trainer.minibatchStep existed.
func (t *Trainer) minibatchStep(M int, actor func()) error {
	task := linalg.Start(actor)
	err := t.criticStep(M)
	task.Wait()
	return err
}
GO
fi
if ! grep -qs 'func SparseStats' "$tmp/src/nn/sparse.go"; then
	# Before the compacted products (issue 22, session 13) there are no
	# live-unit counts.
	cat >"$tmp/src/nn/zz_sparse_stats.go" <<'GO'
package nn

// SparseStats reports nothing: this tree has no compacted products.
func SparseStats() (passes int64, liveIn, liveOut float64) { return 0, 0, 0 }
GO
fi
(cd "$tmp/src" && go test -c -o "$tmp/old.test" ./rl/ppo)
(cd "$top" && go test -c -o "$tmp/new.test" ./rl/ppo)
i=1
while [ "$i" -le "$rounds" ]; do
	for b in old new; do
		(cd "$top/rl/ppo" && GDT_RL_STEP_TRIALS="$trials" "$tmp/$b.test" -test.run 'TestStepTimes$' -test.v 2>&1 |
			sed -n "s/^ *speed_test.go:[0-9]*: /$b round $i: /p")
	done
	i=$((i + 1))
done
echo "# $(uptime | sed 's/.*load/load/')"
