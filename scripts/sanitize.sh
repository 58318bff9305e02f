#!/usr/bin/env bash
# The sanitizer and fuzzing runs of CI:
# 1. one clang build with ASan + UBSan (+ libFuzzer instrumentation): every
#    unit test, then each fuzz target for FUZZ_SECONDS (default 20) from its
#    corpus in tests/fuzz/corpus/ (label fuzz only: the long runs, label
#    fuzz-long, are scripts/fuzz.sh long's);
# 2. one g++ build with TSan: the pipeline's unit tests (job executor, lease
#    loop, coordinator core, commit window).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh clang libclang-rt-14-dev
jobs=$(nproc)
# -O1 and -g1, line tables only (what the sanitizers' own docs advise): reports
# keep file:line stacks, and the two builds compile about a third faster
# than at RelWithDebInfo's -O2 -g, which is most of this script's time.
flags="-O1 -g1 -DNDEBUG"
# Unity builds (CMAKE_UNITY_BUILD): each library's files are compiled in
# batches of eight, so that the headers they share are parsed once per batch
# instead of once per file (docs/benchmarks.md has the figures). Generated
# protobuf code and the test executables keep one file per unit (their
# CMakeLists say why).
unity=-DCMAKE_UNITY_BUILD=ON

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$flags" \
  -DCMAKE_CXX_COMPILER=clang++ \
  -DFOUNDRY_SANITIZE=address,undefined -DFOUNDRY_FUZZ=ON -DFOUNDRY_WERROR=OFF -DFOUNDRY_BENCH=OFF \
  -DFOUNDRY_FUZZ_SECONDS="${FUZZ_SECONDS:-20}" "$unity" >/dev/null
cmake --build build-asan -j "$jobs" --target unit_tests fuzz_params fuzz_puzzle_json fuzz_family \
  fuzz_import fuzz_requests
ctest --test-dir build-asan --output-on-failure -j "$jobs" -L unit
# The fuzz targets are single-threaded: two at once on two cores.
ctest --test-dir build-asan --output-on-failure -j "$jobs" -L '^fuzz$'

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$flags" \
  -DFOUNDRY_SANITIZE=thread \
  -DFOUNDRY_BENCH=OFF "$unity" >/dev/null
cmake --build build-tsan -j "$jobs" --target worker_tests coordinator_tests
ctest --test-dir build-tsan --output-on-failure -j "$jobs" \
  -R '^(JobExecutorTest|ResultChunksTest|LeaseLoopTest|CoordinatorTest|CommitWindowTest|CommitHandOffTest)\.'
