# shellcheck shell=bash
# What the shell tests share: timed progress lines and checks that record a
# failure and go on. Source it after `set -euo pipefail`; the test ends by
# reporting "${failures[@]}".

started_ms=$(date +%s%3N)

# say MESSAGE...: one line, prefixed with the seconds since the test started.
say() { printf '[%6.1fs] %s\n' "$(( $(date +%s%3N) - started_ms ))e-3" "$*"; }

failures=()  # the DESCRIPTION of every failed check

# check DESCRIPTION COMMAND...: runs COMMAND; records a failure instead of stopping.
check() {
  local what=$1
  shift
  if "$@"; then
    say "ok: $what"
  else
    say "FAIL: $what"
    failures+=("$what")
  fi
}

# die MESSAGE...: fails the test at once.
die() { say "FAIL: $*"; exit 1; }
