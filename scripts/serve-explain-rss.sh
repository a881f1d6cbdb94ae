#!/bin/bash
# Peak memory of `gdt serve` under explain load (issue 20): N concurrent
# requests of ROWS rows of UCI adult with "explain": true to a 2048-tree
# depth-6 GRANDE; prints each request's status and wall time and the
# server's peak RSS (VmHWM of /proc/PID/status) and CPU time.
#
#   scripts/serve-explain-rss.sh [N] [ROWS] [GDT_BINARY] [EXTRA SERVE FLAGS…]
#                                (defaults: 4, 100000, gdt built from this checkout)
#
# Builds what is missing under /tmp, as scripts/predict-throughput.sh does:
# the rows (scripts/adult-200k.sh → /tmp/adult-200k.csv) and the model
# (/tmp/adult-grande-2048.json: default GRANDE trained one epoch on
# adult.csv.gz). The server runs with --max-body 64 MiB (a 100,000-row
# adult request is about 30 MB; the default limit is 32 MiB), the
# explain-row limit raised to ROWS (default 10,000) and the write timeout
# raised to 30 min (builds before streaming wrote nothing until the whole
# answer was built); every other flag — among them --max-concurrent,
# 2 × GOMAXPROCS but at least 4 — is the default unless given as EXTRA
# SERVE FLAGS. The load client is scripts/serve-explain-load. Times depend on
# the load of the machine: say what else ran when quoting them.
set -euo pipefail
# (one function, read whole before it runs: editing the file mid-run is safe)
main() {
  N=${1:-4}
  ROWS=${2:-100000}
  GDT=${3:-}
  shift $(( $# < 3 ? $# : 3 ))
  HERE=$(cd "$(dirname "$0")" && pwd)
  ROOT=$(cd "$HERE/.." && pwd)
  DATA=/tmp/adult-200k.csv
  MODEL=/tmp/adult-grande-2048.json
  WORK=$(mktemp -d /tmp/serve-explain-rss.XXXXXX)
  PID=
  cleanup() {
    if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
  }
  trap cleanup EXIT
  if [ -z "$GDT" ]; then
    (cd "$ROOT" && go build -o "$WORK/gdt" ./cmd/gdt)
    GDT=$WORK/gdt
  fi
  (cd "$ROOT" && go build -o "$WORK/load" ./scripts/serve-explain-load)
  [ -s "$DATA" ] || "$HERE/adult-200k.sh" "$DATA" 200000
  if [ ! -s "$MODEL" ]; then
    echo "training $MODEL (one epoch of default GRANDE on adult; a few minutes)…" >&2
    "$GDT" train --data "$ROOT/../shared/data/grande/adult.csv.gz" --target class --model grande \
      --set epochs=1 --quiet --out "$MODEL" >&2
  fi
  LIMITS=(--max-body $((64 << 20)) --write-timeout 30m)
  # builds before the explain-row limit (issue 20) had no such flag
  if "$GDT" serve --help 2>&1 | grep -q max-explain-rows; then LIMITS+=(--max-explain-rows "$ROWS"); fi
  "$GDT" serve "adult=$MODEL" --addr 127.0.0.1:0 --json --poll 0 "${LIMITS[@]}" "$@" >"$WORK/url" 2>"$WORK/log" &
  PID=$!
  for _ in $(seq 600); do
    grep -q '}' "$WORK/url" 2>/dev/null && break
    kill -0 "$PID" 2>/dev/null || { cat "$WORK/log" >&2; exit 1; }
    sleep 0.1
  done
  URL=$(tr -d ' \n' <"$WORK/url" | sed 's/.*"url":"\([^"]*\)".*/\1/')
  echo "gdt serve (pid $PID) at $URL; RSS after loading the model: $(awk '/VmRSS/ {print $2, $3}' /proc/$PID/status)"
  status=0
  "$WORK/load" -url "$URL/v1/models/adult/predict" -csv "$DATA" -drop class -rows "$ROWS" -n "$N" -explain || status=$?
  echo "peak RSS of gdt serve (VmHWM): $(awk '/VmHWM/ {printf "%.0f MB", $2 / 1024}' /proc/$PID/status)"
  # utime + stime (fields 14, 15 of /proc/PID/stat, in clock ticks): the
  # server's CPU time, which the machine's load changes far less than wall time
  echo "CPU time of gdt serve (user + system, model load included): $(awk -v hz="$(getconf CLK_TCK)" '{printf "%.1f s", ($14 + $15) / hz}' /proc/$PID/stat)"
  exit $status
}
main "$@"
