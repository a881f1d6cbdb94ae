#!/bin/sh
# Trains GRANDE for N steps on a few configurations at an older commit and
# at the working tree (the working tree's grande/digest_test.go in both),
# with 1 and 2 workers, and prints the parameter digests side by side;
# exit status 1 if any differs.
#
#   scripts/param-digest.sh OLD_COMMIT [STEPS]
#   scripts/param-digest.sh b14791f 30
set -eu
old=$1 steps=${2:-30}
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
git -C "$top" archive "$old" | tar -x -C "$tmp/src"
cp "$top/grande/digest_test.go" "$top/grande/bench_test.go" "$top/grande"/cputime*_test.go "$tmp/src/grande/"
(cd "$tmp/src" && go test -c -o "$tmp/old.test" ./grande)
(cd "$top" && go test -c -o "$tmp/new.test" ./grande)
for b in old new; do
	for c in 1 2; do
		GDT_DIGEST_STEPS=$steps "$tmp/$b.test" -test.run '^TestParamDigest$' -test.cpu "$c" |
			grep '^digest' | sed "s/^digest/workers=$c/" >"$tmp/$b.$c"
	done
	cat "$tmp/$b.1" "$tmp/$b.2" >"$tmp/$b"
done
paste -d '\n' "$tmp/old" "$tmp/new" | sed 'N;s/\n/\n  new: /;s/^/old: /'
if cmp -s "$tmp/old" "$tmp/new"; then echo "same bits"; else echo "DIFFERENT"; exit 1; fi
