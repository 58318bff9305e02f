#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs the whole ctest
# suite (unit and integration tests; real processes on 127.0.0.1), then the
# containers test alone (label `containers`: the image from these binaries
# and the compose stack under podman; it installs podman and its friends).
# The 30-minute soak (label `soak`) is left out: `ctest -L soak` runs it.
# Usage: scripts/test.sh [ctest arguments ...] (given arguments replace the
# two default runs by one `ctest` with them, e.g. `-L unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
# The browser test drives Debian's headless Chromium through selenium; the
# client test speaks gRPC from Python.
scripts/ensure-deps.sh chromium chromium-driver python3-selenium python3-grpcio
scripts/build.sh
build=${BUILD_DIR:-build}
if [ $# -gt 0 ]; then
  exec ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
fi
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE "containers|soak"
ctest --test-dir "$build" --output-on-failure -L containers
