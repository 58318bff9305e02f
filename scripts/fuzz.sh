#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + libFuzzer) in build-fuzz/
# and runs each for FUZZ_SECONDS (default 20) from its corpus in
# tests/fuzz/corpus/. New interesting inputs land in build-fuzz/, not in the
# repository; to keep some, copy them into the corpus by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh clang libclang-rt-14-dev
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DFOUNDRY_FUZZ=ON -DFOUNDRY_SANITIZE=address -DFOUNDRY_WERROR=OFF -DFOUNDRY_BENCH=OFF \
  -DFOUNDRY_FUZZ_SECONDS="${FUZZ_SECONDS:-20}" >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target fuzz_params fuzz_puzzle_json fuzz_requests
ctest --test-dir build-fuzz --output-on-failure -L fuzz
