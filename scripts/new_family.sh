#!/usr/bin/env bash
# Writes a new puzzle family that builds, passes the conformance suite and
# runs in campaigns, as a placeholder game to replace with the real rules:
#   puzzles/<dir>/            the family (codec, generator, verifier, svg,
#                             answer, and <dir>.cc with its parameters)
#   tests/unit/families/<dir>/<dir>_test.cc
#   bench/family_<dir>.cc
#   docs/families/<name>.md
#   puzzles/registry.cc       its #include and its registration line
# Usage: scripts/new_family.sh NAME PREFIX   (e.g. nonogram ng)
# NAME is what users type (lower case, digits, dashes: "my-game"); the folder
# and namespace use underscores. PREFIX is the id prefix, 2-4 lower-case
# letters, unique among families. ROOT=DIR writes into another checkout.
# Then: cmake -S . -B build && cmake --build build --target puzzles_tests
# <dir>_tests && build/bin/puzzles_tests --gtest_filter='AllFamilies/*'.
# See puzzles/README.md for what to change next.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${ROOT:-$(dirname "$here")}
usage() { echo "usage: $0 NAME PREFIX (e.g. $0 nonogram ng)" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
name=$1 prefix=$2
[[ $name =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] || { echo "NAME '$name': lower-case letters, digits and single dashes, starting with a letter" >&2; exit 2; }
[[ $prefix =~ ^[a-z]{2,4}$ ]] || { echo "PREFIX '$prefix': 2 to 4 lower-case letters" >&2; exit 2; }
dir=${name//-/_}
# CamelCase for the class: my-game -> MyGame.
class=$(sed -E 's/(^|-)([a-z])/\U\2/g' <<<"$name")

registry=$root/puzzles/registry.cc
[[ -e $root/puzzles/$dir ]] && { echo "puzzles/$dir already exists" >&2; exit 1; }
grep -qE "\.name = \"$name\"" "$root"/puzzles/*/*.cc 2>/dev/null && { echo "a family named '$name' exists" >&2; exit 1; }
if grep -qE "(\.id_prefix = |id_prefix\(\) const override \{ return )\"$prefix\"" "$root"/puzzles/*/*.cc 2>/dev/null; then
  echo "id prefix '$prefix' is taken" >&2; exit 1
fi

fill() {  # template -> destination
  mkdir -p "$(dirname "$2")"
  sed -e "s/@NAME@/$name/g" -e "s/@DIR@/$dir/g" -e "s/@PREFIX@/$prefix/g" -e "s/@CLASS@/$class/g" \
    "$here/family_template/$1" >"$2"
}
for part in codec generator verifier svg answer; do
  fill "$part.h.in" "$root/puzzles/$dir/$part.h"
  fill "$part.cc.in" "$root/puzzles/$dir/$part.cc"
done
fill family.h.in "$root/puzzles/$dir/$dir.h"
fill family.cc.in "$root/puzzles/$dir/$dir.cc"
fill test.cc.in "$root/tests/unit/families/$dir/${dir}_test.cc"
fill bench.cc.in "$root/bench/family_$dir.cc"
fill doc.md.in "$root/docs/families/$name.md"

# The registration: the #include after the last family's, the line after
# the last in kFamilies.
python3 - "$registry" "$dir" <<'PY'
import re, sys
path, d = sys.argv[1], sys.argv[2]
s = open(path).read()
inc = list(re.finditer(r'^#include "puzzles/[a-z0-9_]+/[a-z0-9_]+\.h"\n', s, re.M))
line = f'#include "puzzles/{d}/{d}.h"\n'
s = s[:inc[-1].end()] + line + s[inc[-1].end():]
# The line goes last in kFamilies, before its closing brace.
start = s.index('kFamilies[] = {')
close = s.index('\n  };', start) + 1
s = s[:close] + f'      &{d}::TheFamily(),\n' + s[close:]
open(path, 'w').write(s)
PY
echo "wrote puzzles/$dir, tests/unit/families/$dir, bench/family_$dir.cc, docs/families/$name.md; registered in puzzles/registry.cc"
