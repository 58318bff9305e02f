#!/usr/bin/env bash
# One concept per file: no tracked source file (C++, Python, shell,
# JavaScript) is longer than 500 lines, and the Coordinator's own file is
# under 300. A file that grows past it is split where its concepts part.
# Usage: file_size_test.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: $0 SOURCE_DIR}"
fail=0
while IFS= read -r file; do
  lines=$(wc -l <"$file")
  if ((lines > 500)); then
    echo "FAIL: $file has $lines lines (at most 500)" >&2
    fail=1
  fi
done < <(git ls-files '*.cc' '*.h' '*.py' '*.sh' '*.js')
lines=$(wc -l <coordinator/coordinator.cc)
if ((lines >= 300)); then
  echo "FAIL: coordinator/coordinator.cc has $lines lines (under 300)" >&2
  fail=1
fi
[[ $fail -eq 0 ]] || exit 1
echo "PASS: no source file over 500 lines; coordinator.cc $lines"
