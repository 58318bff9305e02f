#!/usr/bin/env bash
# bench/soak.sh: campaigns, reads and plays through a schedule of faults.
#
# For SOAK_SECONDS (1800), three lanes (sudoku, zebra, nonogram) each run
# campaigns one after another (SOAK_COUNT puzzles each, a pause between
# them) on one coordinator and SOAK_WORKERS workers, while SOAK_READERS
# game-server clients (bench/soak_client) sample, read and record plays with
# play ids, retrying each play until it is acknowledged. A fault schedule
# drawn from SOAK_SEED meanwhile, every 6-15 s: SIGKILLs a worker or the
# coordinator and restarts it, pauses a worker past its lease or the
# coordinator for 2 s (SIGSTOP, SIGCONT), or stops a worker with SIGTERM and
# starts it again. The coordinator and the workers find each other through an
# address file, as on a cluster; leases last 3 s.
#
# At the end (faults stop, the lanes finish their campaigns):
#   - every campaign exact: DONE with its count, and the store holds the same
#     ids, sorted, as `foundry run` stores for the same campaigns;
#   - every acknowledged play counted once: the plays in the store equal the
#     plays the clients were told were recorded;
#   - `foundry verify --db` clean;
#   - RSS and open files (but the store's table files, one each, which grow
#     in number with the data) of the coordinator and the workers, first against
#     last window (a fifth of the run, at most five minutes): growth <= 10%
#     is checked for runs of 20 minutes or more (shorter runs are all warm-up
#     and only print it);
#   - a table of the faults injected and the longest stall each caused: the
#     longest time without a new stored puzzle, and without a successful
#     client call, in the window from the fault to the next one.
# Exit status 0 when every check holds.
# Usage: bench/soak.sh [BIN_DIR]  (default build/bin). Env: SOAK_SECONDS,
#   SOAK_SEED (1), SOAK_COUNT (5000), SOAK_WORKERS (3), SOAK_READERS (2),
#   SOAK_FAULT_ORDER (random: each fault's kind drawn, 6-15 s apart; cycle:
#   the five kinds in turn, 3-6 s apart, each at least once, which the
#   checks then require: the short soak of every test run),
#   SOAK_KEEP=1 keeps the work folder; SOAK_CHECK_ONLY=DIR runs the checks
#   again on a kept folder.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

BIN=$(cd "${1:-build/bin}" && pwd)
SECONDS_TOTAL=${SOAK_SECONDS:-1800}
SEED=${SOAK_SEED:-1}
COUNT=${SOAK_COUNT:-5000}
WORKERS=${SOAK_WORKERS:-3}
READERS=${SOAK_READERS:-2}
FAULT_ORDER=${SOAK_FAULT_ORDER:-random}
LEASE=3
FAMILIES=(sudoku zebra nonogram)
F=$BIN/foundry
for b in foundry foundry-coordinator foundry-worker soak_client; do
  [ -x "$BIN/$b" ] || { echo "soak: $BIN/$b is missing" >&2; exit 1; }
done

if [ -n "${SOAK_CHECK_ONLY:-}" ]; then
  WORK=$SOAK_CHECK_ONLY  # the checks again, on a kept run (SOAK_KEEP=1)
  SOAK_KEEP=1
else
  WORK=$(mktemp -d /tmp/foundry-soak.XXXXXX)
fi
declare -A worker_pid=()
coord_pid=""
lane_pids=()
reader_pids=()
fault_pid=""
monitor_pid=""
cleanup() {
  local rc=$?
  set +e
  for p in $fault_pid $monitor_pid "${lane_pids[@]}" "${reader_pids[@]}"; do
    kill -TERM "$p" 2>/dev/null
  done
  # The pid files: the fault schedule restarts processes in its own shell.
  for p in $(cat "$WORK"/*.pid 2>/dev/null) "${worker_pid[@]}" $coord_pid; do
    kill -CONT "$p" 2>/dev/null
    kill -KILL "$p" 2>/dev/null
  done
  wait 2>/dev/null
  if [ "${SOAK_KEEP:-0}" = 1 ]; then echo "soak: kept $WORK"; else rm -rf "$WORK"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started_ms=$(date +%s%3N)
now_ms() { date +%s%3N; }
say() { printf '[%7.1fs] %s\n' "$(( $(now_ms) - started_ms ))e-3" "$*"; }
ADDR_FILE=$WORK/coord.addr
addr() { cat "$ADDR_FILE" 2>/dev/null; }

start_coordinator() {
  rm -f "$ADDR_FILE"
  "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --address-file "$ADDR_FILE" \
    --db "$WORK/store" --lease-seconds "$LEASE" >>"$WORK/coordinator.log" 2>&1 &
  coord_pid=$!
  echo "$coord_pid" >"$WORK/coord.pid"
  for _ in $(seq 1 300); do [ -s "$ADDR_FILE" ] && return 0; sleep 0.1; done
  say "the coordinator did not come up"; return 1
}
start_worker() {  # INDEX
  "$BIN/foundry-worker" --coordinator-file "$ADDR_FILE" --threads 1 \
    >>"$WORK/worker$1.log" 2>&1 &
  worker_pid[$1]=$!
  echo "${worker_pid[$1]}" >"$WORK/worker$1.pid"
}

# --- a lane: campaigns of one family, one after another -------------------------
# Writes "family count seed id" per campaign to lane-FAMILY.txt. A submit that
# failed may still have started the campaign (the coordinator killed after
# it stored the record): the lane adopts a campaign of its family and seed
# before it submits again.
find_campaign() {  # FAMILY SEED: the id of a campaign with that family and seed
  "$F" campaign list --coordinator "$(addr)" --json 2>/dev/null |
    jq -r --arg f "$1" --arg s "$2" \
      'select(.spec.family == $f and ((.spec.seed // 0) | tostring) == $s) | .id' 2>/dev/null |
    head -1 || true
}
lane() {  # INDEX FAMILY DEADLINE_MS
  set +e  # a call that fails while the coordinator is down is tried again
  local index=$1 family=$2 deadline=$3 k=0 id seed state
  while [ "$(now_ms)" -lt "$deadline" ]; do
    k=$(( k + 1 ))
    seed=$(( SEED * 100000 + index * 1000 + k ))
    id=""
    while [ -z "$id" ]; do
      id=$("$F" campaign submit --coordinator "$(addr)" --family "$family" --count "$COUNT" \
        --seed "$seed" 2>/dev/null | grep -o 'c-[0-9a-f]*' || true)
      [ -n "$id" ] || { sleep 0.5; id=$(find_campaign "$family" "$seed"); }
    done
    echo "$family $COUNT $seed $id" >>"$WORK/lane-$family.txt"
    while :; do
      state=$("$F" campaign status "$id" --coordinator "$(addr)" --json 2>/dev/null |
        jq -r .state || true)
      case "$state" in
        CAMPAIGN_STATE_RUNNING | "") sleep 1 ;;
        *) echo "$id $state" >>"$WORK/lane-$family.end"; break ;;
      esac
    done
    sleep $(( 3 + RANDOM % 8 ))  # bounds the puzzles the reference run must make again
  done
}

# --- the fault schedule -------------------------------------------------------------
faults() {  # DEADLINE_MS
  set +e
  RANDOM=$SEED
  local deadline=$1 kind w pid n=0
  while :; do
    if [ "$FAULT_ORDER" = cycle ]; then sleep $(( 3 + RANDOM % 4 )); else sleep $(( 6 + RANDOM % 10 )); fi
    [ "$(now_ms)" -lt "$deadline" ] || break
    if [ "$FAULT_ORDER" = cycle ]; then kind=$(( n % 5 )); else kind=$(( RANDOM % 5 )); fi
    n=$(( n + 1 ))
    w=$(( RANDOM % WORKERS ))
    pid=$(cat "$WORK/worker$w.pid")
    case $kind in
      0) echo "$(now_ms) kill-worker worker$w" >>"$WORK/faults.txt"
         kill -KILL "$pid"; sleep $(( 1 + RANDOM % 3 )); start_worker "$w" ;;
      1) echo "$(now_ms) kill-coordinator coordinator" >>"$WORK/faults.txt"
         kill -KILL "$(cat "$WORK/coord.pid")"; sleep $(( 1 + RANDOM % 2 )); start_coordinator ;;
      2) echo "$(now_ms) pause-worker worker$w" >>"$WORK/faults.txt"
         kill -STOP "$pid"; sleep $(( LEASE + 2 )); kill -CONT "$pid" ;;
      3) echo "$(now_ms) pause-coordinator coordinator" >>"$WORK/faults.txt"
         kill -STOP "$(cat "$WORK/coord.pid")"; sleep 2; kill -CONT "$(cat "$WORK/coord.pid")" ;;
      4) echo "$(now_ms) term-worker worker$w" >>"$WORK/faults.txt"
         kill -TERM "$pid"; sleep 1; start_worker "$w" ;;
    esac
  done
}

# --- the monitor: progress and resources, every second --------------------------------
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
# Open files but the store's table files: RocksDB keeps each one open, and
# there are more as the store grows (39 after 2.57 million puzzles).
fds() {
  local n=0 f t
  for f in /proc/"$1"/fd/*; do
    t=$(readlink "$f" 2>/dev/null) || continue
    case $t in *.sst) ;; *) n=$(( n + 1 )) ;; esac
  done
  echo "$n"
}
monitor() {
  set +e
  local stored c wr wf w p
  while :; do
    stored=$("$F" stats --coordinator "$(addr)" --json 2>/dev/null |
      jq -r '.puzzles // empty' 2>/dev/null || true)
    [ -n "$stored" ] && echo "$(now_ms) $stored" >>"$WORK/progress.txt"
    c=$(cat "$WORK/coord.pid")
    wr=0; wf=0
    for w in $(seq 0 $(( WORKERS - 1 ))); do
      p=$(cat "$WORK/worker$w.pid")
      wr=$(( wr + $(rss_kb "$p") )); wf=$(( wf + $(fds "$p") ))
    done
    echo "$(now_ms) $(rss_kb "$c") $(fds "$c") $wr $wf" >>"$WORK/resources.txt"
    sleep 1
  done
}

if [ -n "${SOAK_CHECK_ONLY:-}" ]; then
  . "$WORK/run.env"
  rm -rf "$WORK/ref"
else
# --- the run -------------------------------------------------------------------------
command -v jq >/dev/null || scripts/ensure-deps.sh jq
start_coordinator
for w in $(seq 0 $(( WORKERS - 1 ))); do start_worker "$w"; done
deadline=$(( $(now_ms) + SECONDS_TOTAL * 1000 ))
echo "started_ms=$started_ms deadline=$deadline SECONDS_TOTAL=$SECONDS_TOTAL" >"$WORK/run.env"
say "soak: ${SECONDS_TOTAL}s, seed $SEED, $WORKERS workers, $READERS readers, lanes ${FAMILIES[*]} of $COUNT"
monitor &
monitor_pid=$!
for i in "${!FAMILIES[@]}"; do
  lane "$i" "${FAMILIES[$i]}" "$deadline" &
  lane_pids+=($!)
done
for r in $(seq 1 "$READERS"); do
  "$BIN/soak_client" --address-file "$ADDR_FILE" --name "reader$r" --out "$WORK/reader$r.out" \
    >"$WORK/reader$r.log" 2>&1 &
  reader_pids+=($!)
done
faults "$deadline" &
fault_pid=$!
wait "$fault_pid"
fault_pid=""
# A fault in progress ended with its restart; the store is whole from here.
coord_pid=$(cat "$WORK/coord.pid")
for w in $(seq 0 $(( WORKERS - 1 ))); do worker_pid[$w]=$(cat "$WORK/worker$w.pid"); done
say "faults over ($(wc -l <"$WORK/faults.txt" 2>/dev/null || echo 0) injected); the lanes finish"
for p in "${lane_pids[@]}"; do wait "$p"; done
lane_pids=()
for p in "${reader_pids[@]}"; do kill -TERM "$p"; done
for p in "${reader_pids[@]}"; do wait "$p" || true; done
reader_pids=()
kill -TERM "$monitor_pid"; wait "$monitor_pid" 2>/dev/null || true
monitor_pid=""
# Processes the fault schedule restarted are not this shell's children:
# `wait` does not wait for them, so look until they are gone.
for p in "${worker_pid[@]}" "$coord_pid"; do kill -TERM "$p" 2>/dev/null || true; done
for p in "${worker_pid[@]}" "$coord_pid"; do
  for _ in $(seq 1 300); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$p" 2>/dev/null || true
done
coord_pid=""
worker_pid=()
rm -f "$WORK"/*.pid  # gone: their numbers may be reused
fi
say "stopped; checking"

# --- checks --------------------------------------------------------------------------
failures=()
check() {
  local what=$1
  shift
  if "$@"; then say "ok: $what"; else say "FAIL: $what"; failures+=("$what"); fi
}
cat "$WORK"/lane-*.txt >"$WORK/campaigns.txt"
campaigns=$(wc -l <"$WORK/campaigns.txt")
not_done=$(cat "$WORK"/lane-*.end | awk '$2 != "CAMPAIGN_STATE_DONE"' | wc -l)
check "all $campaigns campaigns DONE" test "$not_done" -eq 0
if [ "$FAULT_ORDER" = cycle ]; then
  kinds=$(awk '{ print $2 }' "$WORK/faults.txt" | sort -u | wc -l)
  check "every kind of fault injected ($kinds of 5)" test "$kinds" -eq 5
fi
# Columns 1-9 of the CSV (id ... campaign) hold no commas or quotes.
"$F" export --db "$WORK/store" --format csv --no-solution | tail -n +2 |
  cut -d, -f1,7,8,9 >"$WORK/stored.csv"
cut -d, -f4 "$WORK/stored.csv" | sort | uniq -c >"$WORK/per_campaign.txt"
short=0
while read -r family count seed id; do
  n=$(awk -v c="$id" '$2 == c { print $1 }' "$WORK/per_campaign.txt")
  [ "${n:-0}" -eq "$count" ] || { say "campaign $id ($family, seed $seed): ${n:-0} stored of $count"; short=$(( short + 1 )); }
done <"$WORK/campaigns.txt"
check "every campaign stored exactly its count" test "$short" -eq 0
# The reference: the same campaigns, lane by lane in order, in one process.
for family in "${FAMILIES[@]}"; do
  while read -r fam count seed id; do
    "$F" run --family "$fam" --count "$count" --seed "$seed" --db "$WORK/ref" --threads 2 \
      --quiet >"$WORK/ref.out" 2>&1 || { say "foundry run failed: $(tail -2 "$WORK/ref.out")"; exit 1; }
  done <"$WORK/lane-$family.txt"
done
cut -d, -f1 "$WORK/stored.csv" | LC_ALL=C sort >"$WORK/ids.soak"
"$F" export --db "$WORK/ref" --format csv --no-solution | tail -n +2 | cut -d, -f1 |
  LC_ALL=C sort >"$WORK/ids.ref"
check "the same $(wc -l <"$WORK/ids.soak") ids as foundry run ($(wc -l <"$WORK/ids.ref"))" \
  cmp -s "$WORK/ids.soak" "$WORK/ids.ref"
acked=$(cat "$WORK"/reader*.out | awk 'NF == 6 { s += $2 } END { print s + 0 }')
uncertain=$(cat "$WORK"/reader*.out | awk 'NF == 6 { s += $6 } END { print s + 0 }')
replayed=$(cat "$WORK"/reader*.out | awk 'NF == 6 { s += $3 } END { print s + 0 }')
stored_plays=$(awk -F, '{ s += $2 + $3 } END { print s + 0 }' "$WORK/stored.csv")
say "plays: $acked acknowledged ($replayed of them replayed after a lost answer), $uncertain unanswered at the end, $stored_plays in the store"
check "every acknowledged play counted once" \
  test "$stored_plays" -ge "$acked" -a "$stored_plays" -le $(( acked + uncertain ))
check "foundry verify --db is clean" bash -c "'$F' verify --db '$WORK/store' >'$WORK/verify.out' 2>&1"

# Resources: the first and last windows of the run.
window_ms=$(( SECONDS_TOTAL * 1000 / 5 ))
[ "$window_ms" -le 300000 ] || window_ms=300000
first_end=$(( started_ms + window_ms ))
last_start=$(( deadline - window_ms ))
resource_growth() {  # COLUMN: "first last growth%" of the column's median per window
  local a b
  a=$(awk -v e="$first_end" -v c="$1" '$1 <= e && $c > 0 { print $c }' "$WORK/resources.txt" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }')
  b=$(awk -v s="$last_start" -v d="$deadline" -v c="$1" '$1 >= s && $1 <= d && $c > 0 { print $c }' "$WORK/resources.txt" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }')
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%d %d %.1f", a, b, (a > 0 ? 100 * (b - a) / a : 0) }'
}
printf '\n%-24s %12s %12s %8s\n' "resource (median)" "first" "last" "growth"
rss_ok=1
for spec in "2 coordinator RSS (KiB)" "3 coordinator open files" "4 workers RSS (KiB)" "5 workers open files"; do
  col=${spec%% *}
  read -r a b g <<<"$(resource_growth "$col")"
  printf '%-24s %12s %12s %7s%%\n' "${spec#* }" "$a" "$b" "$g"
  awk -v g="$g" 'BEGIN { exit !(g > 10) }' && rss_ok=0
done
if [ "$SECONDS_TOTAL" -ge 1200 ]; then
  check "RSS and open files grew by 10% or less (first against last window)" test "$rss_ok" -eq 1
else
  say "(resource growth not checked: a ${SECONDS_TOTAL}s run is mostly warm-up)"
fi

# The faults and the longest stall each caused.
cat "$WORK"/reader*.out | awk 'NF == 1' | sort -n -u >"$WORK/live.txt"
printf '\n%-4s %9s %-18s %-12s %14s %14s\n' "#" "at (s)" "fault" "target" "commit stall" "client stall"
awk -v t0="$started_ms" -v end="$deadline" '
  FILENAME ~ /faults/ { n++; at[n] = $1; kind[n] = $2; target[n] = $3; next }
  FILENAME ~ /progress/ { pn++; pt[pn] = $1; pv[pn] = $2; next }
  { ln++; lt[ln] = $1 }
  END {
    for (i = 1; i <= n; i++) {
      lo = at[i]; hi = (i < n ? at[i + 1] : end)
      # commits: the longest time the stored count stood still, from the fault on
      cs = 0; last = lo
      for (j = 2; j <= pn; j++) {
        if (pt[j] < lo || pt[j - 1] > hi) continue
        if (pv[j] > pv[j - 1]) { gap = pt[j] - last; if (gap > cs) cs = gap; last = pt[j] }
      }
      # clients: the longest gap between 100 ms slots with a successful call
      rs = 0; prev = lo
      for (j = 1; j <= ln; j++) {
        if (lt[j] < lo) continue
        if (lt[j] > hi) break
        if (lt[j] - prev > rs) rs = lt[j] - prev
        prev = lt[j]
      }
      printf "%-4d %9.1f %-18s %-12s %13.1fs %13.1fs\n", i, (at[i] - t0) / 1000, kind[i], target[i], cs / 1000, rs / 1000
      if (cs > maxc[kind[i]]) maxc[kind[i]] = cs
      if (rs > maxr[kind[i]]) maxr[kind[i]] = rs
      count[kind[i]]++
    }
    printf "\n%-18s %6s %18s %18s\n", "fault", "times", "longest commit", "longest client"
    for (k in count) printf "%-18s %6d %17.1fs %17.1fs\n", k, count[k], maxc[k] / 1000, maxr[k] / 1000
  }' "$WORK/faults.txt" "$WORK/progress.txt" "$WORK/live.txt"
echo

if [ ${#failures[@]} -gt 0 ]; then
  say "${#failures[@]} check(s) failed: ${failures[*]}"
  SOAK_KEEP=1
  exit 1
fi
say "soak passed: $campaigns campaigns, $acked plays, $(wc -l <"$WORK/faults.txt") faults"
