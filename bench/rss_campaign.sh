#!/usr/bin/env bash
# Peak resident memory of the coordinator and two workers through a whole
# campaign, for two campaign sizes side by side: memory must not grow with
# the campaign's count (bounded commit window, per-job worker buffers).
# Usage: bench/rss_campaign.sh [SMALL] [LARGE]   (defaults 100000 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
BIN=build/bin
SMALL=${1:-100000}
LARGE=${2:-1000000}
with_work_dir

rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

run() {  # count -> "coordinator_peak_kb worker1_peak_kb worker2_peak_kb seconds"
  local count=$1 db="$WORK/db-$1"
  "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$db" >"$WORK/c.log" 2>&1 &
  local c=$!; pids+=($c)
  local port
  port=$(coordinator_port "$WORK/c.log" "$c")
  "$BIN/foundry-worker" --coordinator "127.0.0.1:$port" --threads 1 >/dev/null 2>&1 & local w1=$!; pids+=($w1)
  "$BIN/foundry-worker" --coordinator "127.0.0.1:$port" --threads 1 >/dev/null 2>&1 & local w2=$!; pids+=($w2)
  "$BIN/foundry" campaign submit --coordinator "127.0.0.1:$port" --family secret-number \
    --count "$count" --seed 1 --watch >"$WORK/watch.log" 2>&1 &
  local watch=$!
  local pc=0 p1=0 p2=0 start=$SECONDS
  while kill -0 "$watch" 2>/dev/null; do
    local a b d; a=$(rss_kb $c); b=$(rss_kb $w1); d=$(rss_kb $w2)
    [ "$a" -gt "$pc" ] && pc=$a; [ "$b" -gt "$p1" ] && p1=$b; [ "$d" -gt "$p2" ] && p2=$d
    sleep 0.5
  done
  wait "$watch"
  echo "$pc $p1 $p2 $((SECONDS - start))"
  kill -TERM $c $w1 $w2; wait $c $w1 $w2 2>/dev/null || true
  pids=()
}

small=($(run "$SMALL"))
large=($(run "$LARGE"))
printf '%-12s %16s %16s %16s %9s\n' "count" "coordinator MB" "worker 1 MB" "worker 2 MB" "seconds"
printf '%-12s %16.1f %16.1f %16.1f %9s\n' "$SMALL" "$(echo "${small[0]}/1024" | bc -l)" \
  "$(echo "${small[1]}/1024" | bc -l)" "$(echo "${small[2]}/1024" | bc -l)" "${small[3]}"
printf '%-12s %16.1f %16.1f %16.1f %9s\n' "$LARGE" "$(echo "${large[0]}/1024" | bc -l)" \
  "$(echo "${large[1]}/1024" | bc -l)" "$(echo "${large[2]}/1024" | bc -l)" "${large[3]}"
