#!/usr/bin/env bash
# The repository stands alone: no tracked file names a path of one machine
# (a home or work directory, a sibling checkout) or a document it does not
# hold, and every relative link in the README and docs/ leads to a file that
# a clone holds.
# Usage: standalone_test.sh SOURCE_DIR
set -euo pipefail
cd "${1:?usage: $0 SOURCE_DIR}"
fail=0
# This file names the patterns it looks for; it is the one exception.
if hits=$(git grep -nE '(/work/|/home/[a-z]|/root/|\.\./shared)' -- . ':!tests/repo/standalone_test.sh'); then
  echo "FAIL: paths of one machine in the repository:" >&2
  echo "$hits" >&2
  fail=1
fi
# The specification the work started from is not in the repository: what a
# reader needs of it is in docs/ (the shapes and the command line in
# docs/reference.md), so nothing may send a reader to it by name.
if [[ ! -e DESIGN.md ]] &&
  hits=$(git grep -n 'DESIGN\.md' -- . ':!tests/repo/standalone_test.sh'); then
  echo "FAIL: references to DESIGN.md, which a clone does not hold (use docs/reference.md):" >&2
  echo "$hits" >&2
  fail=1
fi
checked=0
while IFS= read -r doc; do
  dir=$(dirname "$doc")
  # [text](target) links that are not URLs or in-page anchors.
  while IFS= read -r target; do
    target=${target%%#*}
    [[ -z $target ]] && continue
    checked=$((checked + 1))
    if [[ ! -e $dir/$target ]]; then
      echo "FAIL: $doc links to $target, which is not in the repository" >&2
      fail=1
    fi
  done < <(grep -oE '\]\([^)[:space:]]+\)' "$doc" | sed -E 's/^\]\((.*)\)$/\1/' |
           grep -vE '^(https?:|mailto:|#)' || true)
done < <(git ls-files README.md 'docs/*.md' 'puzzles/README.md')
[[ $fail -eq 0 ]] || exit 1
echo "PASS: no machine paths; $checked relative links in README.md and docs/ lead to files"
