#!/bin/bash
# Full-size 100-trial TPE search for GRANDE (thesis search space, spec §8.2;
# 5×2 nested CV) on one dataset, shared by two worker processes through a
# throwaway local PostgreSQL; worker 2 is SIGKILLed after KILL_AFTER seconds
# and started again, as a crashed machine would be replaced.
#
#   scripts/grande-search-pg.sh [GDT_BINARY] [DATASET] [TRIALS] [KILL_AFTER]
#
# Needs Debian's postgresql (initdb, pg_ctl). Prints the study summary; the
# best configuration goes to tuned/grande__DATASET.json. Figures in
# BENCHMARKS.md ("GRANDE search on PostgreSQL") come from this script.
set -euo pipefail
GDT=${1:-gdt}
DATASET=${2:-grande/wdbc}
TRIALS=${3:-100}
KILL_AFTER=${4:-900}
PGBIN=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | tail -1)")
DIR=$(mktemp -d /tmp/gdt-pg-search.XXXXXX)
chmod 755 "$DIR"
RUNAS=()
if [ "$(id -u)" = 0 ]; then chown nobody "$DIR"; RUNAS=(setpriv --reuid=nobody --regid=nogroup --clear-groups); fi
PORT=${PGPORT:-54329}
"${RUNAS[@]}" env LC_ALL=C "$PGBIN/initdb" -D "$DIR/data" -U gdt --auth=trust --encoding=UTF8 --locale=C --no-sync >/dev/null
"${RUNAS[@]}" env LC_ALL=C "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
trap '"${RUNAS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null; rm -rf "$DIR"' EXIT
DSN="postgres://gdt@127.0.0.1:$PORT/postgres?sslmode=disable"
STUDY="grande-$(basename "$DATASET")"
start=$(date +%s)
"$GDT" tune --model grande --dataset "$DATASET" --trials "$TRIALS" --storage "$DSN" --study "$STUDY" --sampler-seed 1 --create-only
"$GDT" tune --join --study "$STUDY" --storage "$DSN" --trials "$TRIALS" --quiet --sampler-seed 11 > "$DIR/w1.log" 2>&1 &
W1=$!
"$GDT" tune --join --study "$STUDY" --storage "$DSN" --trials "$TRIALS" --quiet --sampler-seed 12 > "$DIR/w2.log" 2>&1 &
W2=$!
sleep "$KILL_AFTER"
if kill -0 $W2 2>/dev/null; then
  kill -9 $W2 || true
  echo "SIGKILLed worker 2 after ${KILL_AFTER}s; starting a replacement"
  "$GDT" tune --join --study "$STUDY" --storage "$DSN" --trials "$TRIALS" --quiet --sampler-seed 13 > "$DIR/w3.log" 2>&1 &
  W2=$!
fi
wait $W1 || echo "worker 1 exited with $?"
wait $W2 || echo "replacement worker exited with $?"
echo "wall $(( $(date +%s) - start )) s"
# The summary: joining a finished study runs nothing and prints the table.
"$GDT" tune --join --study "$STUDY" --storage "$DSN" --trials "$TRIALS" --out "tuned/grande__$(basename "$DATASET").json"
