#!/bin/bash
# End-to-end throughput of `gdt predict` (issue 19): a 2048-tree depth-6
# GRANDE on 200,000 rows of UCI adult, CSV in, CSV out.
#
#   scripts/predict-throughput.sh [GDT_BINARY] [RUNS] [EXTRA PREDICT FLAGS…]
#
# Builds what is missing under /tmp: the data (scripts/adult-200k.sh →
# /tmp/adult-200k.csv) and the model (/tmp/adult-grande-2048.json: default
# GRANDE — 2048 trees of depth 6 — trained one epoch on adult.csv.gz;
# prediction speed does not depend on how well it is trained). Then runs
# `gdt predict MODEL --data /tmp/adult-200k.csv --out FILE --timings` RUNS
# times (default 3) and prints per run the wall time and rows/s of the whole
# command (model load, reading, preprocessing, predicting, writing) and the
# busy time of each stage (gdt predict --timings). Rows/s depend on the
# load of the machine: say what else ran when quoting them.
set -euo pipefail
GDT=${1:-gdt}
RUNS=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
HERE=$(cd "$(dirname "$0")" && pwd)
DATA=/tmp/adult-200k.csv
MODEL=/tmp/adult-grande-2048.json
[ -s "$DATA" ] || "$HERE/adult-200k.sh" "$DATA" 200000
if [ ! -s "$MODEL" ]; then
  echo "training $MODEL (one epoch of default GRANDE on adult; a few minutes)…" >&2
  "$GDT" train --data "$HERE/../../shared/data/grande/adult.csv.gz" --target class --model grande \
    --set epochs=1 --quiet --out "$MODEL" >&2
fi
OUT=$(mktemp /tmp/predict-throughput.XXXXXX.csv)
trap 'rm -f "$OUT"' EXIT
for r in $(seq "$RUNS"); do
  "$GDT" predict "$MODEL" --data "$DATA" --out "$OUT" --timings "$@" 2>&1 >/dev/null | grep '^timings:'
done
