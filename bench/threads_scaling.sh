#!/usr/bin/env bash
# Every core used in process (issue 33): `foundry run --threads 2` against
# `--threads 1`, by wall clock from process start to exit (start-up, the
# campaign and the final flush), with the process's CPU (user + system over
# wall), for each family given.
#
# Rounds alternate t1 and t2 on fresh stores; the table shows each round
# and the median of the ratios. Targets: t2 / t1 >= 1.7, CPU of t2 >= 190%.
#
# Usage: bench/threads_scaling.sh [FAMILY...]   (default: sudoku zebra)
# Env: BIN (build/bin), COUNT (40000), ROUNDS (3), SEED (1)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

BIN=${BIN:-build/bin}
COUNT=${COUNT:-40000}
ROUNDS=${ROUNDS:-3}
SEED=${SEED:-1}
FAMILIES=("$@")
[ ${#FAMILIES[@]} -gt 0 ] || FAMILIES=(sudoku zebra)
[ -x "$BIN/foundry" ] || { echo "bench: $BIN/foundry is missing; build first" >&2; exit 1; }

with_work_dir

# one FAMILY THREADS: prints "WALL CPU%" of one run on a fresh store.
one() {
  rm -rf "$WORK/db"
  local TIMEFORMAT='%R %U %S' t
  t=$( { time "$BIN/foundry" run --family "$1" --count "$COUNT" --seed "$SEED" \
    --threads "$2" --quiet --db "$WORK/db" >/dev/null; } 2>&1 | tail -1)
  awk '{ printf "%.2f %.0f", $1, 100 * ($2 + $3) / $1 }' <<<"$t"
}

echo "## foundry run --threads 2 against --threads 1: $(date -u +%FT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "\`bench/threads_scaling.sh ${FAMILIES[*]}\`: $COUNT puzzles, seed $SEED, wall clock of the whole process"
echo
echo "| family | round | t1 s | t1 CPU | t2 s | t2 CPU | t2 ÷ t1 |"
echo "|---|---|---|---|---|---|---|"
for family in "${FAMILIES[@]}"; do
  ratios=()
  for r in $(seq "$ROUNDS"); do
    read -r w1 c1 <<<"$(one "$family" 1)"
    read -r w2 c2 <<<"$(one "$family" 2)"
    ratio=$(awk -v a="$w1" -v b="$w2" 'BEGIN { printf "%.2f", a / b }')
    ratios+=("$ratio")
    echo "| $family | $r | $w1 | $c1% | $w2 | $c2% | $ratio |"
  done
  median=$(printf '%s\n' "${ratios[@]}" | sort -n |
    awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2); printf "%.2f", NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2 }')
  echo "| $family | median | | | | | **$median** |"
done
