#!/usr/bin/env bash
# The store under load (issue "fast under load"), in one run on one machine:
#   (a) Get, Sample and Query (first page) alone, each flat out;
#   (b) a campaign's write rate alone (coordinator + 2 workers x 1 thread);
#   (c) the same campaign with Get load at the same time: flat out, then at
#       a fixed rate (READ_RATE) — the write-rate drop, and the Get figures;
#   (d) the coordinator's RSS with the store open, after the reads, and
#       during the campaign (b).
# Each read row also gives the CPU time per request of the coordinator (from
# /proc) and of store_load (getrusage) over the window: on a shared 2-core
# machine these say more than requests/s, which other load moves.
#
# The store of PUZZLES secret-number puzzles is built once and kept in
# /tmp/foundry-bench-store-PUZZLES. Every phase starts a coordinator on a
# fresh copy of it, and (b) and (c) run the same campaign (same seed): the
# three campaigns do identical work on identical stores. (One coordinator
# for all of them drifted: each campaign grew the store, and the next one
# ran slower with or without load — 16.0k then 13.0k puzzles/s alone.)
# Usage: bench/store_load.sh [PUZZLES]   (default 1000000)
# Env: STREAMS (8), SECONDS_PER_RUN (10), WINDOW (10, campaign window), RAMP
# (3, campaign start-up left out), READ_RATE (2000 Gets/s, the second (c)),
# CAMPAIGN_COUNT (500000: the campaign must outlive RAMP + WINDOW).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
PUZZLES=${1:-1000000}
STREAMS=${STREAMS:-8}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
WINDOW=${WINDOW:-10}
RAMP=${RAMP:-3}
READ_RATE=${READ_RATE:-2000}
CAMPAIGN_COUNT=${CAMPAIGN_COUNT:-500000}
BIN=build/bin
STORE=/tmp/foundry-bench-store-$PUZZLES
COMMAND="bench/store_load.sh $*"
for v in CAMPAIGN_COUNT READ_RATE RAMP WINDOW SECONDS_PER_RUN STREAMS; do  # the overrides given
  if printenv "$v" >/dev/null; then COMMAND="$v=$(printenv "$v") $COMMAND"; fi
done
with_work_dir

# Only the four targets, one job at a time: the machine is shared.
if ! cmake --build build --target foundry foundry-coordinator foundry-worker store_load -j1 \
    >"$WORK/build.log" 2>&1; then
  tail -30 "$WORK/build.log" >&2
  echo "store_load.sh: build failed (log above)" >&2
  exit 1
fi

if [ ! -d "$STORE" ]; then
  echo "building $STORE ($PUZZLES puzzles; kept for the next runs)" >&2
  rm -rf "$STORE.partial"
  # digits=3: the cheapest secret-number puzzles (2.9 us each), all cores.
  "$BIN/foundry" run --family secret-number --count "$PUZZLES" --seed 1 --set digits=3 \
    --threads "$(nproc)" --quiet --db "$STORE.partial" >&2
  mv "$STORE.partial" "$STORE"  # only a finished store gets the name
fi

# start_coordinator [workers]: a coordinator on a fresh copy of the store
# (COORD, ADDR), and with "workers" two foundry-worker x 1 thread (WORKERS).
start_coordinator() {
  rm -rf "$WORK/db"
  cp -r "$STORE" "$WORK/db"
  "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$WORK/db" --metrics-listen 127.0.0.1:0 \
    >"$WORK/coord.log" 2>&1 &
  COORD=$!
  pids+=("$COORD")
  local port
  port=$(coordinator_port "$WORK/coord.log" "$COORD")
  ADDR=127.0.0.1:$port
  WORKERS=()
  if [ "${1:-}" = workers ]; then
    for i in 1 2; do
      "$BIN/foundry-worker" --coordinator "$ADDR" --threads 1 >"$WORK/w$i.log" 2>&1 &
      pids+=($!)
      WORKERS+=($!)
    done
  fi
}

rss_mb() { awk '/^VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$COORD/status"; }
hwm_mb() { awk '/^VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$COORD/status"; }
now() { date +%s.%N; }
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" | tr -d '"'; }  # from a one-line JSON object
campaign_field() {  # ID FIELD: a counter or the state of a campaign ("" when not set)
  "$BIN/foundry" campaign status --coordinator "$ADDR" "$1" --json | field "$2"
}
stored() { local n; n=$(campaign_field "$1" stored); echo "${n:-0}"; }
TICK_US=$((1000000 / $(getconf CLK_TCK)))
cpu_ticks() { ticks "$COORD"; }
worker_ticks() { ticks "${WORKERS[0]}" "${WORKERS[1]}"; }

# A store_load run in the background: start_load SECONDS [flags...] returns
# once its measuring window has begun (the warm-up and the id pool are
# done); finish_load waits for it and sets LOAD (its JSON) and CPU_US (the
# coordinator's CPU time per request over the window).
start_load() {
  local seconds=$1
  shift
  "$BIN/store_load" --target "$ADDR" --streams "$STREAMS" --seconds "$seconds" --warmup-seconds 1 \
    --json "$@" >"$WORK/load.json" 2>"$WORK/load.err" &
  LPID=$!
  pids+=("$LPID")
  wait_for_log "$WORK/load.err" measuring "$LPID"
  CPU0=$(cpu_ticks)
}
finish_load() {
  wait "$LPID" || { cat "$WORK/load.err" >&2; exit 1; }
  local cpu1
  cpu1=$(cpu_ticks)
  LOAD=$(cat "$WORK/load.json")
  CPU_US=$(awk -v t=$((cpu1 - CPU0)) -v n="$(field requests <<<"$LOAD")" -v us="$TICK_US" \
    'BEGIN { printf "%.0f", (n > 0 ? t * us / n : 0) }')
}

# ---- (a) reads alone, and (d) RSS around them ----
start_coordinator
RSS_OPEN=$(rss_mb)
start_load "$SECONDS_PER_RUN" --rpc get; finish_load
GET=$LOAD GET_CPU=$CPU_US
start_load "$SECONDS_PER_RUN" --rpc sample; finish_load
SAMPLE=$LOAD SAMPLE_CPU=$CPU_US
start_load "$SECONDS_PER_RUN" --rpc query; finish_load
QUERY=$LOAD QUERY_CPU=$CPU_US
RSS_READS=$(rss_mb)
stop_pids

# campaign [store_load flags...]: on a fresh coordinator and two workers, a
# campaign (seed 99) and, with flags, a store_load run alongside. Sets RATE
# (stored puzzles/s over WINDOW), SHARE (the CPU the coordinator and the
# workers used meanwhile) and, with flags, LOAD. The window starts RAMP s
# after the first commit (workers connected, jobs flowing) and, with a
# load, once store_load measures.
campaign() {
  start_coordinator workers
  local id
  id=$("$BIN/foundry" campaign submit --coordinator "$ADDR" --family secret-number \
    --count "$CAMPAIGN_COUNT" --seed 99 --set digits=3 | sed -n 's/^submitted campaign //p')
  for _ in $(seq 1 600); do [ "$(stored "$id")" -gt 0 ] && break; sleep 0.1; done
  sleep "$RAMP"
  [ $# -eq 0 ] || start_load "$WINDOW" "$@"
  local s0 t0 s1 t1 c0 c1 w0 w1
  s0=$(stored "$id"); t0=$(now); c0=$(cpu_ticks); w0=$(worker_ticks)
  sleep "$WINDOW"
  s1=$(stored "$id"); t1=$(now); c1=$(cpu_ticks); w1=$(worker_ticks)
  [ "$(campaign_field "$id" state)" = CAMPAIGN_STATE_RUNNING ] ||
    echo "warning: the campaign ended inside the window; raise CAMPAIGN_COUNT" >&2
  [ $# -eq 0 ] || finish_load
  "$BIN/foundry" campaign cancel --coordinator "$ADDR" "$id" >/dev/null
  RATE=$(awk -v a="$s0" -v b="$s1" -v x="$t0" -v y="$t1" 'BEGIN { printf "%.0f", (b - a) / (y - x) }')
  SHARE=$(awk -v c=$((c1 - c0)) -v w=$((w1 - w0)) -v x="$t0" -v y="$t1" -v us="$TICK_US" \
    'BEGIN { s = us / 1e4 / (y - x)
             printf "coordinator %.0f%% + workers %.0f%% of a core", c * s, w * s }')
  RSS_CAMPAIGN=$(rss_mb) RSS_PEAK=$(hwm_mb)
  stop_pids
}
campaign
ALONE=$RATE ALONE_SHARE=$SHARE ALONE_RSS=$RSS_CAMPAIGN ALONE_PEAK=$RSS_PEAK
campaign --rpc get
GET_RATE=$RATE GET_SHARE=$SHARE GET_DURING=$LOAD
campaign --rpc get --rate "$READ_RATE"
PACED_RATE=$RATE PACED_SHARE=$SHARE PACED_DURING=$LOAD

# ---- report ----
row() {  # LABEL JSON CPU [CAMPAIGN_RATE] [DROP]
  local j=$2
  printf '| %s | %.0f | %.3f | %.3f | %.3f | %.3f | %s | %s | %s |\n' "$1" "$(field requests_per_s <<<"$j")" \
    "$(field p50_ms <<<"$j")" "$(field p90_ms <<<"$j")" "$(field p99_ms <<<"$j")" \
    "$(field max_ms <<<"$j")" "$(field errors <<<"$j")" "$3" "${4:--}${5:+ ($5)}"
}
per_request() {  # COORDINATOR_US JSON: "N / M us" (coordinator / store_load CPU per request)
  printf '%s / %.0f us' "$1" "$(field client_cpu_us_per_request <<<"$2")"
}
drop() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.0f%%", (a > 0 ? 100 * (b - a) / a : 0) }'; }
echo "## Store under load: $(date -u +%Y-%m-%dT%H:%MZ), $PUZZLES secret-number puzzles (digits 3)," \
  "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "\`$COMMAND\` — $STREAMS streams; reads ${SECONDS_PER_RUN} s each, campaign windows ${WINDOW} s"
echo
echo "| load | requests/s | p50 ms | p90 ms | p99 ms | max ms | errors |" \
  "CPU: per request (coordinator / store_load), or shares | campaign puzzles/s |"
echo "|---|---|---|---|---|---|---|---|---|"
row "(a) Get alone" "$GET" "$(per_request "$GET_CPU" "$GET")"
row "(a) Sample (1 puzzle) alone" "$SAMPLE" "$(per_request "$SAMPLE_CPU" "$SAMPLE")"
row "(a) Query, first page of 100, alone" "$QUERY" "$(per_request "$QUERY_CPU" "$QUERY")"
echo "| (b) campaign alone, 2 workers x 1 thread | - | - | - | - | - | - | $ALONE_SHARE | $ALONE |"
row "(c) campaign + Get flat out" "$GET_DURING" "$GET_SHARE" "$GET_RATE" "$(drop "$ALONE" "$GET_RATE")"
row "(c) campaign + Get at $READ_RATE/s" "$PACED_DURING" "$PACED_SHARE" "$PACED_RATE" \
  "$(drop "$ALONE" "$PACED_RATE")"
echo
echo "(d) coordinator RSS: $RSS_OPEN MB with the store open, $RSS_READS MB after the reads (a);" \
  "$ALONE_RSS MB at the end of the campaign alone (b), $((RAMP + WINDOW)) s in, peak $ALONE_PEAK MB"
