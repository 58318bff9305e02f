#!/usr/bin/env bash
# Sudoku: qqwing (Debian package `qqwing`, the well-known C++ generator) and
# `foundry run --family sudoku`, side by side, in one run on one machine.
#
#   1. COUNT unique 9x9 puzzles: qqwing --generate COUNT --one-line, then ours
#      with --threads 1 and --threads THREADS; rates and ratios. The
#      single-thread runs of both are pinned to one core (taskset -c 0), so
#      foundry's in-process coordinator (re-verification, RocksDB) shares the
#      core with its generator instead of using the second one.
#   2. Level distributions side by side (qqwing's from --stats, ours from the
#      store), each over COUNT puzzles.
#   3. Per level: LEVEL_COUNT puzzles of one level asked for, ours
#      (--set level=L, one thread) against qqwing --difficulty D, both pinned.
#   4. Solving: the same fixed set of hard puzzles (famous ones plus our
#      expert puzzles from step 3), qqwing --solve against our solver
#      (bench_sudoku: band_solver.h, solver.h and dlx.h, counting to two).
#
#   1b. The same one-thread ratio in ROUNDS interleaved rounds (qqwing
#      QQ_ROUND puzzles, then ours COUNT), each round's ratio and the
#      median: this machine's speed moves by up to half within seconds, and
#      one long qqwing run beside three short ones of ours can fall on
#      different speeds; a round's two runs fall close together.
#
# Rates are puzzles per wall-clock second; the CPU seconds (user+sys) are
# printed too, since a loaded machine stretches wall time for both.
# Env: FOUNDRY (build/bin/foundry), BENCH (build/bin/bench_sudoku), COUNT
# (5000), LEVEL_COUNT (1000), THREADS (nproc), SEED (1), SOLVE_REPS (20), REPS
# (3: foundry runs per row, the median kept).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FOUNDRY=${FOUNDRY:-$ROOT/build/bin/foundry}
BENCH=${BENCH:-$ROOT/build/bin/bench_sudoku}
COUNT=${COUNT:-5000}
LEVEL_COUNT=${LEVEL_COUNT:-1000}
THREADS=${THREADS:-$(nproc)}
SEED=${SEED:-1}
SOLVE_REPS=${SOLVE_REPS:-20}
REPS=${REPS:-3}
ROUNDS=${ROUNDS:-7}
QQ_ROUND=${QQ_ROUND:-300}
PY=/usr/bin/python3
[[ -x $PY ]] || PY=python3

if ! command -v qqwing >/dev/null; then
  echo "qqwing is missing; installing it (apt-get install -y qqwing)" >&2
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get install -y -o DPkg::Lock::Timeout=600 qqwing >/dev/null
fi
for bin in "$FOUNDRY" "$BENCH"; do
  [[ -x $bin ]] || { echo "missing $bin: build first (scripts/build.sh)" >&2; exit 1; }
done

PIN=()
command -v taskset >/dev/null && PIN=(taskset -c 0)  # util-linux; unpinned without it

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# timed OUT CMD...: runs CMD with stdout to OUT; sets WALL and CPU (seconds).
timed() {
  local out=$1
  shift
  local t
  t=$( { TIMEFORMAT='%R %U %S'; time "$@" >"$out" 2>"$out.err"; } 2>&1 ) || {
    echo "failed: $*" >&2
    cat "$out.err" >&2
    exit 1
  }
  WALL=$(awk '{print $1}' <<<"$t")
  CPU=$(awk '{printf "%.2f", $2 + $3}' <<<"$t")
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }'; }

# ours DB COUNT THREADS [LEVEL]: foundry runs into a fresh store (pinned to
# one core when THREADS is 1), REPS times with seeds SEED, SEED+1, ...; WALL,
# CPU and SUMMARY_RATE are those of the run with the median wall time (a
# 1-3 s run is easily moved by the machine's other tenants; qqwing's long
# runs average that out). DB keeps the median run's store.
ours() {
  local db=$1 n=$2 threads=$3 level=${4:-any}
  local pin=() runs=() i
  [[ $threads == 1 ]] && pin=("${PIN[@]}")
  for ((i = 0; i < REPS; i++)); do
    rm -rf "$db.$i"
    timed "$TMP/run.out" "${pin[@]}" "$FOUNDRY" run --family sudoku --count "$n" --seed $((SEED + i)) \
      --db "$db.$i" --threads "$threads" --set level="$level"
    # foundry's own summary rate (from campaign start to done, no process start-up)
    runs+=("$WALL $CPU $(cat "$TMP/run.out" "$TMP/run.out.err" |
      { grep -o 'rate [0-9.]* puzzles/s' || true; } | tail -1 | awk '{print $2}') $i")
  done
  local median
  median=$(printf '%s\n' "${runs[@]}" | sort -n | sed -n "$(((REPS + 1) / 2))p")
  read -r WALL CPU SUMMARY_RATE i <<<"$median"
  rm -rf "$db"
  mv "$db.$i" "$db"
  rm -rf "$db".*
}
# levels DB: "easy N medium N ..." of a store.
our_levels() {
  "$FOUNDRY" export --db "$1" --family sudoku | $PY -c '
import json, sys, collections
c = collections.Counter(json.loads(l)["difficulty"]["level"] for l in sys.stdin if l.strip())
print(" ".join(f"{k} {c.get(k, 0)}" for k in ("easy", "medium", "hard", "expert")))'
}

echo "# sudoku: qqwing $(qqwing --version 2>/dev/null | head -1 | awk '{print $NF}') vs foundry, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# ---- 1. unique 9x9 puzzles, any level ----
timed "$TMP/qq.txt" "${PIN[@]}" qqwing --generate "$COUNT" --one-line
QQ_WALL=$WALL QQ_CPU=$CPU QQ_RATE=$(rate "$COUNT" "$WALL")
ours "$TMP/db1" "$COUNT" 1
O1_WALL=$WALL O1_CPU=$CPU O1_RATE=$(rate "$COUNT" "$WALL") O1_SUM=$SUMMARY_RATE
ours "$TMP/dbn" "$COUNT" "$THREADS"
ON_WALL=$WALL ON_CPU=$CPU ON_RATE=$(rate "$COUNT" "$WALL") ON_SUM=$SUMMARY_RATE

echo "## $COUNT unique 9x9 puzzles (any level)"
printf '%-44s %10s %10s %12s %10s\n' "generator" "wall s" "cpu s" "puzzles/s" "vs qqwing"
printf '%-44s %10s %10s %12s %10s\n' "qqwing --generate $COUNT --one-line (1 core)" "$QQ_WALL" "$QQ_CPU" "$QQ_RATE" "1.0x"
printf '%-44s %10s %10s %12s %10s\n' "foundry run --family sudoku --threads 1 (1 core)" "$O1_WALL" "$O1_CPU" "$O1_RATE" "$(ratio "$O1_RATE" "$QQ_RATE")"
printf '%-44s %10s %10s %12s %10s\n' "foundry run --family sudoku --threads $THREADS" "$ON_WALL" "$ON_CPU" "$ON_RATE" "$(ratio "$ON_RATE" "$QQ_RATE")"
echo "(foundry rows: the median of $REPS runs, seeds $SEED..$((SEED + REPS - 1)); process wall time, start-up included; foundry's own summary rates, start-up excluded: ${O1_SUM:-?}/s with 1 thread," \
  "${ON_SUM:-?}/s with $THREADS. Foundry's time includes re-verification (a second solver and the grader), dedup and the RocksDB store;" \
  "our puzzles are minimal.)"
echo

# ---- 1b. the one-thread ratio, interleaved ----
echo "## One thread, $ROUNDS interleaved rounds: qqwing $QQ_ROUND puzzles, then foundry $COUNT"
round_ratios=()
for ((r = 0; r < ROUNDS; r++)); do
  timed "$TMP/qq_round.txt" "${PIN[@]}" qqwing --generate "$QQ_ROUND" --one-line
  q_rate=$(rate "$QQ_ROUND" "$WALL")
  rm -rf "$TMP/db_round"
  timed "$TMP/round.out" "${PIN[@]}" "$FOUNDRY" run --family sudoku --count "$COUNT" \
    --seed $((SEED + r)) --db "$TMP/db_round" --threads 1
  f_rate=$(rate "$COUNT" "$WALL")
  round_ratios+=("$(awk -v a="$f_rate" -v b="$q_rate" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')")
  printf 'round %d: qqwing %5s/s  foundry %6s/s  %sx\n' $((r + 1)) "$q_rate" "$f_rate" "${round_ratios[-1]}"
done
rm -rf "$TMP/db_round"
printf 'median of the rounds: %sx\n' "$(printf '%s\n' "${round_ratios[@]}" | sort -n |
  awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')"
echo

# ---- 2. level distributions ----
timed "$TMP/qqstats.txt" qqwing --generate "$COUNT" --one-line --stats
read -r -a QD < <(grep -o 'Difficulty: .*' "$TMP/qqstats.txt" | awk '{c[$2]++} END {printf "%d %d %d %d\n", c["Simple"], c["Easy"], c["Intermediate"], c["Expert"]}')
read -r -a OD < <(our_levels "$TMP/db1")
echo "## Level distributions over $COUNT puzzles each"
printf '%-14s %8s   %-8s %8s   %s\n' "qqwing" "share" "foundry" "share" "(foundry's level: hardest technique needed)"
printf '%-14s %7.1f%%   %-8s %7.1f%%   %s\n' "simple+easy" "$(awk -v a="${QD[0]}" -v b="${QD[1]}" -v n="$COUNT" 'BEGIN{print 100*(a+b)/n}')" \
  easy "$(awk -v a="${OD[1]}" -v n="$COUNT" 'BEGIN{print 100*a/n}')" "singles"
printf '%-14s %7.1f%%   %-8s %7.1f%%   %s\n' "intermediate" "$(awk -v a="${QD[2]}" -v n="$COUNT" 'BEGIN{print 100*a/n}')" \
  medium "$(awk -v a="${OD[3]}" -v n="$COUNT" 'BEGIN{print 100*a/n}')" "locked candidates, naked/hidden pairs"
printf '%-14s %8s   %-8s %7.1f%%   %s\n' "-" "-" hard "$(awk -v a="${OD[5]}" -v n="$COUNT" 'BEGIN{print 100*a/n}')" \
  "triples, quads, X-wing, swordfish, XY-wing"
printf '%-14s %7.1f%%   %-8s %7.1f%%   %s\n' "expert" "$(awk -v a="${QD[3]}" -v n="$COUNT" 'BEGIN{print 100*a/n}')" \
  expert "$(awk -v a="${OD[7]}" -v n="$COUNT" 'BEGIN{print 100*a/n}')" "search (guessing)"
echo "(qqwing: simple ${QD[0]}, easy ${QD[1]}, intermediate ${QD[2]}, expert ${QD[3]}; its --stats run took ${WALL}s)"
echo

# ---- 3. per level ----
echo "## $LEVEL_COUNT puzzles of one level, asked for (foundry single thread)"
printf '%-10s %-14s %12s %12s %10s %14s\n' "foundry" "qqwing" "foundry/s" "qqwing/s" "ratio" "(summary/s)"
for pair in easy:easy medium:intermediate hard:expert expert:expert; do
  ol=${pair%%:*} ql=${pair##*:}
  ours "$TMP/db-$ol" "$LEVEL_COUNT" 1 "$ol"
  orate=$(rate "$LEVEL_COUNT" "$WALL")
  timed "$TMP/qq-$ql.txt" "${PIN[@]}" qqwing --generate "$LEVEL_COUNT" --difficulty "$ql" --one-line
  qrate=$(rate "$LEVEL_COUNT" "$WALL")
  printf '%-10s %-14s %12s %12s %10s %14s\n' "$ol" "$ql" "$orate" "$qrate" "$(ratio "$orate" "$qrate")" "${SUMMARY_RATE:-?}"
done
echo "(foundry: the median of $REPS runs; rates from process wall time, foundry's start-up included; summary/s: foundry's own rate, start-up excluded." \
  "qqwing's easy = hidden singles; its expert = needs guessing, which covers our hard and expert)"
echo

# ---- 4. solving a fixed set of hard puzzles ----
{
  echo "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
  echo "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
  echo "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
  echo "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97.."
  "$FOUNDRY" export --db "$TMP/db-expert" --family sudoku | $PY -c '
import json, sys
for l in sys.stdin:
    if l.strip(): print(json.loads(l)["puzzle"]["grid"])'
} >"$TMP/hard.txt"
SET=$(wc -l <"$TMP/hard.txt")
for _ in $(seq "$SOLVE_REPS"); do cat "$TMP/hard.txt"; done >"$TMP/hard-reps.txt"
timed "$TMP/qqsolve.txt" "${PIN[@]}" qqwing --solve --one-line <"$TMP/hard-reps.txt"
QS_RATE=$(rate $((SET * SOLVE_REPS)) "$WALL")
FOUNDRY_SUDOKU_SET="$TMP/hard.txt" "${PIN[@]}" "$BENCH" --benchmark_filter='BM_SudokuBandHard|BM_SudokuSolveHard|BM_SudokuDlxHard' \
  --benchmark_min_time=1 --benchmark_format=json >"$TMP/solve.json" 2>/dev/null
read -r OB_RATE OS_RATE OD_RATE < <($PY -c '
import json, sys
b = {x["name"]: x["items_per_second"] for x in json.load(open(sys.argv[1]))["benchmarks"]}
print(round(b["BM_SudokuBandHard"]), round(b["BM_SudokuSolveHard"]), round(b["BM_SudokuDlxHard"]))' "$TMP/solve.json")
echo "## Solving $SET hard 9x9 puzzles (4 famous + our experts), single thread"
printf '%-52s %12s %10s\n' "solver" "puzzles/s" "vs qqwing"
printf '%-52s %12s %10s\n' "qqwing --solve (first solution, x$SOLVE_REPS)" "$QS_RATE" "1.0x"
printf '%-52s %12s %10s\n' "foundry band_solver.h, the generator's (counts to 2)" "$OB_RATE" "$(ratio "$OB_RATE" "$QS_RATE")"
printf '%-52s %12s %10s\n' "foundry solver.h, the 9x9 verifier's (counts to 2)" "$OS_RATE" "$(ratio "$OS_RATE" "$QS_RATE")"
printf '%-52s %12s %10s\n' "foundry dlx.h, the third opinion (counts to 2)" "$OD_RATE" "$(ratio "$OD_RATE" "$QS_RATE")"
