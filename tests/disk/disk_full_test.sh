#!/usr/bin/env bash
# Out of space (docs/operations.md, "When the disk fills"): a coordinator
# whose store lives on a small filesystem made here (a tmpfs with a size
# limit, in a mount namespace of its own, so nothing outlives the test).
#   Phase 1, the reserve: a filler file leaves the store ~10 MiB above its
#     free-space reserve (--min-free-disk-mb 8); a sudoku campaign outgrows
#     it. Checks while full: commits held (foundry_store_disk_full 1, the
#     campaign still running with a message naming the full disk, one log
#     line), reads served (stats, sample), a new campaign refused naming the
#     full disk; a SIGKILL'd coordinator restarts on the full disk and holds
#     again (no crash loop). The filler removed: the campaign finishes by
#     itself.
#   Phase 2, no reserve (--min-free-disk-mb 0): a write meets the full disk
#     inside RocksDB. Either commits are held until RocksDB has recovered by
#     itself (it waits for room for a memtable, 64 MiB), or Debian's RocksDB
#     (assertions compiled in) aborts the process; then a restart on the full
#     disk must serve or refuse naming the full disk, and once space returns
#     the campaign finishes. Which one happens depends on timing.
#   At the end: each campaign has exactly its count, the store holds the same
#     ids as `foundry run` (on a normal disk) stores for the same campaigns,
#     and `foundry verify --db` is clean.
# Usage: tests/disk/disk_full_test.sh BIN_DIR. Needs root (mount); exits 77
#   (skipped) without it. DISK_TEST_KEEP=1 keeps the temporary folder.
set -euo pipefail

BIN=${1:?usage: disk_full_test.sh BIN_DIR}
BIN=$(cd "$BIN" && pwd)
if [ "$(id -u)" -ne 0 ]; then
  echo "disk_full_test: needs root (it mounts a tmpfs); skipped" >&2
  exit 77
fi
# A private mount namespace: the tmpfs disappears with the test, whatever
# way it ends.
if [ -z "${DISK_TEST_IN_NAMESPACE:-}" ]; then
  exec env DISK_TEST_IN_NAMESPACE=1 unshare --mount --propagation private bash "$0" "$@"
fi

SEED=20261126
COUNT1=30000
COUNT2=20000
RESERVE_MB=8

# shellcheck source=tests/checks.sh
. "$(dirname "$0")/../checks.sh"

T=$(mktemp -d /tmp/foundry-disk-test.XXXXXX)
DISK=$T/disk
mkdir -p "$DISK"
coord_pid=""
worker_pid=""
cleanup() {
  local rc=$?
  set +e
  for p in $worker_pid $coord_pid; do kill -KILL "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
  umount "$DISK" 2>/dev/null
  if [ "${DISK_TEST_KEEP:-0}" = 1 ]; then say "kept $T"; else rm -rf "$T"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 160 MiB: phase 2 may need 64 MiB free for RocksDB to recover, beside the store.
mount -t tmpfs -o size=160m tmpfs "$DISK" || die "cannot mount a tmpfs on $DISK"
F=$BIN/foundry

free_mb() { df -Pm "$DISK" | awk 'NR == 2 { print $4 }'; }
# Fills the disk up to leaving MB mebibytes free.
fill_to() {
  local mb=$(( $(free_mb) - $1 ))
  [ "$mb" -gt 0 ] || die "the disk has only $(free_mb) MiB free"
  fallocate -l "${mb}M" "$DISK/filler" || die "fallocate failed"
}
metric() {  # NAME: its value on the coordinator's /metrics, or "absent"
  curl -s "http://127.0.0.1:$metrics_port/metrics" |
    awk -v n="$1" '$1 == n { print $2; f = 1 } END { if (!f) print "absent" }'
}
wait_for() {  # SECONDS DESCRIPTION COMMAND...: polls every 0.2 s
  local secs=$1 deadline=$(( $(date +%s) + $1 )) what=$2
  shift 2
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || die "timed out after ${secs}s waiting for: $what"
    sleep 0.2
  done
}
start_coordinator() {  # RESERVE_MB LOG
  rm -f "$T/coord.addr"
  "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --address-file "$T/coord.addr" \
    --db "$DISK/store" --metrics-listen 127.0.0.1:0 --min-free-disk-mb "$1" >"$2" 2>&1 &
  coord_pid=$!
  wait_for 20 "the coordinator's address file" test -s "$T/coord.addr"
  ADDR=$(cat "$T/coord.addr")
  metrics_port=$(grep -o 'metrics port [0-9]*' "$2" | head -1 | awk '{ print $3 }')
}
state_of() { "$F" campaign status "$1" --coordinator "$ADDR" --json; }
stored_of() { state_of "$1" | grep -o '"stored": *"\{0,1\}[0-9]*' | grep -o '[0-9]*$'; }
is_done() { state_of "$1" | grep -q CAMPAIGN_STATE_DONE; }
disk_full_is() { [ "$(metric foundry_store_disk_full)" = "$1" ]; }
ids() {  # DB [CAMPAIGN]: the stored ids, sorted
  "$F" export --db "$1" ${2:+--campaign "$2"} --format csv --no-solution | tail -n +2 |
    cut -d, -f1 | LC_ALL=C sort
}

# --- the reference: the same two campaigns in one process, on a normal disk ---
"$F" run --family sudoku --count "$COUNT1" --seed "$SEED" --db "$T/ref" --threads 2 --quiet \
  >"$T/ref1.out" 2>&1 || die "foundry run failed: $(tail -3 "$T/ref1.out")"
"$F" run --family sudoku --count "$COUNT2" --seed $(( SEED + 1 )) --db "$T/ref" --threads 2 \
  --quiet >"$T/ref2.out" 2>&1 || die "foundry run failed: $(tail -3 "$T/ref2.out")"
ids "$T/ref" >"$T/ids.ref"
say "reference: $(wc -l <"$T/ids.ref") puzzles from foundry run"

# --- phase 1: the reserve -------------------------------------------------------
# The filler first: RocksDB preallocates its write-ahead log (~70 MiB here),
# which would hide the campaign's first writes from the free-space count; on
# a disk without that much room the preallocation is skipped.
fill_to $(( RESERVE_MB + 10 ))
start_coordinator "$RESERVE_MB" "$T/coord1.log"
"$BIN/foundry-worker" --coordinator-file "$T/coord.addr" --threads 2 >"$T/worker.log" 2>&1 &
worker_pid=$!
say "disk: $(free_mb) MiB free, reserve $RESERVE_MB MiB"
c1=$("$F" campaign submit --coordinator "$ADDR" --family sudoku --count "$COUNT1" --seed "$SEED" |
  grep -o 'c-[0-9a-f]*')
wait_for 120 "commits held for the full disk" disk_full_is 1
held_at=$(stored_of "$c1")
say "held at $held_at of $COUNT1 stored, $(free_mb) MiB free"
check "the campaign stored part of its count before the hold" \
  test "$held_at" -gt 0 -a "$held_at" -lt "$COUNT1"
state_of "$c1" >"$T/held.json"
check "the campaign is still running" grep -q CAMPAIGN_STATE_RUNNING "$T/held.json"
check "its message names the full disk" grep -q 'waiting for disk space.*is full' "$T/held.json"
check "the coordinator logged the hold once" test "$(grep -c 'commits held' "$T/coord1.log")" -eq 1
check "foundry_store_disk_full_total is 1" test "$(metric foundry_store_disk_full_total)" = 1
check "reads go on: stats" bash -c "'$F' stats --coordinator $ADDR | grep -q 'puzzles stored'"
check "reads go on: sample" bash -c "'$F' sample --coordinator $ADDR --family sudoku -n 3 >/dev/null"
if "$F" campaign submit --coordinator "$ADDR" --family sudoku --count 10 >"$T/refused.out" 2>&1; then
  check "a new campaign is refused on the full disk" false
else
  check "a new campaign is refused, naming the full disk" \
    grep -q 'disk of the store .* is full' "$T/refused.out"
fi
sleep 3
check "nothing committed while held (3 s)" test "$(stored_of "$c1")" -eq "$held_at"
check "the coordinator is still up" kill -0 "$coord_pid"

# SIGKILL on the full disk, and a restart there: it must start and hold again.
kill -KILL "$coord_pid"
wait "$coord_pid" 2>/dev/null || true
start_coordinator "$RESERVE_MB" "$T/coord2.log"
wait_for 60 "the restarted coordinator to hold commits" disk_full_is 1
check "the restarted coordinator holds at the same count" test "$(stored_of "$c1")" -eq "$held_at"

freed_ms=$(date +%s%3N)
rm -f "$DISK/filler"
wait_for 30 "commits to resume once space returned" disk_full_is 0
say "commits resumed $(( $(date +%s%3N) - freed_ms )) ms after the filler was removed"
wait_for 120 "campaign 1 to finish once space returned" is_done "$c1"
say "campaign 1 done $(( $(date +%s%3N) - freed_ms )) ms after the filler was removed"
check "the coordinator logged the resumption" grep -q 'commits resumed' "$T/coord2.log"
check "foundry_store_disk_full is 0 again" disk_full_is 0

# --- phase 2: RocksDB meets the full disk itself (no reserve) ---------------------
kill -TERM "$coord_pid"
wait "$coord_pid" 2>/dev/null || true
fill_to 6
start_coordinator 0 "$T/coord3.log"
c2=$("$F" campaign submit --coordinator "$ADDR" --family sudoku --count "$COUNT2" \
  --seed $(( SEED + 1 )) | grep -o 'c-[0-9a-f]*')
coordinator_gone() { ! kill -0 "$coord_pid" 2>/dev/null; }
held_or_gone() { coordinator_gone || disk_full_is 1; }
wait_for 120 "campaign 2 to meet the full disk" held_or_gone
if coordinator_gone; then
  # Debian's RocksDB 7.8 is built with its assertions on, and one of them
  # aborts a process that touches a log whose append failed. What must hold
  # then is the store: a restart on the full disk either serves (holding) or
  # refuses naming the full disk, and nothing is lost.
  wait "$coord_pid" 2>/dev/null || true
  say "RocksDB ended the coordinator at the full disk ($(grep -c Assertion "$T/coord3.log") assertion)"
  rm -f "$T/coord.addr"
  "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --address-file "$T/coord.addr" \
    --db "$DISK/store" --min-free-disk-mb 0 >"$T/coord4.log" 2>&1 &
  coord_pid=$!
  wait_for 30 "the restart on the full disk to serve or refuse" \
    bash -c "test -s '$T/coord.addr' || ! kill -0 $coord_pid 2>/dev/null"
  if coordinator_gone; then
    check "a refused restart names the full disk" grep -q 'the disk is full' "$T/coord4.log"
  else
    say "the restart on the full disk serves"
    kill -TERM "$coord_pid"
  fi
  wait "$coord_pid" 2>/dev/null || true
  rm -f "$DISK/filler"
  start_coordinator 0 "$T/coord5.log"
else
  say "campaign 2 held at $(stored_of "$c2") of $COUNT2 by RocksDB's own stop"
  check "the hold names RocksDB's error" grep -q 'No space left on device' "$T/coord3.log"
  check "reads go on while RocksDB is stopped" bash -c "'$F' stats --coordinator $ADDR >/dev/null"
  rm -f "$DISK/filler"
fi
freed_ms=$(date +%s%3N)
wait_for 120 "campaign 2 to finish once space returned" is_done "$c2"
say "campaign 2 done $(( $(date +%s%3N) - freed_ms )) ms after the filler was removed"
kill -TERM "$worker_pid" "$coord_pid"
wait "$coord_pid" 2>/dev/null || true
wait "$worker_pid" 2>/dev/null || true
coord_pid=""
worker_pid=""

# --- the store afterwards -----------------------------------------------------------
check "campaign 1 stored exactly $COUNT1" test "$(ids "$DISK/store" "$c1" | wc -l)" -eq "$COUNT1"
check "campaign 2 stored exactly $COUNT2" test "$(ids "$DISK/store" "$c2" | wc -l)" -eq "$COUNT2"
ids "$DISK/store" >"$T/ids.disk"
check "the same ids as foundry run ($(wc -l <"$T/ids.disk"))" cmp -s "$T/ids.disk" "$T/ids.ref"
check "foundry verify --db is clean" "$F" verify --db "$DISK/store"

if [ ${#failures[@]} -gt 0 ]; then
  say "${#failures[@]} check(s) failed: ${failures[*]}"
  exit 1
fi
say "all checks passed"
