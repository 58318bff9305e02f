#!/usr/bin/env bash
# Where a stored puzzle's CPU goes, per family, side by side in one run:
# foundry-coordinator + 2 foundry-worker processes (1 thread each) on
# 127.0.0.1 run one campaign; the CPU seconds of each process are read from
# /proc before and after and divided by the puzzles stored. A warm-up
# campaign (another seed, WARMUP puzzles) runs first so that both workers are
# past probation (docs/operations.md): the figures are the steady state. Then
# the same campaign through `foundry run --threads 1` and `--threads 2`.
# Each is measured ROUNDS times (the cluster from a fresh coordinator, store
# and warm-up each round; `foundry run` alternating t1, t2, t1, t2 on fresh
# stores; every round the same seed-1 campaign) and the rates
# shown are the fastest round of each: a run of ten seconds on a shared
# machine is only ever slowed by what else runs, and single rounds moved the
# ratios by up to 0.2 (docs/scale.md). CPU per puzzle is over all rounds.
#
#   bench/cluster_cost.sh [COUNT] [FAMILIES...]   (build first: scripts/build.sh)
# COUNT defaults to 100000 (at 20,000 a cheap family's campaign lasts about a
# second, and filling and draining the pipeline is a large part of it);
# FAMILIES to all seven. Env: WARMUP (20000),
# SPOT_RATE (the coordinator's --spot-check-rate; its default when unset),
# COORDINATOR (another foundry-coordinator binary, for an A/B of a change),
# RUNS=0 (skip the two `foundry run` columns), ROUNDS (2).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
COUNT=${1:-100000}
WARMUP=${WARMUP:-20000}
ROUNDS=${ROUNDS:-2}
shift || true
FAMILIES=${*:-secret-number bulls-cows balance decodoku alignment zebra sudoku}
BIN=build/bin
with_work_dir
rate_of() { sed -n 's/.*rate \([0-9]*\) puzzles\/s.*/\1/p'; }
max() { echo $(( $1 > $2 ? $1 : $2 )); }

printf '%-14s %9s %11s %11s %9s %10s %10s %8s %8s\n' family "cluster/s" "coord µs/p" \
  "workers µs/p" "w ÷ c" "run -t1/s" "run -t2/s" "t2 ÷ t1" "cl ÷ t2"
workers_cpu() {
  local w=0
  for pid in "${workers[@]}"; do w=$(awk -v a="$w" -v b="$(cpu_of "$pid")" 'BEGIN { print a + b }'); done
  echo "$w"
}
for family in $FAMILIES; do
  cluster=0 c=0 w=0
  for _ in $(seq "$ROUNDS"); do
    rm -rf "${WORK:?}"/*
    pids=()
    "${COORDINATOR:-$BIN/foundry-coordinator}" --listen 127.0.0.1:0 --db "$WORK/cluster" \
      ${SPOT_RATE:+--spot-check-rate "$SPOT_RATE"} >"$WORK/coord.log" 2>&1 &
    coord=$!; pids+=("$coord")
    port=$(coordinator_port "$WORK/coord.log" "$coord")
    workers=()
    for i in 1 2; do
      "$BIN/foundry-worker" --coordinator "127.0.0.1:$port" --threads 1 >"$WORK/w$i.log" 2>&1 &
      workers+=("$!"); pids+=("$!")
    done
    "$BIN/foundry" campaign submit --coordinator "127.0.0.1:$port" --family "$family" \
      --count "$WARMUP" --seed 2 --watch >/dev/null 2>&1
    c0=$(cpu_of "$coord") w0=$(workers_cpu)
    rate=$("$BIN/foundry" campaign submit --coordinator "127.0.0.1:$port" --family "$family" \
      --count "$COUNT" --seed 1 --watch 2>/dev/null | rate_of)
    cluster=$(max "$cluster" "$rate")
    c=$(awk -v s="$c" -v a="$(cpu_of "$coord")" -v b="$c0" 'BEGIN { print s + a - b }')
    w=$(awk -v s="$w" -v a="$(workers_cpu)" -v b="$w0" 'BEGIN { print s + a - b }')
    # Workers first, while the coordinator can still take a drained job's
    # submission (a worker draining against a dead coordinator retries).
    for pid in "${workers[@]}" "$coord"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    pids=()
  done
  t1=0 t2=0
  if [ "${RUNS:-1}" != 0 ]; then
    for _ in $(seq "$ROUNDS"); do
      rm -rf "$WORK/t1" "$WORK/t2"
      t1=$(max "$t1" "$("$BIN/foundry" run --family "$family" --count "$COUNT" --seed 1 --db "$WORK/t1" --threads 1 --quiet | rate_of)")
      t2=$(max "$t2" "$("$BIN/foundry" run --family "$family" --count "$COUNT" --seed 1 --db "$WORK/t2" --threads 2 --quiet | rate_of)")
    done
  fi
  awk -v f="$family" -v r="$cluster" -v c="$c" -v w="$w" -v n="$((COUNT * ROUNDS))" -v t1="$t1" -v t2="$t2" 'BEGIN {
    printf "%-14s %9d %11.1f %11.1f %9.2f %10d %10d %8.2f %8.2f\n", f, r, c / n * 1e6, w / n * 1e6,
      w / c, t1, t2, t1 ? t2 / t1 : 0, t2 ? r / t2 : 0 }'
done
