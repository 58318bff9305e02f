#!/usr/bin/env bash
# scripts/quickstart.sh never wipes a store it did not make: a DB that exists
# and is not empty (or is a file) is refused before the build, untouched; a
# new or empty directory and the default go on to the build. Runs a copy of
# the script beside a stand-in build.sh that only records that it ran, so no
# case can build or start anything.
set -euo pipefail
repo=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
cp "$repo/scripts/quickstart.sh" "$tmp/scripts/"
cat >"$tmp/scripts/build.sh" <<'STUB'
#!/usr/bin/env bash
echo built >>"$(dirname "$0")/../built"
exit 7
STUB
chmod +x "$tmp/scripts/build.sh" "$tmp/scripts/quickstart.sh"
fail=0

# run NAME DB-or-"" EXPECT(refused|built)
run() {
  local name=$1 db=$2 expect=$3 rc=0
  rm -f "$tmp/built" "$tmp/err"
  if [ -n "$db" ]; then
    DB=$db "$tmp/scripts/quickstart.sh" >/dev/null 2>"$tmp/err" || rc=$?
  else
    env -u DB "$tmp/scripts/quickstart.sh" >/dev/null 2>"$tmp/err" || rc=$?
  fi
  if [ "$expect" = refused ]; then
    if [ "$rc" != 1 ] || [ -e "$tmp/built" ] || ! grep -q "is left alone" "$tmp/err"; then
      echo "FAIL $name: expected a refusal before the build (exit $rc):"; cat "$tmp/err"; fail=1
    fi
  else
    if [ ! -e "$tmp/built" ]; then
      echo "FAIL $name: expected to go on to the build (exit $rc):"; cat "$tmp/err"; fail=1
    fi
  fi
}

mkdir "$tmp/store" && echo keep >"$tmp/store/CURRENT"
run "a store that exists" "$tmp/store" refused
[ "$(cat "$tmp/store/CURRENT" 2>/dev/null)" = keep ] || { echo "FAIL: the store was touched"; fail=1; }
echo data >"$tmp/file"
run "a file" "$tmp/file" refused
[ "$(cat "$tmp/file")" = data ] || { echo "FAIL: the file was touched"; fail=1; }
mkdir "$tmp/home" && touch "$tmp/home/.profile"
run "a directory with only a hidden file" "$tmp/home" refused
run "a new directory" "$tmp/new" built
mkdir "$tmp/empty"
run "an empty directory" "$tmp/empty" built
run "the default" "" built

[ "$fail" = 0 ] && echo "quickstart guard: all cases pass"
exit "$fail"
