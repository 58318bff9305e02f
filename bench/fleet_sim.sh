#!/usr/bin/env bash
# The coordinator alone under N simulated workers (issue "A cluster that
# scales"): for each family, bench/fleet_sim.cc captures the campaign's jobs
# once with the worker's own code, measures the RocksDB floor of its
# writes, then for N = 1, 10, 100, 1000 starts a fresh foundry-coordinator
# (temporary store, 127.0.0.1, port 0) and drives one campaign to DONE with
# N lease loops that replay the captured results over the real worker
# protocol. One table row per N; the coordinator's CPU comes from /proc.
#
# Usage: bench/fleet_sim.sh [fleet_sim flags]   (build/bin/fleet_sim --help)
#   e.g. bench/fleet_sim.sh --workers 1,100 --family sudoku --count 5000
# Env: NO_BUILD=1 runs the binaries in build/bin as they are (no cmake).
# The defaults take about 2-3 minutes on a quiet 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
SIM=""
stop_sim() {
  # fleet_sim kills its coordinator on SIGTERM (and the kernel does if it dies).
  if [ -n "$SIM" ]; then kill -TERM "$SIM" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; fi
}
trap 'stop_sim; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

if [ "${NO_BUILD:-}" != 1 ]; then
  # Only the two targets, one job at a time: the machine may be shared.
  if ! cmake --build build --target fleet_sim foundry-coordinator -j1 >"$WORK/build.log" 2>&1; then
    tail -30 "$WORK/build.log" >&2
    echo "fleet_sim.sh: build failed (log above)" >&2
    exit 1
  fi
fi

echo "## Fleet simulation: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "\`bench/fleet_sim.sh $*\`"
START=$(date +%s)
build/bin/fleet_sim --coordinator build/bin/foundry-coordinator --work-dir "$WORK" "$@" &
SIM=$!
status=0
wait "$SIM" || status=$?
SIM=""
echo "fleet_sim.sh: $(($(date +%s) - START)) s, load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
