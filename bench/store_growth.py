#!/usr/bin/env python3
"""Where a growing store's commit rate goes (issue 37), per tenth of a run.

Reads the timestamped progress of one `foundry run` (lines "<unix seconds>
<progress line>", as bench/bigstore.sh writes them) and the RocksDB LOG
files of the store it wrote (LOG and LOG.old.*: RocksDB's event log of
flushes and compactions), and prints one row per tenth of the campaign:
puzzles stored per second, and what RocksDB did meanwhile per million
puzzles: the bytes flushed and written by compactions, the CPU seconds of
compactions, and the write amplification so far ((flushed + compacted) /
flushed). The last lines compare the first and the last tenth.

A line "<unix seconds> start" (bigstore.sh writes it before the run) says
when the campaign started with nothing stored; without one, the first tenth
is timed from the first progress line and counts only the puzzles stored
after it (the first line comes a second or two in, with tens of thousands
already stored: counting those at no time would overstate the first tenth).

Usage: bench/store_growth.py PROGRESS_FILE STORE_DIR
"""
import glob
import json
import os
import re
import sys

PROGRESS = re.compile(r"^(\d+\.\d+) .*?([\d,]+)/([\d,]+)\s+\d+/s")
START = re.compile(r"^(\d+\.\d+) start$")


def read_progress(path):
    """[(t, stored)] and the campaign's count, from the progress lines."""
    points, count = [], 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            start = START.match(line.rstrip("\n"))
            if start:
                points.append((float(start.group(1)), 0))
                continue
            m = PROGRESS.match(line)
            if m:
                points.append((float(m.group(1)), int(m.group(2).replace(",", ""))))
                count = int(m.group(3).replace(",", ""))
    return points, count


def read_events(store):
    """RocksDB's EVENT_LOG_v1 records, oldest first, from every LOG file."""
    events = []
    for path in glob.glob(os.path.join(store, "LOG*")):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                at = line.find("EVENT_LOG_v1 ")
                if at < 0:
                    continue
                try:
                    events.append(json.loads(line[at + len("EVENT_LOG_v1 "):]))
                except json.JSONDecodeError:
                    continue
    events.sort(key=lambda e: e.get("time_micros", 0))
    return events


def time_at(points, stored):
    """The time the campaign reached `stored` puzzles (interpolated)."""
    prev = points[0]
    for p in points:
        if p[1] >= stored:
            if p[1] == prev[1]:
                return p[0]
            return prev[0] + (p[0] - prev[0]) * (stored - prev[1]) / (p[1] - prev[1])
        prev = p
    return points[-1][0]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    points, count = read_progress(sys.argv[1])
    if len(points) < 2 or count == 0:
        sys.exit(f"store_growth.py: fewer than two progress lines in {sys.argv[1]}")
    events = read_events(sys.argv[2])
    flush_jobs = {e["job"] for e in events if e.get("event") == "flush_started"}
    # Bytes written by flushes and compactions, and compaction CPU, in time.
    writes = []  # (t, flushed bytes, compacted bytes, compaction cpu s)
    for e in events:
        t = e.get("time_micros", 0) / 1e6
        if e.get("event") == "table_file_creation":
            size = e.get("file_size", 0)
            if e.get("job") in flush_jobs:
                writes.append((t, size, 0, 0.0))
            else:
                writes.append((t, 0, size, 0.0))
        elif e.get("event") == "compaction_finished":
            writes.append((t, 0, 0, e.get("compaction_time_cpu_micros", 0) / 1e6))

    tenths = []
    total_flushed = total_compacted = 0
    print("| tenth | stored | puzzles/s | flushed MB / M | compacted MB / M | "
          "compaction CPU s / M | write amp so far |")
    print("|---|---|---|---|---|---|---|")
    for i in range(10):
        lo, hi = count * i // 10, count * (i + 1) // 10
        if hi > points[-1][1]:
            break  # the run ended (or is still running) before this tenth did
        t0, t1 = time_at(points, lo), time_at(points, hi)
        # Before the first point nothing is known: time from it, count after it.
        counted_from = max(lo, points[0][1])
        flushed = sum(w[1] for w in writes if t0 <= w[0] < t1)
        compacted = sum(w[2] for w in writes if t0 <= w[0] < t1)
        cpu = sum(w[3] for w in writes if t0 <= w[0] < t1)
        total_flushed += flushed
        total_compacted += compacted
        millions = (hi - lo) / 1e6
        rate = (hi - counted_from) / (t1 - t0) if t1 > t0 else 0
        amp = (total_flushed + total_compacted) / total_flushed if total_flushed else 0
        tenths.append(rate)
        print(f"| {i + 1} | {lo:,}-{hi:,} | {rate:,.0f} | {flushed / 1e6 / millions:.0f} | "
              f"{compacted / 1e6 / millions:.0f} | {cpu / millions:.1f} | {amp:.2f} |")
    if len(tenths) > 1 and tenths[0] > 0:
        print()
        print(f"last tenth / first tenth: {tenths[-1] / tenths[0]:.2f} "
              f"({tenths[-1]:,.0f} / {tenths[0]:,.0f} puzzles/s)")


if __name__ == "__main__":
    main()
