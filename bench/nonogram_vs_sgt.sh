#!/usr/bin/env bash
# Nonograms: Simon Tatham's generator (Debian `sgt-puzzles`, sgt-pattern
# --generate, which prints puzzles with no display) and our generator, side
# by side, in one run, on one core each.
#
#   For each size: sgt-pattern --generate N WxW (puzzle/s = N / wall time,
#   start-up included), then bench_nonogram's BM_NonogramGenerate at that size
#   for any level and each level (accepted puzzles per second of one thread;
#   uniqueness is settled and the grade computed for every one). Both are
#   pinned to core 0 (taskset) so neither borrows the other core.
#   Optional: E2E=1 adds `foundry run --threads 1` end to end (generation,
#   Verify's independent search, dedup and RocksDB) for COUNT puzzles a size.
#
# Env: BENCH (build/bin/bench_nonogram), FOUNDRY (build/bin/foundry), SIZES
# ("10 15 20"), MIN_TIME (1: seconds per benchmark), E2E (0), COUNT (5000).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
. bench/lib.sh
BENCH=${BENCH:-$ROOT/build/bin/bench_nonogram}
FOUNDRY=${FOUNDRY:-$ROOT/build/bin/foundry}
SIZES=${SIZES:-10 15 20}
MIN_TIME=${MIN_TIME:-1}
E2E=${E2E:-0}
COUNT=${COUNT:-5000}
SGT=/usr/games/sgt-pattern

if [[ ! -x $SGT ]]; then
  echo "sgt-pattern is missing; installing it (apt-get install -y sgt-puzzles)" >&2
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get install -y -o DPkg::Lock::Timeout=600 sgt-puzzles >/dev/null
fi
[[ -x $BENCH ]] || { echo "missing $BENCH: build with -DFOUNDRY_BENCH=ON" >&2; exit 1; }
PIN=()
command -v taskset >/dev/null && PIN=(taskset -c 0)
with_work_dir

# sgt_rate SIDE: puzzles per wall-clock second of sgt-pattern --generate.
sgt_rate() {
  local side=$1 n t
  n=$((side <= 10 ? 20000 : side <= 15 ? 10000 : 5000))
  t=$( { TIMEFORMAT='%R'; time "${PIN[@]}" "$SGT" --generate "$n" "${side}x${side}" >"$WORK/sgt.out"; } 2>&1 )
  [[ $(wc -l <"$WORK/sgt.out") -eq $n ]] || { echo "sgt-pattern printed too few puzzles" >&2; exit 1; }
  awk -v n="$n" -v t="$t" 'BEGIN { printf "%.0f", n / t }'
}

# ours SIDE: "any easy medium hard expert" accepted puzzles per second.
ours() {
  "${PIN[@]}" "$BENCH" --benchmark_filter="BM_NonogramGenerate/side:$1/" \
    --benchmark_min_time="$MIN_TIME" --benchmark_format=json >"$WORK/ours.json" 2>/dev/null
  python3 - "$WORK/ours.json" <<'EOF'
import json, sys
rates = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    level = int(b["name"].split("level:")[1].split("/")[0])
    rates[level] = b["accepted_per_s"]
print(" ".join("%.0f" % rates[l] for l in (-1, 0, 1, 2, 3)))
EOF
}

printf 'nonogram generation, one core each (%s)\n\n' "$(date -u +%Y-%m-%dT%H:%MZ)"
printf '| puzzles/s | sgt-pattern | ours, any level | ratio | easy | medium | hard | expert |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for side in $SIZES; do
  sgt=$(sgt_rate "$side")
  read -r any easy medium hard expert <<<"$(ours "$side")"
  ratio=$(awk -v a="$any" -v b="$sgt" 'BEGIN { printf "%.2fx", a / b }')
  printf '| %sx%s | %s | %s | %s | %s | %s | %s | %s |\n' "$side" "$side" "$sgt" "$any" "$ratio" \
    "$easy" "$medium" "$hard" "$expert"
done

if [[ $E2E == 1 ]]; then
  printf '\nend to end, foundry run --threads 1, %s puzzles, any level:\n\n' "$COUNT"
  printf '| size | puzzles/s | verify |\n|---|---|---|\n'
  for side in $SIZES; do
    db=$WORK/db-$side
    t=$( { TIMEFORMAT='%R'; time "${PIN[@]}" "$FOUNDRY" run --family nonogram --count "$COUNT" \
      --threads 1 --set "width=$side" --set "height=$side" --db "$db" >/dev/null 2>&1; } 2>&1 )
    v=$("$FOUNDRY" verify --db "$db" 2>&1 | tail -1)
    printf '| %sx%s | %s | %s |\n' "$side" "$side" \
      "$(awk -v n="$COUNT" -v t="$t" 'BEGIN { printf "%.0f", n / t }')" "$v"
  done
fi
