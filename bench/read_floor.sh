#!/usr/bin/env bash
# The coordinator's CPU per read against the floor of any unary call on this
# gRPC build, in one run: grpc.health.v1.Health/Check, GetPuzzle and
# GetPuzzles (BATCH ids a call) on the same server, each flat out with
# store_load for SECONDS, twice in turn (A B C A B C: drift shows as a
# difference between the rounds). CPU per call is the coordinator's
# utime+stime from /proc over the window divided by the calls answered.
#   bench/read_floor.sh [PUZZLES]   (default 100000; build first)
# Env: STREAMS (8), SECONDS_PER_RUN (8), BATCH (100), COORDINATOR_ARGS (extra
# foundry-coordinator flags, e.g. "--block-cache-mb 64").
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
PUZZLES=${1:-100000}
STREAMS=${STREAMS:-8} SECONDS_PER_RUN=${SECONDS_PER_RUN:-8} BATCH=${BATCH:-100}
BIN=build/bin
WORK=$(mktemp -d)
PID=""
trap '[[ -n $PID ]] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT

"$BIN/foundry" run --family secret-number --count "$PUZZLES" --seed 1 --db "$WORK/db" --quiet >/dev/null
# shellcheck disable=SC2086 # COORDINATOR_ARGS is a list of flags
"$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$WORK/db" ${COORDINATOR_ARGS:-} >"$WORK/log" 2>&1 &
PID=$!
port=$(coordinator_port "$WORK/log" "$PID")

declare -A per_call
printf '%-8s %6s %12s %10s %10s %16s\n' rpc round "calls/s" "p50 ms" "p99 ms" "coord µs/call"
for round in 1 2; do
  for rpc in health get getmany; do
    "$BIN/store_load" --target "127.0.0.1:$port" --rpc "$rpc" --batch "$BATCH" --streams "$STREAMS" \
      --seconds "$SECONDS_PER_RUN" --warmup-seconds 1 --json >"$WORK/out" 2>"$WORK/err" &
    load=$!
    # The window starts after the warm-up: store_load says so on stderr.
    for _ in $(seq 600); do grep -q "measuring" "$WORK/err" 2>/dev/null && break; sleep 0.01; done
    c0=$(cpu_of "$PID")
    sleep "$SECONDS_PER_RUN"
    c1=$(cpu_of "$PID")
    wait "$load"
    python3 - "$rpc" "$round" "$c0" "$c1" "$WORK/out" <<'PY'
import json, sys
rpc, rnd, c0, c1, path = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
j = json.load(open(path))
n = j["requests"]
print(f"{rpc:8} {rnd:>6} {j['requests_per_s']:12.0f} {j['p50_ms']:10.3f} {j['p99_ms']:10.3f} "
      f"{(c1 - c0) / n * 1e6 if n else 0:16.1f}")
PY
  done
done
echo "getmany: $BATCH ids a call; coordinator µs per puzzle = µs/call ÷ $BATCH"
