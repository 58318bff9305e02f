#!/usr/bin/env bash
# The targets of issue "A cluster that scales", side by side in one run:
# runs bench/fleet_sim.sh (the coordinator against RocksDB's floor for every
# family at 10 workers, and secret-number and sudoku at 1,000 workers),
# bench/cluster_cost.sh (coordinator + 2 workers against `foundry run`) and
# bench/read_floor.sh (GetPuzzle against Health/Check), keeps their own
# tables in the output, and ends with one table: each target, what this run
# measured, met or not.
#
#   bench/scale_targets.sh [COUNT]   (build first: scripts/build.sh)
# COUNT: puzzles of each cluster_cost campaign (default 100000: at 20,000 a
# cheap family's campaign lasts about a second and filling and draining the
# pipeline is a large part of it). About 16 minutes on a quiet 2-core machine
# (14:28:54Z to 14:44:55Z on 2026-11-25, cluster_cost measuring two rounds).
# Exit status 0 whether or not every target is met (the table says); 1 when
# a measurement failed.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-100000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ALL="secret-number bulls-cows balance decodoku alignment zebra sudoku"

echo "# Targets of \"A cluster that scales\": $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo
family_flags() { for f in "$@"; do printf -- '--family %s ' "$f"; done; }
# shellcheck disable=SC2046 # one flag pair per family
NO_BUILD=1 bench/fleet_sim.sh --workers 10 $(family_flags bulls-cows balance decodoku alignment zebra) \
  | tee "$WORK/fleet_small"
# shellcheck disable=SC2046
NO_BUILD=1 bench/fleet_sim.sh --workers 10,1000 $(family_flags secret-number sudoku) | tee "$WORK/fleet_big"
echo
echo "## bench/cluster_cost.sh $COUNT"
echo
# shellcheck disable=SC2086 # ALL is a list of families
bench/cluster_cost.sh "$COUNT" $ALL | tee "$WORK/cluster"
echo
echo "## bench/read_floor.sh"
echo
bench/read_floor.sh | tee "$WORK/reads"
echo

python3 - "$WORK" "$ALL" <<'PY'
import os, re, sys
work, families = sys.argv[1], sys.argv[2].split()

def fleet_rows(name):
    rows = {}
    for line in open(os.path.join(work, name)):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 18 and cells[1].isdigit():
            rows[(cells[0], int(cells[1]))] = cells
    return rows

fleet = fleet_rows("fleet_small") | fleet_rows("fleet_big")
cluster = {}
for line in open(os.path.join(work, "cluster")):
    cells = line.split()
    if len(cells) == 9 and cells[0] in families:
        cluster[cells[0]] = cells
reads = {}
health_rounds = set()  # every round read_floor measured: each owes one ratio
for line in open(os.path.join(work, "reads")):
    cells = line.split()
    if len(cells) == 6 and cells[0] == "health":
        health_rounds.add(cells[1])
    m = re.match(r"GetPuzzle ÷ Health/Check, (\S+): ([0-9.]+)( \(rates differ)?", line)
    if m:
        reads[m.group(1)] = (float(m.group(2)), m.group(3) is not None)

out = []
def row(target, family, measured, met):
    out.append(f"| {target} | {family} | {measured} | {'met' if met else 'NOT met'} |")

def p99(cell):  # "p50 / p99"
    return float(cell.split("/")[1])

for f in families:
    for n in (10, 1000):
        r = fleet.get((f, n))
        if r:
            ratio = float(r[5].rstrip("x"))
            row("coordinator CPU per puzzle ≤ 3× RocksDB floor", f"{f}, {n} workers",
                f"{r[4]} µs, {r[5]}", ratio <= 3)
for f in families:
    c = cluster.get(f)
    if c:
        wc, need = float(c[4]), 10 if f in ("sudoku", "zebra") else 2
        row(f"workers ÷ coordinator CPU ≥ {need}", f, f"{wc:.2f}", wc >= need)
for f in ("sudoku", "zebra"):
    c = cluster.get(f)
    if c:
        row("`foundry run` --threads 2 ÷ --threads 1 ≥ 1.7", f, c[7], float(c[7]) >= 1.7)
for f in families:
    c = cluster.get(f)
    if c:
        row("coordinator + 2 workers ≥ 90% of `foundry run --threads 2`", f, c[8], float(c[8]) >= 0.9)
for f in families:
    r = fleet.get((f, 1000))
    if r:
        row("1,000 workers: no lease lapses", f, r[15], int(r[15]) == 0)
        lease, beat = p99(r[8]), p99(r[10])
        row("1,000 workers: Lease and Heartbeat p99 < 100 ms", f, f"{lease:g} / {beat:g} ms",
            lease < 100 and beat < 100)
        row("1,000 workers: RSS per 1,000 workers stated and bounded", f, f"{r[17]} MB", r[17] != "-")
for rnd, (ratio, differ) in reads.items():
    how = ("flat out" if rnd.startswith("flat") else "one call at a time" if rnd.startswith("one")
           else "rates differ" if differ else "same rate")
    row(f"GetPuzzle ≤ 1.5× Health/Check coordinator CPU ({how})",
        "secret-number store", f"{ratio:.2f}× ({rnd})", ratio <= 1.5)

# floor: every family at 10 workers and two at 1,000; w ÷ c and cluster ÷ run:
# every family; t2 ÷ t1: two; 1,000 workers: three rows for two; reads: one
# for each round read_floor measured Health/Check in.
expected = len(families) + 2 + len(families) + 2 + len(families) + 3 * 2 + len(health_rounds)
print("## Targets, this run\n")
print("| target | where | measured | |")
print("|---|---|---|---|")
print("\n".join(out))
if len(out) < expected:
    print(f"\nscale_targets: only {len(out)} of {expected} rows were measured (see the tables above)")
    sys.exit(1)
PY
