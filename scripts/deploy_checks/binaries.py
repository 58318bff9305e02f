"""The flags each binary accepts, read from its --help, and the commands of
the manifests and the compose file checked against them."""

import os
import re
import subprocess

from .common import problem

BINARIES = ("foundry-coordinator", "foundry-worker", "foundry", "foundry-console")

# Flags a command must pass, by binary and subcommand; a tuple is "one of".
REQUIRED = {
    ("foundry-coordinator",): ["--db", "--listen", "--metrics-listen"],
    ("foundry-worker",): [("--coordinator", "--coordinator-file"), "--metrics-listen"],
    ("foundry", "campaign", "submit"): ["--coordinator", "--family", "--count"],
}

# Binaries whose leading words are subcommands (`foundry campaign submit`).
WITH_SUBCOMMANDS = ("foundry",)


class Binaries:
    """{(binary, *subcommands): set of --flags} from `BINARY [SUB...] --help`,
    read once each; None when the binary is not built."""

    def __init__(self, bin_dir):
        self.bin_dir = bin_dir
        self._flags = {}

    def flags(self, binary, subcommands=()):
        key = (binary, *subcommands)
        if key in self._flags:
            return self._flags[key]
        path = os.path.join(self.bin_dir, binary)
        if not os.access(path, os.X_OK):
            if not subcommands:
                print(f"  note: {path} is not built; the flags passed to {binary} are not checked")
            self._flags[key] = None
            return None
        try:
            out = subprocess.run([path, *subcommands, "--help"], capture_output=True, text=True,
                                 timeout=30)
        except (OSError, subprocess.TimeoutExpired) as e:
            problem(path, f"cannot run it for its flags ({e})")
            self._flags[key] = None
            return None
        found = set(re.findall(r"(--[a-z][a-z0-9-]*)", out.stdout + out.stderr))
        if "--help" not in found:
            problem(" ".join([path, *subcommands]), "--help printed no flags")
        self._flags[key] = found
        return found


def check_command(where, argv, bins):
    """argv = [binary, subcommand..., --flag, value, ...]: the binary exists,
    every flag is one it (or its subcommand) accepts, and the required ones
    are there. Returns {flag: value}, with the binary under "__binary__" and
    the subcommands under "__subcommands__"."""
    if not argv or not isinstance(argv, list):
        problem(where, "no command")
        return {}
    binary = os.path.basename(str(argv[0]))
    if binary not in BINARIES:
        problem(where, f"runs {argv[0]!r}, not one of {', '.join(BINARIES)}")
        return {}
    i = 1
    subcommands = []
    if binary in WITH_SUBCOMMANDS:
        while i < len(argv) and not str(argv[i]).startswith("-"):
            subcommands.append(str(argv[i]))
            i += 1
    known = bins.flags(binary, tuple(subcommands))
    name_of = " ".join([binary, *subcommands])
    values = {}
    while i < len(argv):
        arg = str(argv[i])
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if known is not None and name not in known:
                problem(where, f"{name_of} has no flag {name} (its flags: {', '.join(sorted(known))})")
            if not eq and i + 1 < len(argv) and not str(argv[i + 1]).startswith("--"):
                value = str(argv[i + 1])
                i += 1
            values[name] = value
        i += 1
    for r in REQUIRED.get((binary, *subcommands), []):
        alternatives = r if isinstance(r, tuple) else (r,)
        if not any(a in values for a in alternatives):
            problem(where, f"{name_of} without {' or '.join(alternatives)}")
    values["__binary__"] = binary
    values["__subcommands__"] = tuple(subcommands)
    return values
