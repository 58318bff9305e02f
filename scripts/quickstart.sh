#!/usr/bin/env bash
# The main job: a real generation campaign through real processes.
# Installs what is missing and builds, then starts foundry-coordinator and two
# foundry-worker processes on 127.0.0.1, submits a secret-number campaign of
# 100,000 puzzles with a live progress bar, prints the summary and an example
# puzzle, and stops every process.
# Environment: COUNT (default 100000), FAMILY (secret-number), SEED (1),
# DB (default build/quickstart-db, emptied first).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh

COUNT=${COUNT:-100000}
FAMILY=${FAMILY:-secret-number}
SEED=${SEED:-1}
DB=${DB:-build/quickstart-db}
BIN=build/bin
RUN_DIR=$(mktemp -d)
rm -rf "$DB"

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$RUN_DIR"
}
trap cleanup EXIT INT TERM

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
echo "coordinator on $ADDR (metrics http://127.0.0.1:$metrics_port/metrics), 2 workers x $threads threads, store $DB"

"$BIN/foundry" campaign submit --coordinator "$ADDR" --family "$FAMILY" --count "$COUNT" \
  --seed "$SEED" --watch

echo
echo "Stored puzzles: $BIN/foundry export --db $DB | head   (after this script; the coordinator holds the store while it runs)"
