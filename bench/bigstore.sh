#!/usr/bin/env bash
# The store as it grows (issue 37): a small and a big store side by side.
#
# Builds (once; kept under BIGSTORE_DIR for the next runs) a store of SMALL
# (1,000,000) and one of N (10,000,000) secret-number puzzles with
# `foundry run` (~1 and ~9 minutes on 2 cores), then for each prints:
#   - the first open of a copy (a migration, when the binaries measured are
#     of a newer schema than the store's builder), open to listening;
#   - open to listening of foundry-coordinator, median of OPENS later opens;
#   - its RSS idle, a second after listening;
#   - GetPuzzle, GetPuzzles (100 ids), SamplePuzzles (1 puzzle) and
#     QueryPuzzles (a page) flat out with bench/store_load (STREAMS streams,
#     SECONDS_PER_RUN s each): requests/s and p99; RSS after them; the block
#     cache's hit rate over them (the coordinator's /metrics);
#   - the store's size on disk;
# and, for each store, how its build went, per tenth of the campaign
# (bench/store_growth.py over the progress kept beside the store and the
# store's RocksDB LOG): commit rate, flushed and compacted bytes, compaction
# CPU and write amplification; the last tenth's rate against the first.
# The stores are copied before each is opened, so the kept ones stay as
# built (and an older binary can still read them: BIN=dir-of-old-binaries).
#
# Usage: bench/bigstore.sh [N]
# Env: BIGSTORE_DIR (/tmp/foundry-bigstore), SMALL (1000000), BIN (build/bin;
# the measured foundry-coordinator and store_load), OPENS (3), STREAMS (8),
# SECONDS_PER_RUN (5), NO_BUILD=1 (do not build the targets first).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
N=${1:-10000000}
SMALL=${SMALL:-1000000}
DIR=${BIGSTORE_DIR:-/tmp/foundry-bigstore}
BIN=${BIN:-build/bin}
OPENS=${OPENS:-3}
STREAMS=${STREAMS:-8}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-5}
with_work_dir

if [ -z "${NO_BUILD:-}" ]; then
  # Only the targets measured, through the shared build lock.
  flock /tmp/foundry-build.lock cmake --build build -j2 --target foundry foundry-coordinator store_load \
    >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log" >&2; echo "bigstore.sh: build failed" >&2; exit 1; }
fi
mkdir -p "$DIR"

build_store() {  # COUNT: $DIR/store-COUNT, built once
  local store=$DIR/store-$1
  if [ ! -d "$store" ]; then
    echo "building $store ($1 puzzles; kept for the next runs)" >&2
    rm -rf "$store.partial"
    local t0 t1
    t0=$(date +%s.%N)
    # the start and the progress lines, each with the time it was printed,
    # for store_growth.py
    printf '%s start\n' "$t0" >"$store.progress"
    build/bin/foundry run --family secret-number --count "$1" --seed 1 --set digits=3 \
      --threads "$(nproc)" --db "$store.partial" 2>&1 >/dev/null |
      while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done >>"$store.progress"
    [ "${PIPESTATUS[0]}" -eq 0 ] || { tail -5 "$store.progress" >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v n="$1" 'BEGIN { printf "built in %.1f s (%.0f puzzles/s)\n", b - a, n / (b - a) }' >&2
    mv "$store.partial" "$store"  # only a finished store gets the name
  fi
}
build_store "$SMALL"
build_store "$N"

field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" | tr -d '"'; }
now() { date +%s.%N; }

# open DB: starts a coordinator on DB (COORD, ADDR) and sets OPEN_S, the
# seconds from its start to its "listening" line.
OPEN_COUNT=0
open() {
  local t0 t1 port
  OPEN_COUNT=$((OPEN_COUNT + 1))
  LOG=$WORK/coord-$OPEN_COUNT.log  # a new file each time: no stale "listening" line
  : >"$LOG"
  t0=$(now)
  "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$1" --metrics-listen 127.0.0.1:0 \
    >"$LOG" 2>&1 &
  COORD=$!
  pids+=("$COORD")
  until grep -q "listening on port" "$LOG"; do
    kill -0 "$COORD" 2>/dev/null || { cat "$LOG" >&2; exit 1; }
    sleep 0.005
  done
  t1=$(now)
  port=$(coordinator_port "$LOG" "$COORD")
  ADDR=127.0.0.1:$port
  MPORT=$(metrics_port "$LOG")
  OPEN_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
}
rss_mb() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$COORD/status"; }
load() {  # RPC: sets RATE and P99 of store_load against ADDR
  local j
  j=$("$BIN/store_load" --target "$ADDR" --streams "$STREAMS" --seconds "$SECONDS_PER_RUN" \
    --warmup-seconds 1 --json --rpc "$1" 2>"$WORK/load.err") || { cat "$WORK/load.err" >&2; exit 1; }
  RATE=$(field requests_per_s <<<"$j" | awk '{printf "%.0f", $1}')
  P99=$(field p99_ms <<<"$j")
}

# measure COUNT: the figures of the store of COUNT puzzles, into R_<name>.
measure() {
  local db=$WORK/db-$1 opens=() i
  rm -rf "$db"
  cp -r "$DIR/store-$1" "$db"
  open "$db"
  FIRST=$OPEN_S
  # a coordinator logs each migration step it takes: keep them, on one line
  MIGRATION=$(grep -i "upgraded" "$LOG" | sed 's/^foundry store: //' | paste -sd';' - || true)
  stop_pids
  for i in $(seq 1 "$OPENS"); do
    open "$db"
    opens+=("$OPEN_S")
    if [ "$i" -lt "$OPENS" ]; then stop_pids; fi
  done
  OPEN=$(printf '%s\n' "${opens[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  sleep 1
  RSS=$(rss_mb)
  local hits0 misses0
  hits0=$(metric "$MPORT" foundry_rocksdb_block_cache_hits_total)
  misses0=$(metric "$MPORT" foundry_rocksdb_block_cache_misses_total)
  load get; GET_RATE=$RATE GET_P99=$P99
  load getmany; MANY_RATE=$RATE MANY_P99=$P99
  load sample; SAMPLE_RATE=$RATE SAMPLE_P99=$P99
  load query; QUERY_RATE=$RATE QUERY_P99=$P99
  RSS_LOADED=$(rss_mb)
  sleep 1.5  # the store's figures reach /metrics once a second
  HIT=$(awk -v h0="$hits0" -v m0="$misses0" -v h="$(metric "$MPORT" foundry_rocksdb_block_cache_hits_total)" \
    -v m="$(metric "$MPORT" foundry_rocksdb_block_cache_misses_total)" \
    'BEGIN { t = (h - h0) + (m - m0); if (t > 0) printf "%.1f%%", 100 * (h - h0) / t; else print "-" }')
  stop_pids
  DISK=$(du -sm "$db" | cut -f1)
  rm -rf "$db"
}

measure "$SMALL"
S=("$FIRST" "$OPEN" "$RSS" "$RSS_LOADED" "$GET_RATE" "$GET_P99" "$MANY_RATE" "$MANY_P99"
  "$SAMPLE_RATE" "$SAMPLE_P99" "$QUERY_RATE" "$QUERY_P99" "$HIT" "$DISK")
S_MIGRATION=$MIGRATION
measure "$N"
B=("$FIRST" "$OPEN" "$RSS" "$RSS_LOADED" "$GET_RATE" "$GET_P99" "$MANY_RATE" "$MANY_P99"
  "$SAMPLE_RATE" "$SAMPLE_P99" "$QUERY_RATE" "$QUERY_P99" "$HIT" "$DISK")

echo "## bigstore: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "\`BIN=$BIN bench/bigstore.sh $N\` — secret-number (digits 3); $STREAMS streams, ${SECONDS_PER_RUN} s a load"
echo
echo "| | $SMALL puzzles | $N puzzles |"
echo "|---|---|---|"
names=("first open of a copy, to listening (s)" "open to listening, median of $OPENS (s)" "RSS idle (MB)"
  "RSS after the loads (MB)" "GetPuzzle /s" "GetPuzzle p99 (ms)" "GetPuzzles(100) /s"
  "GetPuzzles p99 (ms)" "SamplePuzzles(1) /s" "SamplePuzzles p99 (ms)" "QueryPuzzles /s"
  "QueryPuzzles p99 (ms)" "block cache hits over the loads" "on disk (MB)")
for i in "${!names[@]}"; do echo "| ${names[$i]} | ${S[$i]} | ${B[$i]} |"; done
if [ -n "$S_MIGRATION$MIGRATION" ]; then
  echo
  echo "first open logged: small: ${S_MIGRATION:-nothing}; big: ${MIGRATION:-nothing}"
fi
for count in "$SMALL" "$N"; do
  echo
  if [ -f "$DIR/store-$count.progress" ]; then
    echo "build of the $count-puzzle store, per tenth (bench/store_growth.py):"
    echo
    # a build of a few seconds prints too few lines to divide (it says so)
    python3 bench/store_growth.py "$DIR/store-$count.progress" "$DIR/store-$count" 2>&1 || true
  else
    echo "build of the $count-puzzle store: no progress kept (built by an older bigstore.sh)"
  fi
done
