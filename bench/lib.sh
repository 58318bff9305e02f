# shellcheck shell=bash
# Helpers shared by the bench/ scripts. Source it from the repository root,
# after `set -euo pipefail`: `. bench/lib.sh`.

FOUNDRY_CLK_TCK=$(getconf CLK_TCK)

# cpu_of PID: CPU seconds (user + system) of a live process, from /proc.
cpu_of() { awk -v t="$FOUNDRY_CLK_TCK" '{ printf "%.3f", ($14 + $15) / t }' "/proc/$1/stat"; }

# ticks PID...: CPU clock ticks (user + system) of live processes, summed,
# from /proc.
ticks() {
  local pid
  for pid in "$@"; do cat "/proc/$pid/stat"; done | awk '{ t += $14 + $15 } END { print t }'
}

# wait_for_log LOG TEXT PID: waits until LOG holds TEXT. Fails (LOG on
# stderr) when PID exits first.
wait_for_log() {
  until grep -q "$2" "$1"; do
    kill -0 "$3" 2>/dev/null || { cat "$1" >&2; return 1; }
    sleep 0.01
  done
}

# coordinator_port LOG PID: waits up to 60 s for foundry-coordinator's
# "listening on port N" line in LOG and prints N. Fails (LOG on stderr) when
# PID exits first or time runs out; `port=$(coordinator_port ...)` then ends
# the script under `set -e`.
coordinator_port() {
  local port
  for _ in $(seq 1 600); do
    port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$1")
    if [ -n "$port" ]; then echo "$port"; return 0; fi
    if ! kill -0 "$2" 2>/dev/null; then
      cat "$1" >&2
      echo "bench: the coordinator exited before listening (log above)" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "bench: timed out waiting for the coordinator to listen ($1)" >&2
  return 1
}

# metrics_port LOG: the port of the /metrics server a process logged as
# "metrics port N" (empty when it logged none).
metrics_port() { sed -n 's/.*metrics port \([0-9]*\).*/\1/p' "$1" | head -1; }

# metric PORT NAME: the value of one unlabelled metric on 127.0.0.1:PORT's
# /metrics page (empty when absent).
metric() { curl -sf "http://127.0.0.1:$1/metrics" | awk -v m="$2" '$1 == m { print $2 }'; }

# stop_pids [SIGNAL]: sends SIGNAL (TERM) to every process in the array
# `pids` and waits for each; then empties it.
stop_pids() {
  local pid
  for pid in "${pids[@]}"; do kill -"${1:-TERM}" "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}

# with_work_dir [SIGNAL]: WORK, a fresh temporary folder, and `pids`, the
# processes the script starts (append each: `pids+=($!)`). On exit, or on
# SIGINT/SIGTERM, every one gets SIGNAL (TERM), is waited for, and WORK is
# removed.
with_work_dir() {
  WORK=$(mktemp -d)
  pids=()
  FOUNDRY_STOP_SIGNAL=${1:-TERM}
  trap 'stop_pids "$FOUNDRY_STOP_SIGNAL"; rm -rf "$WORK"' EXIT
  trap 'exit 130' INT TERM
}
