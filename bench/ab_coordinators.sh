#!/usr/bin/env bash
# Two foundry-coordinator binaries side by side under the same read load:
# alternating A, B, A, B, each on a fresh copy of STORE, `store_load` flat out
# for each RPC. For comparing a change's effect on a noisy machine.
#
#   bench/ab_coordinators.sh OLD_BINARY NEW_BINARY STORE_DIR [RPCS]
# RPCS defaults to "get sample"; STORE_DIR e.g. /tmp/foundry-bench-store-20000
# (made by bench/store_load.sh). Env: STREAMS (8), SECONDS_PER_RUN (8).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
[[ $# -ge 3 ]] || { echo "usage: $0 OLD_BINARY NEW_BINARY STORE_DIR [RPCS]" >&2; exit 2; }
A=$1 B=$2 STORE=$3 RPCS=${4:-get sample}
LOAD=$ROOT/build/bin/store_load
STREAMS=${STREAMS:-8} SECONDS_PER_RUN=${SECONDS_PER_RUN:-8}
TMP=$(mktemp -d)
PID=""
trap '[[ -n $PID ]] && kill "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT
for bin in "$A" "$B" "$A" "$B"; do
  rm -rf "$TMP/db" && cp -r "$STORE" "$TMP/db"
  "$bin" --listen 127.0.0.1:0 --db "$TMP/db" --metrics-listen 127.0.0.1:0 >"$TMP/log" 2>&1 &
  PID=$!
  port=$(coordinator_port "$TMP/log" "$PID")
  for rpc in $RPCS; do
    echo "$bin | $("$LOAD" --target "127.0.0.1:$port" --rpc "$rpc" --seconds "$SECONDS_PER_RUN" \
      --warmup-seconds 1 --streams "$STREAMS" 2>/dev/null | tail -1)"
  done
  kill "$PID"; wait "$PID" 2>/dev/null || true
  PID=""
done
