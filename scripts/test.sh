#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs the whole ctest
# suite (unit and integration tests; real processes on 127.0.0.1).
# Usage: scripts/test.sh [ctest arguments ...]
set -euo pipefail
cd "$(dirname "$0")/.."
# The browser test drives Debian's headless Chromium through selenium.
scripts/ensure-deps.sh chromium chromium-driver python3-selenium
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "$@"
