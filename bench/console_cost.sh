#!/usr/bin/env bash
# The console's costs (issue "The console"), in one run:
#   (a) server time per page with a store of PUZZLES puzzles: the API calls
#       each page makes (overview, the store's family x level table, a browse
#       page deep in the results, a puzzle page with its drawing), timed by
#       curl on loopback (time_total: request to last byte), REPS each;
#   (b) what the console's polling costs the coordinator: coordinator CPU
#       over WINDOW seconds idle with no console, then with a console polling
#       every 200 ms (ten times the default, so the cost stands out of the
#       noise), giving CPU per poll; and the coordinator's own CPU during a
#       secret-number campaign (coordinator + 2 workers x 1 thread), so the
#       default 2 s polling is stated as a share of it.
# The store is the one bench/store_load.sh builds and keeps
# (/tmp/foundry-bench-store-PUZZLES); each phase runs on a fresh copy.
# Usage: bench/console_cost.sh [PUZZLES]   (default 1000000)
# Env: REPS (20), WINDOW (20), DEPTH (500: pages of 1,000 walked before the
# deep browse page).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
PUZZLES=${1:-1000000}
REPS=${REPS:-20}
WINDOW=${WINDOW:-20}
DEPTH=${DEPTH:-500}
BIN=build/bin
STORE=/tmp/foundry-bench-store-$PUZZLES
with_work_dir

cmake --build build --target foundry foundry-coordinator foundry-worker foundry-console -j1 \
  >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log" >&2; exit 1; }
if [ ! -d "$STORE" ]; then
  echo "building $STORE ($PUZZLES puzzles; kept for the next runs)" >&2
  rm -rf "$STORE.partial"
  "$BIN/foundry" run --family secret-number --count "$PUZZLES" --seed 1 --set digits=3 \
    --threads "$(nproc)" --quiet --db "$STORE.partial" >&2
  mv "$STORE.partial" "$STORE"
fi

wait_for() {  # wait_for FILE SED-EXPR PID: prints the first match
  local v=""
  for _ in $(seq 1 600); do
    v=$(sed -n "$2" "$1")
    [ -n "$v" ] && { echo "$v"; return; }
    kill -0 "$3" 2>/dev/null || { cat "$1" >&2; exit 1; }
    sleep 0.1
  done
  echo "timed out waiting for $1" >&2; exit 1
}
start_coordinator() {
  rm -rf "$WORK/db"; cp -r "$STORE" "$WORK/db"
  "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$WORK/db" >"$WORK/coord.log" 2>&1 &
  COORD=$!; pids+=("$COORD")
  ADDR=127.0.0.1:$(wait_for "$WORK/coord.log" 's/.*listening on port \([0-9]*\).*/\1/p' "$COORD")
}
start_console() {  # start_console POLL_MS
  "$BIN/foundry-console" --coordinator "$ADDR" --listen 127.0.0.1:0 --poll-ms "$1" \
    >"$WORK/console.log" 2>&1 &
  CONSOLE=$!; pids+=("$CONSOLE")
  URL=$(wait_for "$WORK/console.log" 's/.*serving \(http[^ ]*\).*/\1/p' "$CONSOLE")
  URL=${URL%/}
  curl -s -c "$WORK/cookies" "$URL/api/session" >/dev/null
}
HZ=$(getconf CLK_TCK)
get() { curl -s -b "$WORK/cookies" "$URL$1"; }
# time_page NAME PATH...: REPS rounds of the page's calls; median and max ms of a round.
time_page() {
  local name=$1; shift
  local times=()
  for _ in $(seq 1 "$REPS"); do
    local total=0
    for path in "$@"; do
      local t
      t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -b "$WORK/cookies" "$URL$path")
      [ "${t%% *}" = 200 ] || { echo "GET $path answered ${t%% *}" >&2; exit 1; }
      total=$(awk -v a="$total" -v b="${t#* }" 'BEGIN {print a + b}')
    done
    times+=("$total")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk -v n="$name" '{a[NR] = $1 * 1000}
    END {printf "| %s | %.1f | %.1f |\n", n, a[int((NR + 1) / 2)], a[NR]}'
}

echo "## bench/console_cost.sh $* — $(date -u +%F), $(nproc) cores, store of $PUZZLES puzzles"
echo
echo "### (a) server time per page (ms, request to last byte on loopback; $REPS rounds)"
echo
echo "| page (its API calls) | median | max |"
echo "|---|---|---|"
start_coordinator
start_console 2000
sleep 3  # two polls: the overview has a rate
id=$(get "/api/store/query?page_size=1" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
token=""
for _ in $(seq 1 "$DEPTH"); do
  token=$(get "/api/store/query?page_size=1000&page_token=$token" |
    sed -n 's/.*"next_page_token":"\([^"]*\)".*/\1/p')
done
time_page "overview (session + overview)" /api/session /api/overview
time_page "store table (levels + families)" /api/store/levels /api/families
time_page "browse, page $((DEPTH * 20 + 1)) of 50 (query with token)" \
  "/api/store/query?page_size=50&page_token=$token"
time_page "puzzle (puzzle + drawing)" "/api/puzzles/$id" "/api/puzzles/$id/svg"
stop_pids

echo
echo "### (b) what polling costs the coordinator (CPU, ${WINDOW} s windows)"
echo
start_coordinator
sleep 2
c0=$(ticks "$COORD"); sleep "$WINDOW"; c1=$(ticks "$COORD")
idle=$((c1 - c0))
start_console 200
sleep 2
c0=$(ticks "$COORD"); sleep "$WINDOW"; c1=$(ticks "$COORD")
polled=$((c1 - c0))
stop_pids
start_coordinator
for i in 1 2; do
  "$BIN/foundry-worker" --coordinator "$ADDR" --threads 1 --worker-id "w$i" >"$WORK/w$i.log" 2>&1 &
  pids+=($!)
done
"$BIN/foundry" campaign submit --coordinator "$ADDR" --family secret-number --count 5000000 \
  --seed 7 >/dev/null
sleep 3
c0=$(ticks "$COORD"); sleep "$WINDOW"; c1=$(ticks "$COORD")
busy=$((c1 - c0))
stop_pids
awk -v idle="$idle" -v polled="$polled" -v busy="$busy" -v hz="$HZ" -v w="$WINDOW" 'BEGIN {
  polls = w * 1000 / 200
  per_poll_ms = (polled - idle) / hz * 1000 / polls
  if (per_poll_ms < 0) per_poll_ms = 0
  default_share = per_poll_ms / 2000            # of one core, at one poll per 2 s
  campaign_cores = busy / hz / w
  printf "| measure | value |\n|---|---|\n"
  printf "| coordinator CPU idle, no console | %.2f%% of a core |\n", idle / hz / w * 100
  printf "| coordinator CPU idle, console polling every 200 ms | %.2f%% of a core |\n", polled / hz / w * 100
  printf "| coordinator CPU per poll (GetStats + ListWorkers) | %.3f ms |\n", per_poll_ms
  printf "| coordinator CPU during a campaign (2 workers x 1 thread) | %.2f cores |\n", campaign_cores
  printf "| default polling (2 s) as a share of the campaign coordinator CPU | %.3f%% |\n", default_share / campaign_cores * 100
}'
