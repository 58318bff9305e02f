#!/usr/bin/env bash
# Configures and builds Puzzle Foundry into build/ (binaries in build/bin/).
# Release by default (BUILD_TYPE=... for another): the configuration the
# container image builds, so the tests run what ships, and CI's containers
# test puts these very binaries into the image (deploy/Dockerfile, prebuilt).
# Usage: scripts/build.sh [cmake -D options ...]
# BUILD_TARGETS="foundry foundry-worker ..." builds only those targets (the
# quick start builds the programs, not the tests and benchmarks).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "$@" >/dev/null
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$BUILD_DIR" -j "$(nproc)" "${targets[@]}"
