#!/usr/bin/env bash
# The Slurm deployment (deploy/slurm/) on a real single-node Slurm cluster:
#   - installs slurm-wlm, munge, openssl and curl when missing, starts
#     munged, slurmctld and slurmd from a temporary folder
#     (tests/cluster/slurm_cluster.sh);
#   - runs ONE command, deploy/slurm/submit.sh --wait: a campaign of 50,000
#     sudoku (fixed seed) with its workers as a 4-task array, 3 at once;
#   - scancels one running array task mid-campaign (between a tenth and half
#     of the puzzles stored);
#   - the coordinator listens on every interface with TLS and tokens (a
#     certificate and tokens made here), as on a real cluster;
#   - checks: the campaign job ends COMPLETED with exit 0 (and submit.sh
#     --wait returns 0); exactly 50,000 stored (the campaign's record and the
#     store's count); `foundry verify --db` clean; the same ids, sorted, as
#     `foundry run` gives for the same family, count and seed; the cancelled
#     task ended CANCELLED and every other array task COMPLETED with exit
#     code 0 by --exit-when-idle (FOUNDRY_KEEP_WORKERS=1: the campaign job
#     leaves them alone), and the coordinator job COMPLETED (stopped by the
#     campaign job); no job TIMEOUT; the cancelled
#     worker exited at once and no lease lapsed (it handed its leases back);
#     plaintext and token-less calls refused; nothing of the test left
#     running.
#   - prints what it measured: the cluster's set-up time, the campaign's
#     duration and rate, seconds from the campaign's end to the last array
#     task's exit, and what the cancelled task cost.
# Every daemon is stopped by its pid at the end (jobs cancelled first) and
# the temporary folder removed.
# Usage: tests/cluster/slurm_test.sh BIN_DIR  (foundry, foundry-coordinator,
#   foundry-worker; ctest passes the build's bin folder). Needs root; exits 77
#   (skipped) without it.
# Env: SLURM_TEST_COUNT (50000), SLURM_TEST_SEED (20261126),
#   SLURM_TEST_KEEP=1 (keep the temporary folder: logs, stores, jobcomp log).
set -euo pipefail

BIN=${1:?usage: slurm_test.sh BIN_DIR}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/../.." && pwd)
FAMILY=sudoku
COUNT=${SLURM_TEST_COUNT:-50000}
SEED=${SLURM_TEST_SEED:-20261126}
WORKERS=4
CONCURRENT=3
CANCEL_TASK=1    # the array task cancelled mid-campaign
IDLE_S=10        # FOUNDRY_EXIT_WHEN_IDLE; with FOUNDRY_KEEP_WORKERS=1 the
                 # campaign job leaves the array alone: every worker must end
                 # by itself, this long after its last job

# shellcheck source=tests/checks.sh
. "$REPO/tests/checks.sh"

if [ "$(id -u)" -ne 0 ]; then
  echo "slurm_test: needs root (it starts slurmd and munged); skipped" >&2
  exit 77
fi
for b in foundry foundry-coordinator foundry-worker; do
  [ -x "$BIN/$b" ] || die "$BIN/$b is missing"
done
"$BIN/foundry-worker" --help | grep -q -- --coordinator-file ||
  die "$BIN/foundry-worker has no --coordinator-file"

# shellcheck source=tests/cluster/slurm_cluster.sh
. "$REPO/tests/cluster/slurm_cluster.sh"
slurm_cluster_install openssl curl

T=$(mktemp -d /tmp/foundry-slurm-test.XXXXXX)
chmod 0755 "$T"  # the munge and slurm users go through it
post_pid=""
cleanup() {
  local rc=$?
  set +e
  [ -n "$post_pid" ] && kill -TERM "$post_pid" 2>/dev/null && wait "$post_pid" 2>/dev/null
  [ -n "${submit_pid:-}" ] && kill -TERM "$submit_pid" 2>/dev/null && wait "$submit_pid" 2>/dev/null
  slurm_cluster_stop
  if [ "${SLURM_TEST_KEEP:-0}" = 1 ]; then
    say "kept $T"
  else
    rm -rf "$T"
  fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the cluster -----------------------------------------------------------
t0=$(date +%s%3N)
slurm_cluster_start "$T/cluster" 8 || die "the Slurm cluster did not start"
setup_ms=$(( $(date +%s%3N) - t0 ))
say "Slurm cluster up in ${setup_ms} ms: $(sinfo -h -N -o '%N %c CPUs %t')"

# --- TLS and tokens, as on a real cluster -------------------------------------
# The coordinator listens on every interface (a free port: the address file
# tells the others) and writes this machine's host name, which its
# certificate names, as a cluster's compute node would.
SEC=$T/secrets
mkdir -p "$SEC"
host=$(hostname)
(
  cd "$SEC"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
    -subj /CN=foundry-slurm-test-ca
  openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=$host"
  printf 'subjectAltName=DNS:%s,DNS:localhost,IP:127.0.0.1\n' "$host" >server.ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem \
    -days 2 -extfile server.ext
  for who in admin worker reader; do (umask 077 && openssl rand -hex 24 >"$who.token"); done
) >"$T/openssl.out" 2>&1 || die "openssl: $(cat "$T/openssl.out")"
advertise=""
getent hosts "$host" >/dev/null || advertise=127.0.0.1  # a host name nobody resolves
# The test's own CLI calls: the CA and the reader token.
cli() { FOUNDRY_TLS_CA=$SEC/ca.pem FOUNDRY_TOKEN_FILE=$SEC/reader.token "$BIN/foundry" "$@"; }

# --- the campaign, through the one command -----------------------------------
RUN=$T/run
submit_ms=$(date +%s%3N)
FOUNDRY_BIN=$BIN FOUNDRY_RUN_DIR=$RUN FOUNDRY_LISTEN=0.0.0.0:0 \
  FOUNDRY_ADVERTISE_HOST=$advertise FOUNDRY_METRICS_LISTEN=127.0.0.1:0 \
  FOUNDRY_TLS_CERT=$SEC/server.pem FOUNDRY_TLS_KEY=$SEC/server.key FOUNDRY_TLS_CA=$SEC/ca.pem \
  FOUNDRY_ADMIN_TOKEN_FILE=$SEC/admin.token FOUNDRY_WORKER_TOKEN_FILE=$SEC/worker.token \
  FOUNDRY_READER_TOKEN_FILE=$SEC/reader.token \
  FOUNDRY_FAMILY=$FAMILY FOUNDRY_COUNT=$COUNT FOUNDRY_SEED=$SEED \
  FOUNDRY_WORKERS=$WORKERS FOUNDRY_CONCURRENT=$CONCURRENT FOUNDRY_EXIT_WHEN_IDLE=${IDLE_S}s FOUNDRY_KEEP_WORKERS=1 \
  "$REPO/deploy/slurm/submit.sh" --wait >"$T/submit.out" 2>&1 &
submit_pid=$!
slurm_cluster_wait "submit.sh to submit the jobs" 30 test -s "$RUN/jobs.env" ||
  { cat "$T/submit.out"; die "submit.sh submitted nothing"; }
# shellcheck disable=SC1091
. "$RUN/jobs.env"
say "jobs: coordinator $COORDINATOR_JOB, workers $WORKERS_JOB (array 0-$((WORKERS - 1))%$CONCURRENT), campaign $CAMPAIGN_JOB"

# Polled every 0.25 s until every job has ended: the campaign's progress,
# the coordinator's metrics (the last scrape before it stops is kept), the
# array tasks' comings and goings; the cancel happens here.
json_num() {  # KEY: the number after "KEY": in stdin (quoted or not), 0 if absent
  local v
  v=$(grep -o "\"$1\": *\"\\{0,1\\}[0-9.]*" | head -1 | grep -o '[0-9.]*$' || true)
  echo "${v:-0}"
}
running() { [ -n "$(squeue -h -t R -j "$1" -o %i 2>/dev/null)" ]; }
in_queue() { [ -n "$(squeue -h -r -j "$1" -o %i 2>/dev/null)" ]; }
metrics_port=""
addr=""
campaign_id=""
stored=0
state=""
cancel_ms="" stored_at_cancel="" cancelled_gone_ms="" replacement_ms=""
first_worker_ms="" array_end_ms="" done_seen_ms="" security_seen=""
deadline=$((SECONDS + 600))
while :; do
  [ $SECONDS -lt $deadline ] || die "the jobs still run after 600 s: $(squeue -h -r)"
  now=$(date +%s%3N)
  [ -z "$addr" ] && [ -s "$RUN/coordinator.addr" ] && read -r addr <"$RUN/coordinator.addr"
  [ -z "$campaign_id" ] && [ -s "$RUN/campaign.id" ] && read -r campaign_id <"$RUN/campaign.id"
  if [ -z "$metrics_port" ]; then
    metrics_port=$(sed -n 's/.* metrics port \([0-9]*\) .*/\1/p' \
      "$RUN/logs/coordinator-$COORDINATOR_JOB.out" 2>/dev/null | head -1 || true)
  fi
  if [ -n "$metrics_port" ] &&
    curl -sf -m 2 "http://127.0.0.1:$metrics_port/metrics" >"$T/metrics.new" 2>/dev/null; then
    mv -f "$T/metrics.new" "$T/metrics.last"
  fi
  if [ -n "$addr" ] && [ -n "$campaign_id" ] &&
    cli campaign status --coordinator "$addr" "$campaign_id" --json \
      >"$T/status.json" 2>/dev/null; then
    stored=$(json_num stored <"$T/status.json")
    state=$(grep -o '"state": *"[A-Z_]*"' "$T/status.json" | grep -o 'CAMPAIGN_STATE_[A-Z_]*' || true)
    [ "$state" = CAMPAIGN_STATE_DONE ] && [ -z "$done_seen_ms" ] && done_seen_ms=$now
    if [ -z "$security_seen" ]; then
      # The coordinator job took its certificate and tokens: plaintext, and
      # TLS without a token, are refused.
      security_seen="plaintext refused"
      "$BIN/foundry" campaign list --coordinator "$addr" >/dev/null 2>&1 &&
        security_seen="plaintext ANSWERED"
      FOUNDRY_TLS_CA=$SEC/ca.pem "$BIN/foundry" campaign list --coordinator "$addr" \
        >/dev/null 2>&1 && security_seen="$security_seen, no token ANSWERED" ||
        security_seen="$security_seen, no token refused"
    fi
  fi
  [ -z "$first_worker_ms" ] && running "$WORKERS_JOB" && first_worker_ms=$now
  if [ -z "$cancel_ms" ] && [ "$state" = CAMPAIGN_STATE_RUNNING ] &&
    [ "$stored" -ge $((COUNT / 10)) ] && [ "$stored" -le $((COUNT / 2)) ] &&
    running "${WORKERS_JOB}_$CANCEL_TASK"; then
    scancel "${WORKERS_JOB}_$CANCEL_TASK"
    cancel_ms=$now
    stored_at_cancel=$stored
    say "scancel ${WORKERS_JOB}_$CANCEL_TASK at $stored of $COUNT stored"
  fi
  if [ -n "$cancel_ms" ] && [ -z "$cancelled_gone_ms" ] &&
    ! in_queue "${WORKERS_JOB}_$CANCEL_TASK"; then
    cancelled_gone_ms=$now
    say "task ${WORKERS_JOB}_$CANCEL_TASK gone $((now - cancel_ms)) ms after its scancel"
  fi
  if [ -z "$replacement_ms" ] && running "${WORKERS_JOB}_$((WORKERS - 1))"; then
    replacement_ms=$now
    say "task ${WORKERS_JOB}_$((WORKERS - 1)) started"
  fi
  if [ -z "$array_end_ms" ] && [ -n "$first_worker_ms" ] && ! in_queue "$WORKERS_JOB"; then
    array_end_ms=$now
    say "every array task has ended"
  fi
  if [ -n "$array_end_ms" ] && ! in_queue "$CAMPAIGN_JOB" && ! in_queue "$COORDINATOR_JOB"; then
    break
  fi
  sleep 0.25
done
submit_rc=0
wait "$submit_pid" || submit_rc=$?
submit_pid=""
say "submit.sh --wait returned $submit_rc: $(tail -1 "$T/submit.out")"
[ -n "$campaign_id" ] || die "no campaign id in $RUN/campaign.id"

# --- the campaign's record, from the store the coordinator job left --------
# (the campaign job stopped that coordinator; a fresh one opens the store)
"$BIN/foundry-coordinator" --db "$RUN/store" --listen 127.0.0.1:0 \
  --address-file "$T/post.addr" >"$T/post-coordinator.out" 2>&1 &
post_pid=$!
slurm_cluster_wait "a coordinator on the campaign's store" 30 test -s "$T/post.addr" ||
  die "no coordinator on $RUN/store: $(cat "$T/post-coordinator.out")"
read -r post_addr <"$T/post.addr"
"$BIN/foundry" campaign status --coordinator "$post_addr" "$campaign_id" --json >"$T/final.json" ||
  die "no campaign $campaign_id in $RUN/store"
kill -TERM "$post_pid"
post_rc=0
wait "$post_pid" || post_rc=$?
post_pid=""
final_state=$(grep -o 'CAMPAIGN_STATE_[A-Z_]*' "$T/final.json" | head -1)
final_stored=$(json_num stored <"$T/final.json")
created_ms=$(json_num createdUnixMs <"$T/final.json")
finished_ms=$(json_num finishedUnixMs <"$T/final.json")
candidates=$(json_num candidates <"$T/final.json")
job_size=$(json_num jobSize <"$T/final.json")
# The top-level "puzzles" (two spaces in): the levels have their own.
store_puzzles=$("$BIN/foundry" stats --db "$RUN/store" --json | sed -n 's/^  "puzzles": *\([0-9]*\).*/\1/p')
store_puzzles=${store_puzzles:-0}

# --- the same campaign in one process, for the ids ---------------------------
ref_start=$(date +%s%3N)
"$BIN/foundry" run --family "$FAMILY" --count "$COUNT" --seed "$SEED" --db "$T/ref" \
  --threads 2 --quiet >"$T/ref.out" 2>&1 || die "foundry run failed: $(tail -3 "$T/ref.out")"
ref_ms=$(( $(date +%s%3N) - ref_start ))
ids() { "$BIN/foundry" export --db "$1" --format csv --no-solution | tail -n +2 | cut -d, -f1 | LC_ALL=C sort; }
ids "$RUN/store" >"$T/ids.slurm"
ids "$T/ref" >"$T/ids.ref"

# --- checks --------------------------------------------------------------------
say "campaign $campaign_id: $final_state, stored $final_stored, store holds $store_puzzles puzzles"
check "submit.sh --wait exited 0" test "$submit_rc" -eq 0
check "the campaign is DONE" test "$final_state" = CAMPAIGN_STATE_DONE
check "the campaign stored exactly $COUNT" test "$final_stored" -eq "$COUNT"
check "the store holds exactly $COUNT puzzles" test "$store_puzzles" -eq "$COUNT"
check "the store reopened and closed cleanly after the run" test "$post_rc" -eq 0
check "foundry verify --db is clean" "$BIN/foundry" verify --db "$RUN/store"
check "$(wc -l <"$T/ids.slurm") ids, the same as foundry run's $(wc -l <"$T/ids.ref")" \
  cmp -s "$T/ids.slurm" "$T/ids.ref"
check "the coordinator job listened with TLS and tokens (${security_seen:-never asked}; addr $addr)" \
  test "$security_seen" = "plaintext refused, no token refused"
check "a task was cancelled mid-campaign (at ${stored_at_cancel:-no} stored)" test -n "$cancel_ms"

jobcomp_is() {  # JOBID STATE EXITCODE
  local line
  line=$(slurm_jobcomp_line "$1") || { say "no jobcomp line for $1"; return 1; }
  local st ec
  st=$(slurm_field "$line" JobState)
  ec=$(slurm_field "$line" ExitCode)
  say "  job $1: $st, exit code $ec"
  [ "$st" = "$2" ] && { [ -z "$3" ] || [ "$ec" = "$3" ]; }
}
check "the coordinator job ended COMPLETED, exit 0" jobcomp_is "$COORDINATOR_JOB" COMPLETED 0:0
check "the campaign job ended COMPLETED, exit 0" jobcomp_is "$CAMPAIGN_JOB" COMPLETED 0:0
for ((task = 0; task < WORKERS; task++)); do
  if [ "$task" -eq "$CANCEL_TASK" ]; then
    check "array task $task (cancelled) ended CANCELLED" jobcomp_is "${WORKERS_JOB}_$task" CANCELLED ""
  else
    check "array task $task ended COMPLETED, exit 0" jobcomp_is "${WORKERS_JOB}_$task" COMPLETED 0:0
  fi
done
check "no job ended TIMEOUT" bash -c "! grep -q 'JobState=TIMEOUT' '$SLURM_JOBCOMP_LOG'"
check "jobcomp has one line per job and task ($((WORKERS + 2)))" \
  test "$(grep -c '^JobId=' "$SLURM_JOBCOMP_LOG")" -eq $((WORKERS + 2))

metric() {  # NAME: its value at the last scrape; 0 when absent, empty without a scrape
  awk -v m="$1" '$1 == m {print $2; f=1} END {if (!f) print 0}' "$T/metrics.last" 2>/dev/null || true
}
released=$(metric foundry_leases_released_total)
lapsed=$(metric foundry_lease_expirations_total)
regenerated=$(metric foundry_regenerated_candidates_total)
end_to_exit_ms=$(( ${array_end_ms:-0} - ${finished_ms:-0} ))
check "the last array task exited within --exit-when-idle (${IDLE_S} s) + 5 s of the campaign's end (took ${end_to_exit_ms} ms)" \
  test "$end_to_exit_ms" -le $(( (IDLE_S + 5) * 1000 ))
for ((task = 0; task < WORKERS; task++)); do
  [ "$task" -eq "$CANCEL_TASK" ] && continue
  check "array task $task ended by --exit-when-idle" \
    grep -q "no job for $((IDLE_S * 1000)) ms" "$RUN/logs/worker-${WORKERS_JOB}_$task.out"
done
check "the coordinator's metrics were scraped during the campaign" test -s "$T/metrics.last"
check "no lease lapsed (at the coordinator's last scrape: $lapsed)" test "${lapsed%.*}" -eq 0
check "the cancelled worker exited within 10 s of its scancel (before any SIGKILL)" \
  test -n "$cancelled_gone_ms" -a "$((${cancelled_gone_ms:-0} - ${cancel_ms:-0}))" -le 10000

# --- measurements --------------------------------------------------------------
duration_ms=$((finished_ms - created_ms))
cancelled_log=$RUN/logs/worker-${WORKERS_JOB}_$CANCEL_TASK.out
echo
echo "=== measured ($(date -u +%F), $(nproc) cores, $FAMILY x $COUNT, seed $SEED, $WORKERS-task array, $CONCURRENT at once, 1 thread each) ==="
echo "cluster set-up (munged, slurmctld, slurmd to an idle node): $(awk "BEGIN {printf \"%.1f\", $setup_ms / 1000}") s"
echo "submit.sh to the first worker running: $(awk "BEGIN {printf \"%.1f\", (${first_worker_ms:-$submit_ms} - $submit_ms) / 1000}") s"
echo "campaign (submitted to done): $(awk "BEGIN {printf \"%.1f\", $duration_ms / 1000}") s, $(awk "BEGIN {printf \"%.0f\", $COUNT / ($duration_ms / 1000)}") puzzles/s, $candidates candidates" \
  "(+ ${regenerated%.*} re-generated by verifiers: new workers' probation, spot checks)"
echo "foundry run, same campaign, 2 threads, one process: $(awk "BEGIN {printf \"%.1f\", $ref_ms / 1000}") s"
echo "campaign end to the last array task's exit: $(awk "BEGIN {printf \"%.1f\", $end_to_exit_ms / 1000}") s (by --exit-when-idle ${IDLE_S}s; polled every 0.25 s)"
echo "submit.sh to everything ended: $(awk "BEGIN {printf \"%.1f\", ($(date +%s%3N) - $submit_ms) / 1000}") s (includes the checks' foundry run)"
echo "cancelled task ${WORKERS_JOB}_$CANCEL_TASK: at $stored_at_cancel of $COUNT stored; gone $(awk "BEGIN {printf \"%.2f\", (${cancelled_gone_ms:-0} - ${cancel_ms:-0}) / 1000}") s after scancel;" \
  "leases handed back $released (their jobs, $job_size candidates each, run again from the start elsewhere), lapsed $lapsed;" \
  "its log: $(grep -h 'foundry-worker slurm' "$cancelled_log" 2>/dev/null | tail -1)"
if [ -n "$replacement_ms" ] && [ -n "$cancel_ms" ]; then
  echo "replacement task ${WORKERS_JOB}_$((WORKERS - 1)) running $(awk "BEGIN {printf \"%.1f\", ($replacement_ms - $cancel_ms) / 1000}") s after the scancel"
fi
echo

# --- nothing left behind -------------------------------------------------------
slurm_cluster_stop
leftovers=$(pgrep -f "$T" || true)
check "no process of the test left after the cluster stopped" test -z "$leftovers"

if [ ${#failures[@]} -gt 0 ]; then
  say "${#failures[@]} check(s) failed:"
  printf '  - %s\n' "${failures[@]}"
  echo "--- submit.out"; cat "$T/submit.out"
  for f in "$RUN"/logs/*.out; do echo "--- $f"; tail -20 "$f"; done
  exit 1
fi
say "PASS"
