#!/usr/bin/env bash
# One concept per file: no tracked source file (C++, Python, shell,
# JavaScript) is longer than 500 lines, and the Coordinator's own file is
# under 300. A file that grows past it is split where its concepts part.
# Usage: file_size_test.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: $0 SOURCE_DIR}"
fail=0
# `wc -l` over them in as few calls as xargs makes; each call's "total"
# line is left out.
if long=$(git ls-files -z '*.cc' '*.h' '*.py' '*.sh' '*.js' | xargs -0 wc -l |
  awk '$2 != "total" && $1 > 500') && [[ -n $long ]]; then
  echo "FAIL: files over 500 lines (lines, file):" >&2
  echo "$long" >&2
  fail=1
fi
lines=$(wc -l <coordinator/coordinator.cc)
if ((lines >= 300)); then
  echo "FAIL: coordinator/coordinator.cc has $lines lines (under 300)" >&2
  fail=1
fi
[[ $fail -eq 0 ]] || exit 1
echo "PASS: no source file over 500 lines; coordinator.cc $lines"
