#!/usr/bin/env bash
# Backups of a big store (issue 35): how long they take, how long a restore
# takes, and how much a committing campaign slows while an online backup
# runs.
#
# Builds (once; kept in BACKUP_BENCH_DIR) a store of N (1,000,000)
# secret-number puzzles with `foundry run`, then prints:
#   - a backup of it stopped (`foundry backup --db`), the first (full) and
#     a second (incremental, nothing changed);
#   - its restore (`foundry restore`);
#   - on a copy served by foundry-coordinator with WORKERS workers, after a
#     warm-up campaign, two rounds of: the wall time of a campaign of COUNT
#     puzzles undisturbed, then of one during which an online backup runs
#     (a full one into a new directory), then of one during an incremental
#     backup; and the campaign's commit rate while each backup ran.
#
# Usage: bench/backup.sh [N]
# Env: BACKUP_BENCH_DIR (/tmp/foundry-backup-bench), COUNT (300000), WORKERS
# (1), THREADS (1), ROUNDS (2), BACKUP_RATE_MB (0: the coordinator's --backup-rate-mb),
# BIN (build/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
N=${1:-1000000}
DIR=${BACKUP_BENCH_DIR:-/tmp/foundry-backup-bench}
COUNT=${COUNT:-300000}
WORKERS=${WORKERS:-1}
THREADS=${THREADS:-1}
BIN=${BIN:-build/bin}
BACKUP_RATE_MB=${BACKUP_RATE_MB:-0}
ROUNDS=${ROUNDS:-2}
mkdir -p "$DIR"
with_work_dir

STORE=$DIR/store-$N
if [ ! -d "$STORE" ]; then
  echo "building a store of $N puzzles in $STORE"
  "$BIN/foundry" run --family secret-number --count "$N" --db "$STORE" --threads 2 >/dev/null
fi
echo "store: $(du -sh "$STORE" | cut -f1)"

timed() {  # timed LABEL COMMAND...: prints LABEL and the wall seconds
  local t0 t1
  t0=$(date +%s.%N)
  "${@:2}" >/dev/null
  t1=$(date +%s.%N)
  printf '%-44s %6.1f s\n' "$1" "$(echo "$t1 - $t0" | bc)"
}
timed "backup --db (full, stopped store)" "$BIN/foundry" backup --db "$STORE" --to "$WORK/offline"
timed "backup --db (incremental, unchanged)" "$BIN/foundry" backup --db "$STORE" --to "$WORK/offline"
echo "backup directory: $(du -sh "$WORK/offline" | cut -f1)"
timed "restore (latest)" "$BIN/foundry" restore --from "$WORK/offline" --to "$WORK/restored"
rm -rf "$WORK/restored"

cp -r "$STORE" "$WORK/live"
"$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$WORK/live" --backup-rate-mb "$BACKUP_RATE_MB" \
  >"$WORK/coordinator.log" 2>&1 &
pids+=($!)
port=$(coordinator_port "$WORK/coordinator.log" "${pids[0]}")
ADDR=127.0.0.1:$port
for i in $(seq 1 "$WORKERS"); do
  "$BIN/foundry-worker" --coordinator "$ADDR" --threads "$THREADS" >"$WORK/worker$i.log" 2>&1 &
  pids+=($!)
done

stored() {  # stored ID: the campaign's stored count (protobuf's JSON omits a 0)
  local n
  n=$("$BIN/foundry" campaign status --coordinator "$ADDR" "$1" --json |
      sed -n 's/.*"stored":"\{0,1\}\([0-9]*\).*/\1/p' | head -1)
  echo "${n:-0}"
}

# campaign SEED [BACKUP_DIR]: one campaign of COUNT; with BACKUP_DIR, an
# online backup starts 2 s after it and the commit rate during it is printed.
campaign() {
  local seed=$1 to=${2:-} id t0 t1 b0 b1 s0 s1
  t0=$(date +%s.%N)
  id=$("$BIN/foundry" campaign submit --coordinator "$ADDR" --family secret-number --count "$COUNT" \
        --seed "$seed" | sed -n 's/^submitted campaign //p' | head -1)
  if [ -n "$to" ]; then
    sleep 2
    s0=$(stored "$id"); b0=$(date +%s.%N)
    "$BIN/foundry" backup --coordinator "$ADDR" --to "$to" >"$WORK/backup.out"
    b1=$(date +%s.%N); s1=$(stored "$id")
    printf '  online backup %.1f s; the campaign stored %d puzzles meanwhile: %.0f/s\n' \
      "$(echo "$b1 - $b0" | bc)" "$((s1 - s0))" "$(echo "($s1 - $s0) / ($b1 - $b0)" | bc -l)"
  fi
  "$BIN/foundry" campaign watch --coordinator "$ADDR" "$id" >/dev/null 2>&1
  t1=$(date +%s.%N)
  printf '%-44s %6.1f s  %6.0f puzzles/s\n' "campaign seed $seed${to:+ with a backup}" \
    "$(echo "$t1 - $t0" | bc)" "$(echo "$COUNT / ($t1 - $t0)" | bc -l)"
}
campaign 100 >/dev/null  # warm-up: caches, the workers' probation
for round in $(seq 1 "$ROUNDS"); do
  campaign "${round}01"
  campaign "${round}02" "$WORK/online-$round"     # a full backup (a new directory)
  campaign "${round}03" "$WORK/online-1"          # an incremental one
done
"$BIN/foundry" backup --list --to "$WORK/online-1"
