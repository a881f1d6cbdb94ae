#!/bin/sh
# Compares a benchmark of the working tree with the same benchmark at an
# older commit on a loaded machine: builds both test binaries, runs them
# alternately, prints every result line and the median and range of each
# metric per binary. The old tree gets the package's bench files (and CPU
# time helpers) of the working tree, so a benchmark added since runs on
# both.
#
#   scripts/bench-alternate.sh OLD_COMMIT PKG BENCH [ROUNDS] [CPUS] [BENCHTIME]
#   scripts/bench-alternate.sh b14791f ./grande 'GRANDEReferenceStep|GRANDEFitStep' 6 2 30x
set -eu
old=$1 pkg=$2 bench=$3 rounds=${4:-5} cpus=${5:-2} benchtime=${6:-30x}
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
git -C "$top" archive "$old" | tar -x -C "$tmp/src"
cp "$top/$pkg"/bench*_test.go "$top/$pkg"/cputime*_test.go "$tmp/src/$pkg/" 2>/dev/null || true
(cd "$tmp/src" && go test -c -o "$tmp/old.test" "$pkg")
(cd "$top" && go test -c -o "$tmp/new.test" "$pkg")
i=0
while [ "$i" -lt "$rounds" ]; do
	for b in old new; do
		"$tmp/$b.test" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" -test.cpu "$cpus" |
			grep '^Benchmark' | sed "s/^/$b /"
	done
	i=$((i + 1))
done | tee "$tmp/lines"
echo "# median [min, max] over $rounds rounds ($(uptime | sed 's/.*load/load/'))"
awk '{ for (i = 4; i < NF; i += 2) print $1, $2, $(i + 1), $i }' "$tmp/lines" | sort -k1,3 -k4,4g |
	awk '{ k = $1 " " $2 " " $3; v[k, ++n[k]] = $4; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k } }
	END { for (j = 1; j <= nk; j++) { k = keys[j]; c = n[k]; m = (c % 2) ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2
		printf "%s: %.4g [%.4g, %.4g]\n", k, m, v[k, 1], v[k, c] } }'
