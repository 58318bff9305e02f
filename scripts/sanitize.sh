#!/usr/bin/env bash
# The sanitizer runs: unit tests under ASan+UBSan, and the pipeline's unit
# tests (worker executor, lease loop, coordinator core) under TSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh

run() {  # build-dir sanitizers test-regex targets...
  local dir=$1 san=$2 regex=$3; shift 3
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DFOUNDRY_SANITIZE="$san" -DFOUNDRY_BENCH=OFF >/dev/null
  cmake --build "$dir" -j "$(nproc)" --target "$@"
  ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" -L unit -R "$regex"
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run build-asan address,undefined '.' puzzles_tests storage_tests worker_tests coordinator_tests

export TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/tsan.supp"
run build-tsan thread '^(JobExecutor|LeaseLoop|Coordinator|CommitWindow)' worker_tests coordinator_tests
