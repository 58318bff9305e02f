#!/usr/bin/env bash
# Configures and builds Puzzle Foundry into build/ (binaries in build/bin/).
# Usage: scripts/build.sh [cmake -D options ...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" "$@" >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
