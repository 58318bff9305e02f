#!/usr/bin/env bash
# Difficulty on demand, every family x level at default parameters, one run:
# puzzles/s on one core when the level is asked for, that rate over the
# family's any-level rate, the level's share of an unfiltered stream, and the
# median and quartiles of the family's effort measure (bench/effort/, a
# figure the grade was not tuned to). Prints a Markdown table.
#
#   bench/levels.sh [--seconds S] [--effort-sample N] [--family F ...]
#
# Builds build/bin/levels if missing. Sudoku's effort measure runs Debian's
# `qqwing`, installed here when missing (as the test scripts install theirs).
# The target of issue 17: each row >= 50 puzzles/s and >= 5% of the any-level
# rate; the table's last line counts the rows below it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v qqwing >/dev/null; then
  SUDO=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
  $SUDO apt-get install -y -q qqwing >/dev/null 2>&1 ||
    { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q qqwing >/dev/null; }
fi
if [ ! -x build/bin/levels ]; then
  scripts/build.sh >/dev/null
fi
echo "# bench/levels.sh $* — $(date -u +%F) on $(nproc) cores ($(uname -m))"
build/bin/levels "$@"
