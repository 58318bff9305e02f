#!/usr/bin/env bash
# The player simulator (docs/players.md, "The player simulator"), both ways
# side by side in one run: simulated players play PLAYS puzzles of each
# FAMILY through a real foundry-coordinator, once served by NextPuzzle
# (adaptive) and once drawing a random puzzle they have not had (random),
# each on a fresh copy of the same store with the same hidden world (SEED).
# Prints one table per family: how well the ratings recover the hidden
# difficulty and skill, how well they predict a solve, the drift, repeats
# and the cold start, with the issue's targets.
#
# The store of PUZZLES puzzles of a family is built once with `foundry run`
# and kept in STORE_DIR (default /tmp/foundry-player-sim) for the next runs.
#   bench/player_sim.sh [FAMILY...]     (default sudoku; build first:
#     cmake --build build --target foundry foundry-coordinator player_sim)
# Env: PUZZLES (20000), PLAYERS (5000), PLAYS (200000), THREADS (4), SEED (1),
# MODES ("adaptive random"), SIM_FLAGS (more player_sim flags, e.g.
# "--noise-sd 100"), COORD_FLAGS (more foundry-coordinator flags, e.g.
# "--next-puzzle-nearest 1"; a --new-puzzle-rating-deviation there is passed
# on to player_sim's replay), BIN (build/bin), STORE_DIR; CHECK=1 exits 1 unless every
# run had no repeat, no failed call, every play judged as meant, and both
# Spearman figures above 0 (the ctest player_sim_small).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
PUZZLES=${PUZZLES:-20000}
PLAYERS=${PLAYERS:-5000}
PLAYS=${PLAYS:-200000}
THREADS=${THREADS:-4}
SEED=${SEED:-1}
MODES=${MODES:-adaptive random}
BIN=${BIN:-build/bin}
STORE_DIR=${STORE_DIR:-/tmp/foundry-player-sim}
FAMILIES=${*:-sudoku}
with_work_dir
mkdir -p "$STORE_DIR"
COMMAND="bench/player_sim.sh $*"
for v in COORD_FLAGS SIM_FLAGS MODES SEED THREADS PLAYS PLAYERS PUZZLES; do  # the overrides given
  if printenv "$v" >/dev/null; then COMMAND="$v=\"$(printenv "$v")\" $COMMAND"; fi
done

# A random puzzle is one the store did not serve: a coordinator that plays
# those unrated by default (no cherry-picking) is told to rate them, as for
# a game server that picks puzzles itself.
UNSERVED=()
if "$BIN/foundry-coordinator" --help 2>&1 | grep -q -- --rate-unserved-plays; then
  UNSERVED=(--rate-unserved-plays)
fi
# The simulator replays the store's puzzle deviations, so it must start
# them where the coordinator does: the coordinator's own default unless
# COORD_FLAGS sets it.
read -ra COORD <<<"${COORD_FLAGS:-}"
puzzle_dev=$("$BIN/foundry-coordinator" --help 2>&1 |
  awk '/--new-puzzle-rating-deviation/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) { print $i; exit } }')
for ((i = 0; i + 1 < ${#COORD[@]}; i++)); do
  if [ "${COORD[i]}" = --new-puzzle-rating-deviation ]; then puzzle_dev=${COORD[i + 1]}; fi
done
DEV=()
[ -z "$puzzle_dev" ] || DEV=(--puzzle-deviation "$puzzle_dev")
failed=0
for family in $FAMILIES; do
  store=$STORE_DIR/$family-$PUZZLES-seed$SEED
  if [ ! -d "$store" ]; then
    echo "building $store ($PUZZLES puzzles; kept for the next runs)" >&2
    rm -rf "$store.partial"
    "$BIN/foundry" run --family "$family" --count "$PUZZLES" --seed "$SEED" \
      --threads "$(nproc)" --quiet --db "$store.partial" >&2
    mv "$store.partial" "$store"  # only a finished store gets the name
  fi
  for mode in $MODES; do
    rm -rf "$WORK/db"
    cp -r "$store" "$WORK/db"
    # A log per run: the shell truncates it in the child, after this one
    # may have read the last run's "listening" line from a shared one.
    log=$WORK/coord-$family-$mode.log
    flags=()
    [ "$mode" = adaptive ] || flags=("${UNSERVED[@]}")
    "$BIN/foundry-coordinator" --listen 127.0.0.1:0 --db "$WORK/db" "${flags[@]}" "${COORD[@]}" \
      >"$log" 2>&1 &
    coord=$!
    pids+=("$coord")
    port=$(coordinator_port "$log" "$coord")
    # shellcheck disable=SC2086  # SIM_FLAGS is a list of flags
    if ! "$BIN/player_sim" --target "127.0.0.1:$port" --family "$family" --mode "$mode" \
        --players "$PLAYERS" --plays "$PLAYS" --threads "$THREADS" --seed "$SEED" \
        --run "$mode" --out "$WORK/$family-$mode.tsv" "${DEV[@]}" ${SIM_FLAGS:-} >"$WORK/sim.out" \
        2>"$WORK/sim.err"; then
      cat "$WORK/sim.out" "$WORK/sim.err" "$log" >&2
      echo "player_sim.sh: $family $mode failed" >&2
      failed=1
    else
      cat "$WORK/sim.err" >&2  # the progress: plays/s and the drift per tenth
    fi
    stop_pids
  done

  echo "## $family: $PLAYS plays by $PLAYERS players over $PUZZLES puzzles — $(date -u +%F), $(nproc) cores"
  echo
  echo "\`$COMMAND\`"
  echo
  header="| figure |" rule="|---|"
  for mode in $MODES; do header="$header $mode |" rule="$rule---|"; done
  echo "$header target |"
  echo "$rule---|"
  files=()
  for mode in $MODES; do files+=("$WORK/$family-$mode.tsv"); done
  # The rows of the first file, with the value of each mode from its file
  # (every file has the same keys in the same order).
  awk -F'\t' '
    FNR == 1 { f++ }
    { label[FNR] = $3; target[FNR] = $4; value[f, FNR] = $2; n = FNR }
    END { for (i = 1; i <= n; i++) {
            row = "| " label[i] " |"
            for (k = 1; k <= f; k++) row = row " " value[k, i] " |"
            print row " " target[i] " |" } }' "${files[@]}"
  echo

  if [ "${CHECK:-0}" = 1 ]; then
    for f in "${files[@]}"; do
      awk -F'\t' -v file="$f" '
        $1 == "repeats" && $2 != 0 { bad = bad " repeats=" $2 }
        $1 == "errors" && $2 != 0 { bad = bad " errors=" $2 }
        $1 == "mismatches" && $2 != "0 / 0" { bad = bad " mismatches=" $2 }
        ($1 == "spearman_puzzle" || $1 == "spearman_player") && $2 <= 0 { bad = bad " " $1 "=" $2 }
        END { if (bad != "") { print "player_sim.sh: " file ":" bad > "/dev/stderr"; exit 1 } }' \
        "$f" || failed=1
    done
  fi
done
exit "$failed"
