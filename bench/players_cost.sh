#!/usr/bin/env bash
# The player calls' cost target of issue 32, side by side in one run: the
# coordinator CPU per call of grpc.health.v1.Health/Check, NextPuzzle and a
# judged, rated RecordPlay (a right or wrong answer, a new play_id), and of
# GetPuzzle for comparison (a read answering one puzzle, as NextPuzzle
# does), each sent at the same fixed RATE by bench/players_load for
# SECONDS_PER_RUN, on a store of PUZZLES puzzles and PLAYERS players. The
# calls alternate ROUNDS times on one coordinator (so a neighbour's build
# slows them alike); CPU is the coordinator's user + system time from /proc
# over each window, and the figure is the sum over rounds divided by the
# calls.
# Targets: NextPuzzle <= 2x and RecordPlay <= 3x Health/Check.
#
# The store (PUZZLES secret-number puzzles, digits 3, then one judged play
# by each of PLAYERS players) is built once and kept in
# /tmp/foundry-players-cost-PUZZLES-PLAYERS; each run works on a fresh copy.
#   bench/players_cost.sh [PUZZLES] [PLAYERS]    (default 1000000 100000;
#     build first: cmake --build build --target foundry foundry-coordinator players_load)
# Env: RATE (1000 calls/s), SECONDS_PER_RUN (10), ROUNDS (3), THREADS (4),
# BIN (build/bin), COORD_FLAGS (more foundry-coordinator flags, e.g.
# "--next-puzzle-nearest 1").
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
PUZZLES=${1:-1000000}
PLAYERS=${2:-100000}
RATE=${RATE:-1000}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-4}
BIN=${BIN:-build/bin}
FAMILY=secret-number
STORE=/tmp/foundry-players-cost-$PUZZLES-$PLAYERS
COMMAND="bench/players_cost.sh${*:+ $*}"
for v in COORD_FLAGS THREADS ROUNDS SECONDS_PER_RUN RATE; do  # the overrides given
  if printenv "$v" >/dev/null; then COMMAND="$v=\"$(printenv "$v")\" $COMMAND"; fi
done
with_work_dir

# RecordPlay's puzzles are drawn by the load, not served by NextPuzzle: a
# coordinator that plays those unrated by default is told to rate them (the
# most a RecordPlay does).
UNSERVED=()
if "$BIN/foundry-coordinator" --help 2>&1 | grep -q -- --rate-unserved-plays; then
  UNSERVED=(--rate-unserved-plays)
fi
read -ra COORD_ARGS <<<"${COORD_FLAGS:-}"
start_coordinator() {  # start_coordinator DB LOG: sets COORD and ADDR
  "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$1" "${UNSERVED[@]}" "${COORD_ARGS[@]}" \
    >"$2" 2>&1 &
  COORD=$!
  pids+=("$COORD")
  ADDR=127.0.0.1:$(coordinator_port "$2" "$COORD")
}

if [ ! -d "$STORE" ]; then
  echo "building $STORE ($PUZZLES puzzles, $PLAYERS players; kept for the next runs)" >&2
  rm -rf "$STORE.partial"
  "$BIN/foundry" run --family "$FAMILY" --count "$PUZZLES" --seed 1 --set digits=3 \
    --threads "$(nproc)" --quiet --db "$STORE.partial" >&2
  start_coordinator "$STORE.partial" "$WORK/populate.log"
  "$BIN/players_load" --target "$ADDR" --rpc populate --family "$FAMILY" --players "$PLAYERS" \
    --threads "$THREADS" --run populate >&2
  stop_pids
  mv "$STORE.partial" "$STORE"  # only a finished store gets the name
fi

echo "copying the store" >&2
cp -r "$STORE" "$WORK/db"
start_coordinator "$WORK/db" "$WORK/coord.log"
HZ=$(getconf CLK_TCK)

sleep 2
t0=$(ticks "$COORD")
sleep "$SECONDS_PER_RUN"
idle=$(($(ticks "$COORD") - t0))

declare -A TICKS CALLS PER_ROUND
for round in $(seq "$ROUNDS"); do
  for rpc in health get next play; do
    "$BIN/players_load" --target "$ADDR" --rpc "$rpc" --family "$FAMILY" --players "$PLAYERS" \
      --rate "$RATE" --seconds "$SECONDS_PER_RUN" --threads "$THREADS" --run "r$round" \
      >"$WORK/load.json" 2>"$WORK/load.err" &
    load=$!
    pids+=("$load")
    wait_for_log "$WORK/load.err" measuring "$load"
    c0=$(ticks "$COORD")
    wait "$load" || { cat "$WORK/load.err" >&2; exit 1; }
    c1=$(ticks "$COORD")
    calls=$(sed -n 's/.*"calls":\([0-9]*\).*/\1/p' "$WORK/load.json")
    TICKS[$rpc]=$((${TICKS[$rpc]:-0} + c1 - c0))
    CALLS[$rpc]=$((${CALLS[$rpc]:-0} + calls))
    PER_ROUND[$rpc]="${PER_ROUND[$rpc]:-}$(awk -v t=$((c1 - c0)) -v n="$calls" -v hz="$HZ" \
      'BEGIN { printf " %.0f", t / hz / n * 1e6 }')"
  done
done
stop_pids

echo "## Player calls' coordinator CPU: $(date -u +%F), $(nproc) cores, $PUZZLES puzzles," \
  "$PLAYERS players, $RATE calls/s"
echo
echo "\`$COMMAND\` — $ROUNDS rounds of ${SECONDS_PER_RUN} s per call; idle coordinator:" \
  "$(awk -v t="$idle" -v hz="$HZ" -v s="$SECONDS_PER_RUN" 'BEGIN { printf "%.1f%%", t / hz / s * 100 }') of a core"
echo
echo "| call | calls | coordinator CPU µs per call, per round | all rounds | ÷ Health/Check | target |"
echo "|---|---|---|---|---|---|"
health_us=$(awk -v t="${TICKS[health]}" -v n="${CALLS[health]}" -v hz="$HZ" 'BEGIN { print t / hz / n * 1e6 }')
for rpc in health get next play; do
  case $rpc in
    health) name="grpc.health.v1.Health/Check" target="-" ;;
    get) name="GetPuzzle (for comparison: one puzzle read and sent)" target="-" ;;
    next) name="NextPuzzle" target="<= 2" ;;
    play) name="RecordPlay (judged, rated, play_id)" target="<= 3" ;;
  esac
  awk -v name="$name" -v t="${TICKS[$rpc]}" -v n="${CALLS[$rpc]}" -v hz="$HZ" -v h="$health_us" \
    -v rounds="${PER_ROUND[$rpc]# }" -v target="$target" 'BEGIN {
      us = t / hz / n * 1e6
      printf "| %s | %d | %s | %.0f | %.2f | %s |\n", name, n, rounds, us, us / h, target }'
done
