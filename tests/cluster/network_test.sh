#!/usr/bin/env bash
# A cluster on a network: three hosts (network namespaces `coord`, `w1`, `w2`
# joined by a bridge in a fourth, "switch", namespace; names resolved through
# each host's own /etc/hosts), TLS with a CA made here and bearer tokens.
# A campaign runs while w1's cable is pulled for longer than a lease and,
# later, the coordinator's for a few seconds; it must still end exact: N
# stored, `foundry verify` clean, the same ids as `foundry run` with the same
# parameters. Then workers that must be turned away, each with a clear error
# and a non-zero exit within NEG_TIMEOUT seconds: a wrong token, a different
# CA, the coordinator's address instead of its certificate's name.
#
# Usage: tests/cluster/network_test.sh BIN_DIR     (root; docs/network-test.md)
# Environment: FAMILY, COUNT, SEED, SETS ("k=v k=v"), JOB_SIZE: the campaign;
# KEEP=1 keeps the work directory (it is kept anyway on failure).
set -uo pipefail

BIN=${1:?usage: network_test.sh BIN_DIR (the directory of foundry, foundry-coordinator, foundry-worker)}
BIN=$(cd "$BIN" 2>/dev/null && pwd) || { echo "FAIL: no directory '$1'" >&2; exit 1; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=netns_hosts.sh
source "$HERE/netns_hosts.sh"

FAMILY=${FAMILY:-secret-number}
COUNT=${COUNT:-40000}
SEED=${SEED:-4242}
SETS=${SETS:-digits=4}
JOB_SIZE=${JOB_SIZE:-}
LEASE_SECONDS=3
WORKER_CUT_SECONDS=8 # longer than a lease
COORD_CUT_SECONDS=4
NEG_TIMEOUT=20
CAMPAIGN_TIMEOUT=300
PORT=7420
COORD_METRICS=9420
WORKER_METRICS=9421
# Host names resolve through each namespace's own /etc/hosts (`ip netns exec`
# mounts /etc/netns/NS/hosts over it); gRPC's default resolver (c-ares) and
# GRPC_DNS_RESOLVER=native (getaddrinfo) both read it, so the default is kept.

GEN=(--family "$FAMILY" --count "$COUNT" --seed "$SEED")
for s in $SETS; do GEN+=(--set "$s"); done
[ -n "$JOB_SIZE" ] && GEN+=(--job-size "$JOB_SIZE")

WORK=
FAILED=0
REPORT=()

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
note() {
  echo "[network $(date +%T)] $*"
  [ -n "${T_SUBMIT:-}" ] && printf '%6s s  -- %s\n' "$(since "$T_SUBMIT")" "$*" >>"$WORK/timeline.log"
  return 0
}
measured() {
  REPORT+=("$*")
  note "measured: $*"
}

show_logs() {
  local f
  [ -n "$WORK" ] || return 0
  for f in "$WORK"/*.log; do
    [ -s "$f" ] || continue
    echo "----- $(basename "$f") (last 15 lines)" >&2
    tail -n 15 "$f" >&2
  done
}

fail() {
  FAILED=1
  echo "FAIL: $*" >&2
  show_logs
  exit 1
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  nh_teardown
  if [ -z "$WORK" ]; then
    :
  elif [ "$FAILED" = 1 ] || [ "$rc" -ne 0 ] || [ "${KEEP:-0}" = 1 ]; then
    echo "work directory kept: $WORK" >&2
  else
    rm -rf "$WORK"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'FAILED=1; echo "FAIL: interrupted" >&2; exit 130' INT TERM

for b in foundry foundry-coordinator foundry-worker; do
  [ -x "$BIN/$b" ] || fail "no $BIN/$b: build first (cmake --build build)"
done
nh_require || { FAILED=1; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/foundry-network.XXXXXX")

# Sum of a metric's samples on HOST's loopback PORT: every label set, or
# those whose labels contain LABEL (e.g. outcome="completed").
metric() { # HOST PORT NAME [LABEL]
  nh_exec "$1" curl -sf --max-time 2 "http://127.0.0.1:$2/metrics" 2>/dev/null |
    awk -v n="$3" -v l="${4:-}" '($1 == n || index($1, n "{") == 1) && index($1, l) { s += $NF; seen = 1 }
                                 END { if (seen) printf "%.0f\n", s; else print 0 }'
}
coord_metric() { metric coord "$COORD_METRICS" "$@"; }
worker_metric() { metric "$1" "$WORKER_METRICS" "${@:2}"; }
completed_jobs() { worker_metric "$1" foundry_jobs_total 'outcome="completed"'; }

# The foundry CLI on the coordinator's host, as admin.
cli() {
  nh_exec coord env FOUNDRY_TLS_CA="$WORK/ca.pem" FOUNDRY_TOKEN_FILE="$WORK/admin.token" \
    "$BIN/foundry" "$@"
}

CAMPAIGN_JSON=
campaign_poll() {
  local _
  for _ in 1 2 3; do
    CAMPAIGN_JSON=$(cli campaign status --coordinator "coord:$PORT" --json "$CID" 2>>"$WORK/cli.log") && return 0
    sleep 0.5
  done
  fail "foundry campaign status $CID failed 3 times on coord (cli.log)"
}
campaign_field() { jq -r "$1" <<<"$CAMPAIGN_JSON"; }
stored() { campaign_field '(.counters.stored // "0") | tonumber'; }
running() { [ "$(campaign_field '.state')" = CAMPAIGN_STATE_RUNNING ]; }

start_worker() { # HOST
  nh_spawn "$1" "$WORK/worker-$1.log" "$BIN/foundry-worker" --coordinator "coord:$PORT" \
    --tls-ca "$WORK/ca.pem" --token-file "$WORK/worker.token" --threads 1 --worker-id "$1" \
    --metrics-listen "127.0.0.1:$WORKER_METRICS"
}

# ---------------------------------------------------------------- set-up
T_SETUP=$(now)
note "hosts coord, w1, w2 (namespaces $(nh_ns coord), $(nh_ns w1), $(nh_ns w2), switch $(nh_ns switch))"
nh_setup coord w1 w2 || fail "could not make the network"

# A CA, the coordinator's certificate for the name `coord`, and a second CA
# that never signed anything here.
make_ca() { # NAME
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -subj "/CN=Foundry network test $1" -keyout "$WORK/$1.key" -out "$WORK/$1.pem" \
    >>"$WORK/openssl.out" 2>&1
}
{
  make_ca ca && make_ca other-ca &&
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=coord" \
      -keyout "$WORK/coord.key" -out "$WORK/coord.csr" >>"$WORK/openssl.out" 2>&1 &&
    printf 'subjectAltName=DNS:coord\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' \
      >"$WORK/coord.ext" &&
    openssl x509 -req -in "$WORK/coord.csr" -CA "$WORK/ca.pem" -CAkey "$WORK/ca.key" \
      -CAcreateserial -days 2 -extfile "$WORK/coord.ext" -out "$WORK/coord.pem" \
      >>"$WORK/openssl.out" 2>&1
} || fail "openssl could not make the certificates (openssl.out)"
for t in admin reader worker wrong; do
  (umask 077 && openssl rand -hex 24 >"$WORK/$t.token")
done

nh_spawn coord "$WORK/coordinator.log" "$BIN/foundry-coordinator" --listen "0.0.0.0:$PORT" \
  --db "$WORK/coord-db" --tls-cert "$WORK/coord.pem" --tls-key "$WORK/coord.key" \
  --admin-token-file "$WORK/admin.token" --reader-token-file "$WORK/reader.token" \
  --worker-token-file "$WORK/worker.token" --lease-seconds "$LEASE_SECONDS" \
  --metrics-listen "127.0.0.1:$COORD_METRICS"
COORD_PID=$NH_PID
deadline=$((SECONDS + 30))
until grep -qs "listening on port" "$WORK/coordinator.log"; do
  kill -0 "$COORD_PID" 2>/dev/null || fail "the coordinator exited at start"
  [ $SECONDS -lt $deadline ] || fail "the coordinator did not start within 30 s"
  sleep 0.1
done
start_worker w1
W1_PID=$NH_PID
start_worker w2
W2_PID=$NH_PID
# Both workers reached the coordinator by name, over TLS, with their token.
deadline=$((SECONDS + 30))
until [ "$(coord_metric foundry_workers)" -ge 2 ]; do
  for p in "$W1_PID" "$W2_PID"; do kill -0 "$p" 2>/dev/null || fail "a worker exited at start"; done
  [ $SECONDS -lt $deadline ] || fail "the coordinator did not see both workers within 30 s"
  sleep 0.2
done
measured "set-up: 4 namespaces, certificates, coordinator and 2 workers connected in $(since "$T_SETUP") s"

# ---------------------------------------------------------------- campaign
T_SUBMIT=$(now)
out=$(cli campaign submit --coordinator "coord:$PORT" "${GEN[@]}" 2>&1) ||
  fail "campaign submit from coord failed: $out"
CID=$(awk '/submitted campaign/ { print $3 }' <<<"$out")
[ -n "$CID" ] || fail "no campaign id in: $out"
note "campaign $CID: ${GEN[*]}"

# Once a second, for the record (timeline.log, shown on failure): stored,
# the coordinator's live leases and lapses, each worker's jobs in progress
# and completed.
timeline() {
  local json
  while [ ! -e "$WORK/timeline.stop" ]; do
    json=$(cli campaign status --coordinator "coord:$PORT" --json "$CID" 2>/dev/null)
    printf '%6s s  stored %6s  leases %s  lapsed %s  w1 %s/%s  w2 %s/%s\n' "$(since "$T_SUBMIT")" \
      "$(jq -r '.counters.stored // "0"' <<<"$json" 2>/dev/null)" \
      "$(coord_metric foundry_jobs_in_flight)" "$(coord_metric foundry_lease_expirations_total)" \
      "$(worker_metric w1 foundry_jobs_in_flight)" "$(completed_jobs w1)" \
      "$(worker_metric w2 foundry_jobs_in_flight)" "$(completed_jobs w2)"
    sleep 1
  done
}
timeline >>"$WORK/timeline.log" 2>&1 &
TIMELINE_PID=$!
NH_PIDS+=("$TIMELINE_PID")

# Cut w1 while it holds a lease, once a tenth of the campaign is stored (the
# workers' first jobs, re-generated in full by the other worker before they
# count, are behind them).
deadline=$((SECONDS + 60))
until campaign_poll && [ "$(stored)" -ge $((COUNT / 10)) ] && [ "$(completed_jobs w1)" -ge 1 ] &&
  [ "$(worker_metric w1 foundry_jobs_in_flight)" -ge 1 ]; do
  running || fail "the campaign ended before w1 could be cut off: raise COUNT"
  [ $SECONDS -lt $deadline ] || fail "no $((COUNT / 10)) puzzles stored within 60 s of the submit, or w1 idle"
  sleep 0.1
done
lapsed0=$(coord_metric foundry_lease_expirations_total)
w1_jobs0=$(completed_jobs w1)
# A job in progress holds its lease: its submission cannot get through now.
until held=$(worker_metric w1 foundry_jobs_in_flight) && [ "$held" -ge 1 ]; do sleep 0.02; done
nh_link_down w1
T_CUT=$(now)
stored_at_cut=$(stored)
note "w1 cut off at $(since "$T_SUBMIT") s with $held job(s) in progress, stored $stored_at_cut"
lapse_after=
# The longest time the store did not grow, from the cut until w1 is back at
# work: commits are in candidate order, so w1's lapsed jobs hold them up
# until they are re-run, and so do checks of w2's jobs that w1 would run.
last_stored=$stored_at_cut
last_change=$T_CUT
longest_flat=0
check_growth() {
  local n t
  n=$(stored)
  [ "$n" = "$last_stored" ] && return 0
  t=$(now)
  longest_flat=$(awk -v a="$last_change" -v b="$t" -v m="$longest_flat" 'BEGIN { d = b - a; printf "%.1f", (d > m ? d : m) }')
  last_stored=$n
  last_change=$t
}
while [ "$(awk -v a="$T_CUT" -v b="$(now)" -v c="$WORKER_CUT_SECONDS" 'BEGIN { print (b - a < c) }')" = 1 ]; do
  if [ -z "$lapse_after" ] && [ "$(coord_metric foundry_lease_expirations_total)" -gt "$lapsed0" ]; then
    lapse_after=$(since "$T_CUT")
    note "w1's lease lapsed after $lapse_after s"
  fi
  campaign_poll
  check_growth
  sleep 0.1
done
nh_link_up w1
T_BACK=$(now)
note "w1 back on the network"
[ -n "$lapse_after" ] ||
  fail "w1 was cut off for $WORKER_CUT_SECONDS s holding $held job(s) but no lease lapsed (lease $LEASE_SECONDS s)"
lapsed_w1=$(($(coord_metric foundry_lease_expirations_total) - lapsed0))
# w1 comes back by itself: it submits what it made meanwhile (used when the
# job is still uncommitted, declined otherwise), then leases new jobs. A
# count beyond what it held (and one being submitted) is a job leased after
# its return.
w1_submit_after=
w1_new_after=
deadline=$((SECONDS + 60))
while [ -z "$w1_new_after" ]; do
  c=$(completed_jobs w1)
  [ -z "$w1_submit_after" ] && [ "$c" -gt "$w1_jobs0" ] && w1_submit_after=$(since "$T_BACK")
  [ "$c" -gt $((w1_jobs0 + held + 1)) ] && w1_new_after=$(since "$T_BACK") && break
  campaign_poll
  check_growth
  running || fail "the campaign ended before w1 completed a job leased after its return: raise COUNT"
  [ $SECONDS -lt $deadline ] || fail "w1 completed no new job within 60 s of its link coming back"
  sleep 0.1
done
longest_flat=$(awk -v a="$last_change" -v b="$(now)" -v m="$longest_flat" 'BEGIN { d = b - a; printf "%.1f", (d > m ? d : m) }')
measured "w1 cut off ${WORKER_CUT_SECONDS} s (lease ${LEASE_SECONDS} s) holding $held job(s): first lease lapsed and re-queued ${lapse_after} s after the cut ($lapsed_w1 lapsed); back on the network, w1 submitted ${w1_submit_after} s later and completed a newly leased job ${w1_new_after} s later; the store did not grow for ${longest_flat} s at the longest"

# Cut the coordinator while both workers are busy.
deadline=$((SECONDS + 30))
until [ "$(worker_metric w1 foundry_jobs_in_flight)" -ge 1 ] &&
  [ "$(worker_metric w2 foundry_jobs_in_flight)" -ge 1 ]; do
  campaign_poll
  running || fail "the campaign ended before the coordinator could be cut off: raise COUNT"
  [ $SECONDS -lt $deadline ] || fail "w1 and w2 were not both running a job within 30 s"
  sleep 0.1
done
lapsed0=$(coord_metric foundry_lease_expirations_total)
nh_link_down coord
T_CUT=$(now)
note "coord cut off at $(since "$T_SUBMIT") s, stored $(stored)"
sleep "$COORD_CUT_SECONDS"
campaign_poll
stored_cut=$(stored)
nh_link_up coord
T_BACK=$(now)
note "coord back on the network, stored $stored_cut"
resume_after=
deadline=$((SECONDS + 60))
while [ -z "$resume_after" ]; do
  campaign_poll
  if ! running || [ "$(stored)" -gt "$stored_cut" ]; then resume_after=$(since "$T_BACK"); fi
  [ $SECONDS -lt $deadline ] || fail "the campaign made no progress within 60 s of the coordinator's link coming back"
  sleep 0.1
done
lapsed_coord=$(($(coord_metric foundry_lease_expirations_total) - lapsed0))
measured "coordinator cut off ${COORD_CUT_SECONDS} s: $lapsed_coord lease(s) lapsed; stored grew again ${resume_after} s after its link came back"

deadline=$((SECONDS + CAMPAIGN_TIMEOUT))
while campaign_poll && running; do
  [ $SECONDS -lt $deadline ] || fail "campaign $CID still running after $CAMPAIGN_TIMEOUT s"
  sleep 0.5
done
touch "$WORK/timeline.stop"
wait "$TIMELINE_PID" 2>/dev/null
state=$(campaign_field .state)
final_stored=$(stored)
[ "$state" = CAMPAIGN_STATE_DONE ] || fail "campaign $CID ended $state: $(campaign_field .message)"
[ "$final_stored" -eq "$COUNT" ] || fail "campaign $CID stored $final_stored, expected $COUNT"
campaign_ms=$(campaign_field '(.finishedUnixMs | tonumber) - (.createdUnixMs | tonumber)')
measured "campaign: $COUNT $FAMILY stored in $(awk -v m="$campaign_ms" 'BEGIN { printf "%.1f", m / 1000 }') s ($(awk -v n="$COUNT" -v m="$campaign_ms" 'BEGIN { printf "%.0f", n * 1000 / m }')/s) on 2 workers x 1 thread, both cuts included"
[ "$(campaign_field '(.counters.rolledBackJobs // "0") | tonumber')" -eq 0 ] ||
  fail "jobs were rolled back: the network trouble was taken for a lying worker"
! grep -q QUARANTINED "$WORK/coordinator.log" ||
  fail "a worker was quarantined: $(grep QUARANTINED "$WORK/coordinator.log" | head -1)"

# ---------------------------------------------------------------- negative cases
# Each worker must give up with a message naming the cause, non-zero, in time.
negative() { # NAME HOST REGEX WORKER_ARGS...
  local name=$1 host=$2 regex=$3 log="$WORK/neg-$1.log" t0 rc took
  shift 3
  t0=$(now)
  nh_exec "$host" timeout -k 3 "$NEG_TIMEOUT" "$BIN/foundry-worker" --threads 1 \
    --worker-id "neg-$name" "$@" >"$log" 2>&1
  rc=$?
  took=$(since "$t0")
  note "negative case '$name': exit $rc after $took s: $(grep -v '^foundry-worker .* threads, coordinator' "$log" | tail -n 1)"
  case $rc in
    0) fail "negative case '$name': the worker exited 0" ;;
    124 | 137) fail "negative case '$name': the worker was still running after $NEG_TIMEOUT s (it must give up with an error)" ;;
  esac
  grep -Eiq "$regex" "$log" || fail "negative case '$name': exit $rc but no message matching /$regex/"
  measured "negative case '$name': exit $rc after $took s"
}
negative wrong-token w1 "unknown bearer token" --coordinator "coord:$PORT" \
  --tls-ca "$WORK/ca.pem" --token-file "$WORK/wrong.token"
negative other-ca w2 "certificate|tls|ssl|handshake" --coordinator "coord:$PORT" \
  --tls-ca "$WORK/other-ca.pem" --token-file "$WORK/worker.token"
negative by-address w1 "certificate|tls|ssl|handshake|peer name" --coordinator "$(nh_ip coord):$PORT" \
  --tls-ca "$WORK/ca.pem" --token-file "$WORK/worker.token"

# ---------------------------------------------------------------- the store
stops=()
for p in "$W1_PID" "$W2_PID"; do
  t0=$(now)
  nh_stop "$p" 15
  stops+=("$(since "$t0")")
done
measured "idle workers exited ${stops[0]} s and ${stops[1]} s after SIGTERM"
nh_stop "$COORD_PID" 15
grep -q "shutting down" "$WORK/coordinator.log" || fail "the coordinator did not shut down cleanly"
t0=$(now)
"$BIN/foundry" verify --db "$WORK/coord-db" >"$WORK/verify.log" 2>&1 ||
  fail "foundry verify --db found problems: $(tail -n 3 "$WORK/verify.log")"
note "verify: $(tail -n 1 "$WORK/verify.log") ($(since "$t0") s)"

t0=$(now)
"$BIN/foundry" run "${GEN[@]}" --db "$WORK/ref-db" --threads 2 --quiet >"$WORK/ref.log" 2>&1 ||
  fail "the reference foundry run failed: $(tail -n 3 "$WORK/ref.log")"
ref_seconds=$(since "$t0")
"$BIN/foundry" export --db "$WORK/coord-db" --no-solution | jq -r .id | sort >"$WORK/cluster.ids" ||
  fail "export of the cluster's store failed"
"$BIN/foundry" export --db "$WORK/ref-db" --no-solution | jq -r .id | sort >"$WORK/ref.ids" ||
  fail "export of the reference store failed"
n_cluster=$(wc -l <"$WORK/cluster.ids")
n_ref=$(wc -l <"$WORK/ref.ids")
[ "$n_cluster" -eq "$COUNT" ] || fail "the cluster's store holds $n_cluster puzzles, expected $COUNT"
[ "$n_ref" -eq "$COUNT" ] || fail "the reference store holds $n_ref puzzles, expected $COUNT"
cmp -s "$WORK/cluster.ids" "$WORK/ref.ids" ||
  fail "the cluster's ids differ from foundry run's: $(diff "$WORK/cluster.ids" "$WORK/ref.ids" | grep -c '^[<>]') lines differ"
measured "store: verify clean; the $COUNT ids equal foundry run's (same parameters, 2 threads, $ref_seconds s)"

measured "whole test: $(since "$T_SETUP") s"
echo
echo "== network test: passed; measured =="
printf '  %s\n' "${REPORT[@]}"
