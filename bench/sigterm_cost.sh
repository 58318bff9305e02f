#!/usr/bin/env bash
# What a stopped worker costs a campaign, side by side in one run: the same
# campaign (3 workers, 1 thread each, leases of LEASE seconds) undisturbed,
# with one worker stopped by SIGTERM (it hands its leases back) and with one
# killed by SIGKILL (its leases must lapse), each at STOP_AT stored.
# Prints per variant: the campaign's seconds, seconds from the signal to the
# worker's exit, leases handed back and leases lapsed, and the mean seconds
# from a generation lease handed back to its job leased again ("-" when the
# stopped worker held only checks) (coordinator metrics).
#
#   bench/sigterm_cost.sh [COUNT] [FAMILY]   (build first: scripts/build.sh)
# COUNT 50000 and FAMILY sudoku by default. Env: LEASE (20), ROUNDS (2),
# STOP_AT (COUNT*3/10).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
COUNT=${1:-50000}
FAMILY=${2:-sudoku}
LEASE=${LEASE:-20}
ROUNDS=${ROUNDS:-2}
STOP_AT=${STOP_AT:-$((COUNT * 3 / 10))}
BIN=build/bin
with_work_dir KILL
now() { date +%s.%N; }
# The campaign's stored count (absent from the JSON while it is 0).
stored() {
  local n
  n=$("$BIN/foundry" campaign status "$2" --coordinator "$1" --json |
    sed -n 's/.*"stored": *"\{0,1\}\([0-9]*\).*/\1/p')
  echo "${n:-0}"
}

printf '%-9s %5s %11s %13s %9s %7s %13s\n' variant round "campaign s" "signal→exit s" "released" \
  "lapsed" "re-leased s"
for round in $(seq "$ROUNDS"); do
  for variant in none SIGTERM SIGKILL; do
    rm -rf "${WORK:?}"/*
    pids=()
    "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$WORK/db" --lease-seconds "$LEASE" \
      --metrics-listen 127.0.0.1:0 >"$WORK/coord.log" 2>&1 &
    coord=$!; pids+=("$coord")
    port=$(coordinator_port "$WORK/coord.log" "$coord")
    mport=$(metrics_port "$WORK/coord.log")
    addr=127.0.0.1:$port
    workers=()
    for i in 1 2 3; do
      "$BIN/foundry-worker" --coordinator "$addr" --threads 1 --worker-id "w$i" >"$WORK/w$i.log" 2>&1 &
      workers+=("$!"); pids+=("$!")
    done
    start=$(now)
    id=$("$BIN/foundry" campaign submit --coordinator "$addr" --family "$FAMILY" --count "$COUNT" \
      --seed 1 | awk '/submitted campaign/ { print $3 }')
    exit_s=-
    if [ "$variant" != none ]; then
      while [ "$(stored "$addr" "$id")" -lt "$STOP_AT" ]; do sleep 0.05; done
      sig_at=$(now)
      kill -s "${variant#SIG}" "${workers[0]}"
      wait "${workers[0]}" 2>/dev/null || true
      exit_s=$(awk -v a="$sig_at" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
    fi
    "$BIN/foundry" campaign watch "$id" --coordinator "$addr" >/dev/null 2>&1
    took=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
    relet=$(awk -v s="$(metric "$mport" foundry_released_job_wait_seconds_sum)" \
      -v n="$(metric "$mport" foundry_released_job_wait_seconds_count)" \
      'BEGIN { if (n > 0) printf "%.3f", s / n; else print "-" }')
    printf '%-9s %5s %11s %13s %9s %7s %13s\n' "$variant" "$round" "$took" "$exit_s" \
      "$(metric "$mport" foundry_leases_released_total)" \
      "$(metric "$mport" foundry_lease_expirations_total)" "$relet"
    stop_pids
  done
done
