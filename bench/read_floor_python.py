#!/usr/bin/python3
"""GetPuzzle against Health/Check as a client in another language sees it.

bench/read_floor.sh drives the coordinator with store_load (C++). This does
the same comparison from Python's gRPC (Debian's python3-grpcio, no
generated code: the GetPuzzleRequest is two hand-encoded protobuf fields), the
way a test or a small game server written in Python would call: THREADS
threads, each making one call at a time. For each round it prints the calls
per second and the coordinator's CPU per call (utime+stime from /proc over the
calls) for Health/Check and for GetPuzzle of ids drawn at random from the
store, and their ratio.

  /usr/bin/python3 bench/read_floor_python.py --target 127.0.0.1:PORT \\
      --pid COORDINATOR_PID [--calls 20000] [--threads 1] [--rounds 2] [--pool 50000]

Needs python3-grpcio (apt-get install python3-grpcio) and build/bin/foundry,
which lists the ids (`foundry export --coordinator`).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time

import grpc

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def get_request(puzzle_id):
    # foundry.v1.GetPuzzleRequest: field 1 (id), length-delimited.
    raw = puzzle_id.encode()
    return b"\x0a" + bytes([len(raw)]) + raw


def measure(pid, calls, threads, call, make_request):
    per_thread = calls // threads

    def loop(seed):
        rng = random.Random(seed)
        for _ in range(per_thread):
            call(make_request(rng))

    workers = [threading.Thread(target=loop, args=(t,)) for t in range(threads)]
    c0, t0 = cpu_seconds(pid), time.monotonic()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    seconds, cpu = time.monotonic() - t0, cpu_seconds(pid) - c0
    done = per_thread * threads
    return done / seconds, cpu / done * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", required=True, help="coordinator HOST:PORT")
    parser.add_argument("--pid", type=int, required=True, help="the coordinator's process id")
    parser.add_argument("--calls", type=int, default=20000, help="calls of each kind a round")
    parser.add_argument("--threads", type=int, default=1, help="client threads, one call in flight each")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pool", type=int, default=50000, help="ids read from the store to draw from")
    parser.add_argument("--foundry", default="build/bin/foundry")
    args = parser.parse_args()

    listed = subprocess.run(
        [args.foundry, "export", "--coordinator", args.target, "--limit", str(args.pool)],
        check=True, capture_output=True, text=True).stdout
    ids = [json.loads(line)["id"] for line in listed.splitlines() if line.strip()]
    if not ids:
        sys.exit("read_floor_python: the store holds no puzzles")

    channel = grpc.insecure_channel(args.target)
    same = lambda b: b  # noqa: E731 (bytes in, bytes out)
    health = channel.unary_unary("/grpc.health.v1.Health/Check",
                                 request_serializer=same, response_deserializer=same)
    get = channel.unary_unary("/foundry.v1.PuzzleStore/GetPuzzle",
                              request_serializer=same, response_deserializer=same)
    get(get_request(ids[0]))  # fails loudly on a wrong target or service

    print(f"{len(ids)} ids, {args.threads} thread(s), {args.calls} calls of each kind a round")
    print(f"{'round':>5} {'Health/Check /s':>16} {'µs':>7} {'GetPuzzle /s':>13} {'µs':>7} {'ratio':>6}")
    for rnd in range(1, args.rounds + 1):
        h_rate, h_us = measure(args.pid, args.calls, args.threads, health, lambda rng: b"")
        g_rate, g_us = measure(args.pid, args.calls, args.threads, get,
                               lambda rng: get_request(rng.choice(ids)))
        print(f"{rnd:>5} {h_rate:>16.0f} {h_us:>7.1f} {g_rate:>13.0f} {g_us:>7.1f} {g_us / h_us:>6.2f}",
              flush=True)


if __name__ == "__main__":
    main()
