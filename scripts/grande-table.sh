#!/bin/bash
# Renders the GRANDE study's table (spec §10.6) from the committed results,
# without training anything:
#
#   scripts/grande-table.sh [GDT_BINARY] [MODELS]
#
# It joins results/grande-baselines.csv (gradtree, cart, random-forest) and
# results/grande-default.csv (grande, grande-estimator-weights) into a
# temporary CSV and lets `gdt bench grande --resume` print the table over
# the datasets on which every model in MODELS (default
# grande,gradtree,cart,random-forest) has all 5 folds. The figures for
# GRANDE in BENCHMARKS.md come from this script.
set -euo pipefail
GDT=${1:-gdt}
MODELS=${2:-grande,gradtree,cart,random-forest}
cd "$(dirname "$0")/.."
TMP=$(mktemp /tmp/grande-table.XXXXXX.csv)
trap 'rm -f "$TMP"' EXIT
{
  cat results/grande-baselines.csv
  tail -n +2 results/grande-default.csv
} >"$TMP"
# datasets (short names) with 5 error-free folds for every model asked for
DATASETS=$(awk -F, -v models="$MODELS" '
  BEGIN { n = split(models, m, ",") }
  NR > 1 && $NF == "" { sub(/^grande\//, "", $2); k[$2 SUBSEP $4]++ ; ds[$2] = 1 }
  END {
    out = ""
    for (d in ds) {
      ok = 1
      for (i = 1; i <= n; i++) if (k[d SUBSEP m[i]] < 5) ok = 0
      if (ok) out = out (out == "" ? "" : ",") d
    }
    print out
  }' "$TMP")
if [ -z "$DATASETS" ]; then
  echo "no dataset has 5 folds for every model of $MODELS" >&2
  exit 1
fi
"$GDT" bench grande --models "$MODELS" --datasets "$DATASETS" --out "$TMP" --resume --quiet
