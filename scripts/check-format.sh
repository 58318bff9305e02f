#!/usr/bin/env bash
# Fails when C++ code is not formatted as .clang-format says (Debian's
# clang-format 14; installed when missing).
#   scripts/check-format.sh          every tracked C++ file
#   scripts/check-format.sh BASE     only the lines changed since BASE (a
#                                    commit), as `git clang-format` sees them
# To fix: `clang-format -i FILE...`, or `git clang-format BASE` for a change.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || scripts/ensure-deps.sh clang-format
if [[ $# -ge 1 ]]; then
  out=$(git clang-format --diff --extensions cc,h "$1" -- 2>&1 || true)
  if [[ -n $out && $out != *"no modified files to format"* && $out != *"did not modify any files"* ]]; then
    echo "$out"
    echo "check-format: the lines above, changed since $1, are not formatted (git clang-format $1)" >&2
    exit 1
  fi
  echo "check-format: the lines changed since $1 are formatted"
  exit 0
fi
mapfile -t files < <(git ls-files '*.cc' '*.h')
bad=()
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if [[ ${#bad[@]} -gt 0 ]]; then
  printf '  %s\n' "${bad[@]}" >&2
  echo "check-format: ${#bad[@]} of ${#files[@]} files are not formatted (clang-format -i FILE)" >&2
  exit 1
fi
echo "check-format: all ${#files[@]} C++ files are formatted"
