#!/usr/bin/env bash
# End-to-end campaign rate, side by side in one run: `foundry run` (embedded,
# one process) and foundry-coordinator + 2 foundry-worker processes on
# 127.0.0.1, the same family, count and seed, each on a fresh store.
# Usage: bench/e2e_campaign.sh [COUNT] [FAMILY]   (build first: scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
COUNT=${1:-100000}
FAMILY=${2:-secret-number}
BIN=build/bin
with_work_dir
threads=$(nproc)
half=$(( threads / 2 )); [ "$half" -ge 1 ] || half=1

rate_of() { sed -n 's/.*rate \([0-9]*\) puzzles\/s (\([0-9.]*\) s).*/\1 \2/p'; }

embedded=$("$BIN/foundry" run --family "$FAMILY" --count "$COUNT" --seed 1 --db "$WORK/embedded" \
  --threads "$threads" --quiet | rate_of)

"$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$WORK/cluster" >"$WORK/coord.log" 2>&1 &
pids+=($!)
port=$(coordinator_port "$WORK/coord.log" "$!")
for i in 1 2; do
  "$BIN/foundry-worker" --coordinator "127.0.0.1:$port" --threads "$half" >"$WORK/w$i.log" 2>&1 &
  pids+=($!)
done
cluster=$("$BIN/foundry" campaign submit --coordinator "127.0.0.1:$port" --family "$FAMILY" \
  --count "$COUNT" --seed 1 --watch 2>/dev/null | rate_of)

printf '%-44s %12s %9s\n' "setup ($FAMILY, $COUNT puzzles, $(nproc) cores)" "puzzles/s" "seconds"
printf '%-44s %12s %9s\n' "foundry run --threads $threads" $embedded
printf '%-44s %12s %9s\n' "coordinator + 2 workers x $half threads" $cluster
