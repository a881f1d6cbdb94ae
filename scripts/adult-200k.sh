#!/bin/bash
# Builds the 200,000-row prediction input of the `gdt predict` end-to-end
# measurement (issue 19): the rows of ../shared/data/grande/adult.csv.gz
# (header once, data rows repeated in file order, cut at ROWS) as plain CSV.
#
#   scripts/adult-200k.sh [OUT] [ROWS]     (default /tmp/adult-200k.csv, 200000)
#
# The file is generated data: write it under /tmp, never into the repository.
set -euo pipefail
OUT=${1:-/tmp/adult-200k.csv}
ROWS=${2:-200000}
SRC=$(cd "$(dirname "$0")/.." && pwd)/../shared/data/grande/adult.csv.gz
[ -r "$SRC" ] || { echo "adult-200k.sh: $SRC not found" >&2; exit 1; }
TMP=$(mktemp "$OUT.XXXXXX")
trap 'rm -f "$TMP"' EXIT
zcat "$SRC" | awk -v rows="$ROWS" '
  NR == 1 { print; next }
  { r[n++] = $0 }
  END { for (i = 0; i < rows; i++) print r[i % n] }' >"$TMP"
chmod 644 "$TMP"
mv "$TMP" "$OUT"
trap - EXIT
echo "$OUT: $ROWS rows" >&2
