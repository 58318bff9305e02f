#!/usr/bin/env bash
# The main job: a real generation campaign through real processes.
# Installs what is missing and builds, then starts foundry-coordinator and two
# foundry-worker processes on 127.0.0.1 and the web console
# (http://127.0.0.1:8080/, or CONSOLE_LISTEN), submits a secret-number campaign of
# 100,000 puzzles with a live progress bar, prints the summary and an example
# puzzle, and stops every process.
# Environment: COUNT (default 100000), FAMILY (secret-number), SEED (1),
# DB (default build/quickstart-db, emptied first; another DB must be new or
# empty: the script never wipes a directory it did not make), CONSOLE_LISTEN
# (127.0.0.1:8080; 127.0.0.1:0 picks a free port), KEEP=1 keeps everything
# running after the campaign until Ctrl-C (to look around in the console).
set -euo pipefail
cd "$(dirname "$0")/.."
DB=${DB:-build/quickstart-db}
# Emptied first only when it is the script's own store: DB=./foundry-db
# (the store `foundry run` fills) or a typo such as DB=$HOME must never be
# wiped. Checked before the build, so a refusal costs nothing.
if [ "$DB" != build/quickstart-db ] && [ -e "$DB" ] &&
  { [ ! -d "$DB" ] || [ -n "$(ls -A "$DB")" ]; }; then
  echo "quickstart: DB=$DB exists and is not empty; it is left alone." \
    "Remove it yourself or name a new directory (the default, build/quickstart-db, is emptied each run)" >&2
  exit 1
fi
# Only the programs: the tests and benchmarks are scripts/test.sh's to build.
BUILD_TARGETS="foundry foundry-coordinator foundry-worker foundry-console" scripts/build.sh

COUNT=${COUNT:-100000}
FAMILY=${FAMILY:-secret-number}
SEED=${SEED:-1}
BIN=build/bin
. bench/lib.sh
with_work_dir
RUN_DIR=$WORK
[ "$DB" = build/quickstart-db ] && rm -rf "$DB"

"$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$DB" --metrics-listen 127.0.0.1:0 \
  >"$RUN_DIR/coordinator.log" 2>&1 &
pids+=($!)
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on port \([0-9]*\) metrics port \([0-9]*\).*/\1/p' "$RUN_DIR/coordinator.log")
  [ -n "$port" ] && break
  kill -0 "${pids[0]}" 2>/dev/null || { cat "$RUN_DIR/coordinator.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "coordinator did not start" >&2; cat "$RUN_DIR/coordinator.log" >&2; exit 1; }
metrics_port=$(sed -n 's/.*metrics port \([0-9]*\).*/\1/p' "$RUN_DIR/coordinator.log")
ADDR=127.0.0.1:$port
threads=$(( $(nproc) / 2 )); [ "$threads" -ge 1 ] || threads=1
for i in 1 2; do
  "$BIN/foundry-worker" --coordinator "$ADDR" --threads "$threads" --worker-id "worker-$i" \
    --metrics-listen 127.0.0.1:0 >"$RUN_DIR/worker-$i.log" 2>&1 &
  pids+=($!)
done
CONSOLE_LISTEN=${CONSOLE_LISTEN:-127.0.0.1:8080}
"$BIN/foundry-console" --coordinator "$ADDR" --listen "$CONSOLE_LISTEN" >"$RUN_DIR/console.log" 2>&1 &
pids+=($!)
console_url=""
for _ in $(seq 1 50); do
  console_url=$(sed -n 's/.*serving \(http[^ ]*\).*/\1/p' "$RUN_DIR/console.log")
  [ -n "$console_url" ] && break
  kill -0 "${pids[-1]}" 2>/dev/null || break
  sleep 0.1
done
if [ -n "$console_url" ]; then
  echo "console: $console_url"
else
  echo "console did not start (is $CONSOLE_LISTEN taken? set CONSOLE_LISTEN=127.0.0.1:0):" >&2
  cat "$RUN_DIR/console.log" >&2
fi
echo "coordinator on $ADDR (metrics http://127.0.0.1:$metrics_port/metrics), 2 workers x $threads threads, store $DB"

"$BIN/foundry" campaign submit --coordinator "$ADDR" --family "$FAMILY" --count "$COUNT" \
  --seed "$SEED" --watch

if [ "${KEEP:-0}" = 1 ]; then
  echo "Everything keeps running: console ${console_url:-not started}. Ctrl-C stops it all."
  wait "${pids[0]}" || true
fi
echo
echo "Stored puzzles: $BIN/foundry export --db $DB | head   (after this script; the coordinator holds the store while it runs)"
