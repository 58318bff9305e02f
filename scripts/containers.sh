#!/usr/bin/env bash
# The image and the compose stack, for real, with podman (issue "Ship it for
# real"): installs podman and friends when missing; makes the debian:12 base
# from the Debian archive when no registry can give one (cached outside the
# repository); builds the Foundry image and a Prometheus image from Debian's
# package; brings up deploy/compose.yaml with podman-compose (coordinator, 4
# workers, Prometheus; Grafana's image cannot be had here and is skipped);
# then runs real campaigns through it:
#   - 50,000 secret-number puzzles while the workers go 4 -> 8 -> 2 and the
#     coordinator container is killed (SIGKILL) and started again on its
#     volume; then 20,000 sudoku;
#   - each campaign's export from the containers re-verifies (foundry verify)
#     and has exactly the ids `foundry run` gives for the same seed;
#   - Prometheus in its container scrapes every worker;
#   - the image's health check turns healthy and the programs run as the
#     non-root user; the image's size and what the runtime stage adds over its
#     base are printed.
# Everything it starts is removed at the end (volumes too); images stay.
# Env: FOUNDRY_CONTAINER_CACHE (the base image's rootfs; default
# ~/.cache/puzzle-foundry/containers), OUT (build/containers: logs, exports),
# SN_COUNT (50000), SUDOKU_COUNT (20000), SN_SET ("digits=4": --set for the
# secret-number campaign; 4-digit numbers keep it running long enough for
# the scaling and the crash to happen during it), FOUNDRY_BINARIES (unset:
# the image compiles the programs in its build stage; a directory holding
# foundry, foundry-coordinator, foundry-worker and foundry-console from a
# Release build on this Debian 12 host: the image's `prebuilt` stage takes
# them instead, which is what CI does with the binaries it has just tested).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${FOUNDRY_CONTAINER_CACHE:-$HOME/.cache/puzzle-foundry/containers}
OUT=${OUT:-build/containers}
SN_COUNT=${SN_COUNT:-50000}
SUDOKU_COUNT=${SUDOKU_COUNT:-20000}
SN_SET=${SN_SET-digits=4}
IMAGE=localhost/puzzle-foundry:0.1.0
PROM_IMAGE=localhost/foundry-prometheus:2.42
PROJECT=foundryct
started=$(date +%s)
say() { printf '[%4ds] %s\n' "$(($(date +%s) - started))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

scripts/ensure-deps.sh podman podman-compose runc debootstrap \
  golang-github-containernetworking-plugin-dnsname curl python3
mkdir -p "$CACHE" "$OUT"
OUT=$(cd "$OUT" && pwd)
chmod 0777 "$OUT"  # the containers' user 10001 writes exports here

# What these machines allow: runc (crun refuses their hybrid cgroups), the
# cgroupfs manager (no systemd), and rlimits no higher than the host's own
# (podman's defaults ask for more, and runc may not raise them).
nofile=$(ulimit -Hn)
nproc=$(ulimit -Hu)
if [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; then nproc=32768; fi
if [ "$nofile" = unlimited ] || [ "$nofile" -gt 1048576 ]; then nofile=1048576; fi
cat >"$CACHE/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
export CONTAINERS_CONF=$CACHE/containers.conf

# ---- the debian:12 base: pulled, or made from the Debian archive once.
if ! podman image exists docker.io/library/debian:12; then
  if timeout 60 podman pull -q docker.io/library/debian:12 >/dev/null 2>&1; then
    say "pulled debian:12"
  else
    if [ ! -f "$CACHE/debian12-rootfs.tar" ]; then
      say "no registry answers: debootstrap bookworm into $CACHE (once)"
      rm -rf "$CACHE/rootfs"
      debootstrap --variant=minbase bookworm "$CACHE/rootfs" http://deb.debian.org/debian \
        >"$OUT/debootstrap.log" 2>&1 || { tail -20 "$OUT/debootstrap.log"; fail "debootstrap"; }
      rm -rf "$CACHE"/rootfs/var/cache/apt/archives/*.deb "$CACHE"/rootfs/var/lib/apt/lists/*
      tar -C "$CACHE/rootfs" -cf "$CACHE/debian12-rootfs.tar.partial" .
      mv "$CACHE/debian12-rootfs.tar.partial" "$CACHE/debian12-rootfs.tar"
      rm -rf "$CACHE/rootfs"
    fi
    podman import -q "$CACHE/debian12-rootfs.tar" docker.io/library/debian:12 >/dev/null
    say "made debian:12 from the Debian archive"
  fi
fi

# ---- the images. Docker format: OCI images drop HEALTHCHECK.
t0=$(date +%s)
if [ -n "${FOUNDRY_BINARIES:-}" ]; then
  # A context of just the four programs, where the prebuilt stage looks.
  context=$OUT/prebuilt-context
  rm -rf "$context" && mkdir -p "$context/build/bin"
  for p in foundry foundry-coordinator foundry-worker foundry-console; do
    [ -x "$FOUNDRY_BINARIES/$p" ] || fail "FOUNDRY_BINARIES=$FOUNDRY_BINARIES has no $p"
    cp "$FOUNDRY_BINARIES/$p" "$context/build/bin/"
  done
  cache=$FOUNDRY_BINARIES/../CMakeCache.txt
  if [ -f "$cache" ] && ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$cache"; then
    fail "FOUNDRY_BINARIES: $(grep '^CMAKE_BUILD_TYPE' "$cache") is not the image's Release build"
  fi
  say "building $IMAGE from the binaries in $FOUNDRY_BINARIES (stage prebuilt)"
  podman build -q --format docker --target prebuilt -f deploy/Dockerfile -t "$IMAGE" "$context" \
    >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; fail "image build (prebuilt)"; }
else
  say "building $IMAGE (podman build; cached layers are reused)"
  podman build -q --format docker --ignorefile deploy/Dockerfile.dockerignore \
    -f deploy/Dockerfile -t "$IMAGE" . >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; fail "image build"; }
fi
build_seconds=$(($(date +%s) - t0))
podman build -q --format docker -t "$PROM_IMAGE" deploy/prometheus >"$OUT/build-prometheus.log" 2>&1 ||
  { tail -20 "$OUT/build-prometheus.log"; fail "prometheus image build"; }
size() { podman image inspect --format '{{.Size}}' "$1"; }
image_size=$(size "$IMAGE")
base_size=$(size docker.io/library/debian:12)
say "image built in ${build_seconds}s: $((image_size / 1000000)) MB, of which the debian:12 base is $((base_size / 1000000)) MB; the runtime stage adds $(((image_size - base_size) / 1000000)) MB"

# ---- the stack.
export FOUNDRY_PROMETHEUS_IMAGE=$PROM_IMAGE FOUNDRY_WORKER_THREADS=1
PC=(podman-compose -p "$PROJECT" -f deploy/compose.yaml)
cleanup() {
  "${PC[@]}" logs >"$OUT/compose.log" 2>&1 || true
  "${PC[@]}" down -v >/dev/null 2>&1 || true
  podman ps -aq --filter "name=^${PROJECT}_" | xargs -r podman rm -f >/dev/null 2>&1 || true
  for v in store admin-tokens worker-token prometheus grafana; do
    podman volume rm -f "${PROJECT}_$v" >/dev/null 2>&1 || true
  done
}
trap cleanup EXIT
cleanup
COORD=${PROJECT}_coordinator_1
workers_running() { podman ps -q --filter "name=^${PROJECT}_worker_" | wc -l; }
# podman-compose 1.0.3 ignores --scale: replicas are clones of worker_1 (same
# image, command, volumes, network and the "worker" alias Prometheus finds
# them by); scaling down stops the newest (SIGTERM, as compose would: they
# hand their leases back).
scale_workers() {
  local want=$1 n i
  n=$(workers_running)
  for ((i = n + 1; i <= want; i++)); do
    { podman container clone --name "${PROJECT}_worker_$i" "${PROJECT}_worker_1" &&
      podman start "${PROJECT}_worker_$i"; } >>"$OUT/compose-up.log" 2>&1 &
  done
  wait
  local gone=()
  for ((i = n; i > want; i--)); do gone+=("${PROJECT}_worker_$i"); done
  if [ ${#gone[@]} -gt 0 ]; then
    podman stop -t 60 "${gone[@]}" >>"$OUT/compose-up.log" 2>&1
    podman rm "${gone[@]}" >>"$OUT/compose-up.log" 2>&1
  fi
  n=$(workers_running)
  [ "$n" -eq "$want" ] || fail "asked for $want workers, $n running (see $OUT/compose-up.log)"
}
"${PC[@]}" up -d --no-build tokens >"$OUT/compose-up.log" 2>&1
for _ in $(seq 1 60); do podman ps -a --filter "name=^${PROJECT}_tokens_1\$" --format '{{.Status}}' | grep -q Exited && break; sleep 1; done
"${PC[@]}" up -d --no-build --no-deps coordinator prometheus >>"$OUT/compose-up.log" 2>&1

# foundry inside the coordinator's container, with the admin token.
foundry() { podman exec -e FOUNDRY_TOKEN_FILE=/tokens/admin/admin "$COORD" foundry "$@"; }
wait_coordinator() {
  for _ in $(seq 1 120); do
    foundry campaign list --coordinator 127.0.0.1:7420 >/dev/null 2>&1 && return
    sleep 1
  done
  fail "the coordinator does not answer"
}
wait_coordinator
"${PC[@]}" up -d --no-build --no-deps worker >>"$OUT/compose-up.log" 2>&1
scale_workers 4
say "stack up: coordinator, $(workers_running) workers, prometheus"

# campaign ID -> "state stored" from `campaign status --json`
status() {
  foundry campaign status "$1" --coordinator 127.0.0.1:7420 --json 2>/dev/null |
    python3 -c 'import json,sys; c=json.load(sys.stdin); print(c.get("state",""), c.get("counters",{}).get("stored",0))'
}
submit() {  # submit FAMILY COUNT SEED [--set ...]: prints the campaign id
  foundry campaign submit --coordinator 127.0.0.1:7420 --family "$1" --count "$2" --seed "$3" "${@:4}" |
    grep -o 'c-[0-9a-f]\{16\}' | head -1
}
wait_stored() {  # wait_stored ID AT_LEAST: false when the campaign ended first
  local state stored
  while true; do
    read -r state stored < <(status "$1" || echo "unknown 0")
    case "$state" in CAMPAIGN_STATE_DONE | DONE | done) return 1 ;; esac
    [ "${stored:-0}" -ge "$2" ] && return 0
    sleep 0.5
  done
}
# running_event NAME ID: counts an event only when the campaign still runs
# after it (it happened during the campaign, not after).
running_event() {
  local now
  now=$(status "$2")
  case "$now" in CAMPAIGN_STATE_RUNNING*) events=$((events + 1)); say "$1; campaign still running, stored ${now#* }" ;;
    *) say "$1, but the campaign had ended ($now)" ;; esac
}
wait_done() {
  for _ in $(seq 1 1200); do
    read -r state stored < <(status "$1" || echo "unknown 0")
    case "$state" in CAMPAIGN_STATE_DONE | DONE | done) echo "$stored"; return ;; esac
    sleep 1
  done
  fail "campaign $1 did not finish"
}
# check_campaign ID FAMILY COUNT SEED [--set ...]: exports, re-verifies, and
# compares the ids with `foundry run` of the same spec.
check_campaign() {
  local id=$1 family=$2 count=$3 seed=$4
  foundry export --coordinator 127.0.0.1:7420 --campaign "$id" >"$OUT/$family.jsonl"
  local lines unique
  lines=$(wc -l <"$OUT/$family.jsonl")
  unique=$(python3 -c 'import json,sys; print(len({json.loads(l)["id"] for l in open(sys.argv[1])}))' "$OUT/$family.jsonl")
  [ "$lines" -eq "$count" ] && [ "$unique" -eq "$count" ] ||
    fail "$family: exported $lines puzzles, $unique distinct ids; want $count"
  podman run --rm -v "$OUT:/out" "$IMAGE" foundry verify "/out/$family.jsonl" >"$OUT/$family-verify.log" 2>&1 ||
    { tail -5 "$OUT/$family-verify.log"; fail "$family: foundry verify of the export"; }
  podman run --rm -v "$OUT:/out" "$IMAGE" sh -c \
    "foundry run --family $family --count $count --seed $seed ${*:5} --quiet --db /tmp/run-db >/dev/null && foundry export --db /tmp/run-db >/out/$family-run.jsonl"
  python3 - "$OUT/$family.jsonl" "$OUT/$family-run.jsonl" <<'PY' || fail "$family: ids differ from foundry run"
import json, sys
a = [json.loads(l)["id"] for l in open(sys.argv[1])]
b = [json.loads(l)["id"] for l in open(sys.argv[2])]
sys.exit(0 if sorted(a) == sorted(b) else 1)
PY
  say "$family: $count stored, $count distinct, foundry verify OK, the same ids as foundry run --seed $seed"
}

# ---- 1. secret-number through scaling and a coordinator crash.
sn_set=()
for kv in $SN_SET; do sn_set+=(--set "$kv"); done
SN=$(submit secret-number "$SN_COUNT" 11 "${sn_set[@]}")
say "secret-number campaign $SN: $SN_COUNT puzzles"
events=0
if wait_stored "$SN" $((SN_COUNT / 50)); then
  scale_workers 8
  running_event "workers 4 -> 8" "$SN"
fi
if wait_stored "$SN" $((SN_COUNT * 3 / 10)); then
  say "killing the coordinator (SIGKILL) at $(status "$SN")"
  podman kill -s KILL "$COORD" >/dev/null
  podman start "$COORD" >/dev/null 2>>"$OUT/compose-up.log"
  wait_coordinator
  running_event "coordinator started again on its volume" "$SN"
fi
if wait_stored "$SN" $((SN_COUNT * 6 / 10)); then
  scale_workers 2
  running_event "workers 8 -> 2 (SIGTERM: leases handed back)" "$SN"
fi
[ "$events" -eq 3 ] || fail "the campaign ended before all three events ($events happened): slow it with SN_SET"
stored=$(wait_done "$SN")
say "secret-number done: $stored stored"
check_campaign "$SN" secret-number "$SN_COUNT" 11 "${sn_set[@]}"

# ---- 2. sudoku.
SU=$(submit sudoku "$SUDOKU_COUNT" 12)
stored=$(wait_done "$SU")
say "sudoku campaign $SU done: $stored stored"
check_campaign "$SU" sudoku "$SUDOKU_COUNT" 12

# ---- 3. Prometheus scrapes every worker.
want=$(workers_running)
for _ in $(seq 1 90); do
  up=$(curl -s http://127.0.0.1:9090/api/v1/targets | python3 -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
print(sum(1 for x in t if x["labels"].get("job") == "foundry-worker" and x["health"] == "up"))' 2>/dev/null || echo 0)
  [ "$up" -eq "$want" ] && break
  sleep 2
done
[ "$up" -eq "$want" ] || fail "Prometheus scrapes $up of $want workers"
coord_up=$(curl -s http://127.0.0.1:9090/api/v1/targets | python3 -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
print(sum(1 for x in t if x["labels"].get("job") == "foundry-coordinator" and x["health"] == "up"))')
[ "$coord_up" -eq 1 ] || fail "Prometheus does not scrape the coordinator"
say "Prometheus (in its container) scrapes all $want workers and the coordinator"

# ---- 4. health check and user.
podman healthcheck run "$COORD" >/dev/null || fail "the coordinator's health check fails"
health=$(podman inspect --format '{{.State.Health.Status}}' "$COORD")
[ "$health" = healthy ] || fail "health: $health"
uids=$(for c in "$COORD" $(podman ps --format '{{.Names}}' --filter "name=^${PROJECT}_worker_"); do
  podman exec "$c" id -u; done | sort -u | tr '\n' ' ')
[ "$uids" = "10001 " ] || fail "the programs run as uid(s) $uids, not 10001"
say "health check: $health; coordinator and workers run as uid 10001"
say "OK in $(($(date +%s) - started))s"
