#!/usr/bin/env bash
# Sudoku: Simon Tatham's solo (Debian `sgt-puzzles`, sgt-solo --generate,
# no display needed) as a second anchor beside qqwing, in one run.
#
#   1. 9x9 per grade: sgt-solo --generate COUNT 3x3d<g> for each of its grades
#      (trivial, basic, intermediate, advanced, extreme, unreasonable), and
#      ours, foundry run --level L for easy, medium, hard, expert and any.
#      Rates are puzzles per wall-clock second of one process on one core
#      (taskset -c 0), start-up included.
#   2. Every one of those puzzles rated by one independent rater, qqwing
#      --solve --stats (its Simple / Easy / Intermediate / Expert), so the
#      two generators' levels can be compared on one scale.
#   3. 16x16: sgt-solo 4x4db (basic) against ours at easy and at any level
#      (minimal), COUNT16 puzzles each.
#
# Env: FOUNDRY (build/bin/foundry), COUNT (200: sgt-solo's puzzles a grade),
# OURS_COUNT (2000: ours a level; more, so that foundry's start-up, about
# 0.3 s for the store and the in-process coordinator, weighs little),
# COUNT16 (100).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
. bench/lib.sh
FOUNDRY=${FOUNDRY:-$ROOT/build/bin/foundry}
COUNT=${COUNT:-200}
OURS_COUNT=${OURS_COUNT:-2000}
COUNT16=${COUNT16:-100}
SOLO=/usr/games/sgt-solo

missing=()
[[ -x $SOLO ]] || missing+=(sgt-puzzles)
command -v qqwing >/dev/null || missing+=(qqwing)
if ((${#missing[@]})); then
  echo "installing ${missing[*]} (apt-get install -y)" >&2
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get install -y -o DPkg::Lock::Timeout=600 "${missing[@]}" >/dev/null
fi
[[ -x $FOUNDRY ]] || { echo "missing $FOUNDRY: build first (scripts/build.sh)" >&2; exit 1; }
PIN=()
command -v taskset >/dev/null && PIN=(taskset -c 0)
with_work_dir

# timed OUT CMD...: runs CMD with stdout to OUT; sets WALL (seconds).
timed() {
  local out=$1
  shift
  WALL=$( { TIMEFORMAT='%R'; time "${PIN[@]}" "$@" >"$out" 2>/dev/null; } 2>&1 )
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }'; }

# solo_grids IN: sgt-solo's game ids ("3x3:1d2a9c4_1...": a digit run is a
# clue, a letter that many empty cells, "_" separates two clues) as grid
# strings, one a line.
solo_grids() {
  python3 -c '
import re, sys
for line in open(sys.argv[1]):
    if ":" not in line: continue
    cells = []
    for tok in re.findall(r"[a-z]|\d+", line.split(":", 1)[1]):
        cells += ["."] * (ord(tok) - 96) if tok.isalpha() else [tok]
    print("".join(cells))' "$1"
}

# rated GRIDS: qqwing's levels of the 9x9 grid strings in GRIDS, as
# "Simple n / Easy n / Intermediate n / Expert n".
rated() {
  qqwing --solve --stats --csv <"$1" 2>/dev/null | awk -F, 'NR > 1 { n[$11]++ }
    END { printf "Simple %d / Easy %d / Intermediate %d / Expert %d",
          n["Simple"], n["Easy"], n["Intermediate"], n["Expert"] }'
}

# ours LEVEL BOX N: foundry run, one thread; sets WALL; grids in $WORK/ours.txt.
ours() {
  local db=$WORK/db-$1-$2 level=()
  [[ $1 != any ]] && level=(--level "$1")
  rm -rf "$db"
  timed "$WORK/run.out" "$FOUNDRY" run --family sudoku --set "box=$2" "${level[@]}" \
    --count "$3" --threads 1 --quiet --db "$db"
  "$FOUNDRY" export --db "$db" | python3 -c '
import json, sys
for line in sys.stdin: print(json.loads(line)["puzzle"]["grid"])' >"$WORK/ours.txt"
}

printf 'sudoku beside Tatham'"'"'s solo, one core each (%s); 9x9: %s of sgt-solo'"'"'s a grade, %s of ours a level\n\n' \
  "$(date -u +%Y-%m-%dT%H:%MZ)" "$COUNT" "$OURS_COUNT"
printf '| 9x9 | puzzles/s | qqwing'"'"'s rating of them |\n|---|---|---|\n'
for g in t b i a e u; do
  timed "$WORK/solo.out" "$SOLO" --generate "$COUNT" "3x3d$g"
  solo_grids "$WORK/solo.out" >"$WORK/solo.txt"
  printf '| sgt-solo 3x3d%s | %s | %s |\n' "$g" "$(rate "$COUNT" "$WALL")" "$(rated "$WORK/solo.txt")"
done
for level in easy medium hard expert any; do
  ours "$level" 3x3 "$OURS_COUNT"
  printf '| ours, %s | %s | %s |\n' "$level" "$(rate "$OURS_COUNT" "$WALL")" "$(rated "$WORK/ours.txt")"
done

printf '\n| 16x16, %s puzzles | puzzles/s |\n|---|---|\n' "$COUNT16"
timed "$WORK/solo16.out" "$SOLO" --generate "$COUNT16" 4x4db
printf '| sgt-solo 4x4db (basic) | %s |\n' "$(rate "$COUNT16" "$WALL")"
ours easy 4x4 "$COUNT16"
printf '| ours, easy | %s |\n' "$(rate "$COUNT16" "$WALL")"
ours any 4x4 "$COUNT16"
printf '| ours, any level (minimal) | %s |\n' "$(rate "$COUNT16" "$WALL")"
