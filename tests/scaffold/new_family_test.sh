#!/usr/bin/env bash
# The family scaffold works: scripts/new_family.sh, run on a copy of this
# source tree, writes a family that configures, builds without a warning,
# passes its own tests and the conformance suite of every registered family,
# and whose benchmark runs; and it touches nothing but its own files and the
# registry. The copy is thrown away.
# Usage: new_family_test.sh SOURCE_DIR
set -euo pipefail
src=$(cd "${1:?usage: $0 SOURCE_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy=$work/src

# The files a clone would have (tracked, plus new ones not ignored).
mkdir -p "$copy"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$src" && xargs -0 cp --parents -t "$copy" 2>/dev/null || true)
  git -C "$copy" init -q && git -C "$copy" add -A && git -C "$copy" -c user.email=t@t -c user.name=t commit -qm base
else
  echo "not a git checkout: $src" >&2
  exit 1
fi

# Refusals first: a bad name, a bad prefix, a taken prefix.
for bad in "Bad_Name xx" "good-name X" "sudoku-two sd"; do
  # shellcheck disable=SC2086
  if ROOT=$copy "$copy/scripts/new_family.sh" $bad 2>"$work/err"; then
    echo "FAIL: new_family.sh accepted '$bad'" >&2; exit 1
  fi
  [[ -s $work/err ]] || { echo "FAIL: no message for '$bad'" >&2; exit 1; }
done

ROOT=$copy "$copy/scripts/new_family.sh" scaffold-check scx

# Only the family's own files and the registry changed.
changed=$(git -C "$copy" status --porcelain --untracked-files=all | awk '{print $2}' | sort)
expected=$(printf '%s\n' bench/family_scaffold_check.cc docs/families/scaffold-check.md \
  puzzles/registry.cc tests/unit/families/scaffold_check/scaffold_check_test.cc \
  puzzles/scaffold_check/{answer,codec,generator,scaffold_check,svg,verifier}.{cc,h} | sort)
if [[ $changed != "$expected" ]]; then
  echo "FAIL: the scaffold changed other files:" >&2
  diff <(echo "$expected") <(echo "$changed") >&2 || true
  exit 1
fi

# -O0 without debug information, the quickest to compile (debug information
# alone costs a sixth or so of a file's time), and a unity build as CI's
# sanitizer builds use (each library's files compiled in batches, their shared
# headers parsed once a batch: the compile takes about half the CPU time,
# docs/benchmarks.md); the scaffolded family must compile that way too. Only
# the new family's tests run.
# SCAFFOLD_JOBS: compile jobs (default: every core; ctest gives it one, so
# that the compile runs beside the other tests instead of alone).
flags=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DFOUNDRY_JEMALLOC=OFF)
cmake -S "$copy" -B "$work/build" "${flags[@]}" -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build "$work/build" -j "${SCAFFOLD_JOBS:-$(nproc)}" --target puzzles_tests scaffold_check_tests \
  bench_scaffold_check
# A unity build can hide a missing #include (a file compiled in one batch
# with another that includes it): the family's library once more, one file
# per unit as a user's build compiles it.
cmake -S "$copy" -B "$work/build-files" "${flags[@]}" >/dev/null
cmake --build "$work/build-files" -j "${SCAFFOLD_JOBS:-$(nproc)}" --target foundry_family_scaffold_check
"$work/build/bin/scaffold_check_tests"
"$work/build/bin/puzzles_tests" --gtest_filter='AllFamilies/*/scaffold_check:AllFamilies/ConformanceTest.IdentityIsWellFormed/*'
n=$("$work/build/bin/puzzles_tests" --gtest_list_tests --gtest_filter='AllFamilies/*/scaffold_check' | grep -c scaffold_check)
[[ $n -ge 8 ]] || { echo "FAIL: only $n conformance tests ran for the new family" >&2; exit 1; }
"$work/build/bin/bench_scaffold_check" --benchmark_min_time=0.05 >/dev/null
echo "PASS: the scaffolded family builds and passes the conformance suite ($n tests)"
