#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz/), in the ASan+UBSan tree that
# scripts/sanitize.sh builds (build-asan, same flags):
#   scripts/fuzz.sh [short]        each target for FUZZ_SECONDS (label fuzz, as CI)
#   scripts/fuzz.sh long [NAME..]  each target for FUZZ_LONG_RUNS executions
#                                  (label fuzz-long, default 1,000,000), one
#                                  at a time; figures in build-asan/fuzz-long/
#   scripts/fuzz.sh merge [NAME..] folds what the long runs found into
#                                  tests/fuzz/corpus/NAME, minimised
#                                  (-set_cover_merge=1 over edges)
# NAME is a target without its prefix (family, import, params, puzzle_json,
# requests); none means all. BUILD=0 skips the build step.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-short}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(family import params puzzle_json requests)

if [ "${BUILD:-1}" = 1 ]; then
  scripts/ensure-deps.sh clang libclang-rt-14-dev
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DFOUNDRY_SANITIZE=address,undefined -DFOUNDRY_FUZZ=ON -DFOUNDRY_WERROR=OFF \
    -DFOUNDRY_BENCH=OFF -DFOUNDRY_FUZZ_SECONDS="${FUZZ_SECONDS:-20}" \
    -DFOUNDRY_FUZZ_LONG_RUNS="${FUZZ_LONG_RUNS:-1000000}" >/dev/null
  cmake --build build-asan -j "$(nproc)" --target "${targets[@]/#/fuzz_}"
fi
export ASAN_OPTIONS=abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

case "$mode" in
  short)
    for t in "${targets[@]}"; do
      ctest --test-dir build-asan --output-on-failure -R "^fuzz_${t}\$"
    done
    ;;
  long)
    mkdir -p build-asan/fuzz-long
    for t in "${targets[@]}"; do
      log=build-asan/fuzz-long/$t.log
      start=$(date +%s)
      # -V: libFuzzer's final stats are the figures docs/benchmarks.md quotes.
      status=0
      ctest --test-dir build-asan -V -R "^fuzz_long_${t}\$" >"$log" 2>&1 || status=$?
      wall=$(($(date +%s) - start))
      runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
      rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
      echo "fuzz_$t: ${runs:-?} executions, ${rate:-?} exec/s, ${wall} s, ctest status $status"
      [ "$status" = 0 ] || { echo "see $log" >&2; exit 1; }
    done
    ;;
  merge)
    for t in "${targets[@]}"; do
      corpus=tests/fuzz/corpus/$t
      merged=$(mktemp -d)
      # A small set of inputs that covers every edge the repository's corpus
      # and the long run's finds cover together: greedy set cover over edges
      # (hit counts ignored), so hundreds of files rather than thousands.
      build-asan/bin/fuzz_"$t" -set_cover_merge=1 -use_counters=0 -close_fd_mask=1 \
        -rss_limit_mb=4096 "$merged" "$corpus" build-asan/tests/fuzz/scratch-long/"$t" 2>/dev/null
      rm -rf "$corpus"
      mv "$merged" "$corpus"
      chmod 755 "$corpus"
      echo "fuzz_$t: $(find "$corpus" -type f | wc -l) inputs, $(du -sk --apparent-size "$corpus" | cut -f1) KB"
    done
    ;;
  *)
    echo "usage: scripts/fuzz.sh [short | long [NAME...] | merge [NAME...]]" >&2
    exit 2
    ;;
esac
