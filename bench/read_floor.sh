#!/usr/bin/env bash
# The coordinator's CPU per read against the floor of any unary call on this
# gRPC build, in one run: grpc.health.v1.Health/Check, GetPuzzle and
# GetPuzzles (BATCH ids a call) on the same server, each flat out with
# store_load for SECONDS, twice in turn (A B C A B C: drift shows as a
# difference between the rounds); then Health/Check and GetPuzzle one call
# at a time (one stream, each call waiting for the last: how a simple client
# reads), twice in turn; then both again at each fixed rate of RATES calls/s,
# twice in turn. CPU per call is the
# coordinator's utime+stime from /proc over the window divided by the calls
# answered.
#
# Why both: gRPC's CPU per call falls as the call rate rises (more calls per
# wake-up, per write, per epoll round), so flat out the faster call is also
# the cheaper one per call for reasons that are not its own work. At one
# rate both pay the same per-call overhead and the difference is the read;
# several rates show how the ratio moves with the load (the read costs about
# the same at every rate, the floor falls as the rate rises). A rate at which
# this machine cannot drive GetPuzzle is reported, with both rates, as
# "rates differ".
#   bench/read_floor.sh [PUZZLES]   (default 100000; build first)
# Env: STREAMS (8), SECONDS_PER_RUN (8), BATCH (100), RATES ("1000 5000 20000"),
# COORDINATOR_ARGS (extra foundry-coordinator flags, e.g. "--block-cache-mb 64").
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
PUZZLES=${1:-100000}
STREAMS=${STREAMS:-8} SECONDS_PER_RUN=${SECONDS_PER_RUN:-8} BATCH=${BATCH:-100}
RATES=${RATES:-1000 5000 20000}
BIN=build/bin
WORK=$(mktemp -d)
PID=""
trap '[[ -n $PID ]] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT

"$BIN/foundry" run --family secret-number --count "$PUZZLES" --seed 1 --db "$WORK/db" --quiet >/dev/null
# shellcheck disable=SC2086 # COORDINATOR_ARGS is a list of flags
"$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$WORK/db" ${COORDINATOR_ARGS:-} >"$WORK/log" 2>&1 &
PID=$!
port=$(coordinator_port "$WORK/log" "$PID")

# One measured window: measure RPC ROUND STREAMS [store_load flags...]
measure() {
  local rpc=$1 round=$2 streams=$3
  shift 3
  "$BIN/store_load" --target "127.0.0.1:$port" --rpc "$rpc" --batch "$BATCH" --streams "$streams" \
    --seconds "$SECONDS_PER_RUN" --warmup-seconds 1 --json "$@" >"$WORK/out" 2>"$WORK/err" &
  local load=$!
  # The window starts after the warm-up: store_load says so on stderr.
  for _ in $(seq 600); do grep -q "measuring" "$WORK/err" 2>/dev/null && break; sleep 0.01; done
  local c0 c1
  c0=$(cpu_of "$PID")
  sleep "$SECONDS_PER_RUN"
  c1=$(cpu_of "$PID")
  wait "$load"
  python3 - "$rpc" "$round" "$c0" "$c1" "$WORK/out" <<'PY' | tee -a "$WORK/rows"
import json, sys
rpc, rnd, c0, c1, path = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
j = json.load(open(path))
n = j["requests"]
print(f"{rpc:8} {rnd:>8} {j['requests_per_s']:12.0f} {j['p50_ms']:10.3f} {j['p99_ms']:10.3f} "
      f"{(c1 - c0) / n * 1e6 if n else 0:16.1f}")
PY
}

printf '%-8s %8s %12s %10s %10s %16s\n' rpc round "calls/s" "p50 ms" "p99 ms" "coord µs/call"
for round in 1 2; do
  for rpc in health get getmany; do measure "$rpc" "flat-$round" "$STREAMS"; done
done
for round in 1 2; do
  for rpc in health get; do measure "$rpc" "one-$round" 1; done
done
for round in 1 2; do
  for rate in $RATES; do
    for rpc in health get; do measure "$rpc" "$rate/s-$round" "$STREAMS" --api callback --rate "$rate"; done
  done
done
echo "getmany: $BATCH ids a call; coordinator µs per puzzle = µs/call ÷ $BATCH"
python3 - "$WORK/rows" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
cost = {(r[0], r[1]): float(r[5]) for r in rows}
calls = {(r[0], r[1]): float(r[2]) for r in rows}
for rnd in dict.fromkeys(r[1] for r in rows):  # in the order measured
    if ("health", rnd) in cost and ("get", rnd) in cost and cost[("health", rnd)] > 0:
        line = f"GetPuzzle ÷ Health/Check, {rnd}: {cost[('get', rnd)] / cost[('health', rnd)]:.2f}"
        h, g = calls[("health", rnd)], calls[("get", rnd)]
        if "/s-" in rnd and abs(h - g) > 0.05 * max(h, g):
            line += f" (rates differ: {h:.0f} against {g:.0f} calls/s)"
        print(line)
PY
