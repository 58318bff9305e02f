"""The Dockerfile: multi-stage on debian:12, non-root, a health check, the
four binaries in the runtime stage."""

import os
import re

from .binaries import BINARIES
from .common import problem


def check_dockerfile(repo):
    text = open(os.path.join(repo, "deploy", "Dockerfile"), encoding="utf-8").read()
    # Each stage starts from debian:12 or from an earlier stage of the file.
    stages = re.findall(r"^FROM\s+(\S+)(?:\s+AS\s+(\S+))?", text, re.M | re.I)
    names = set()
    for base, name in stages:
        if not (base.startswith("debian:12") or base in names):
            problem("Dockerfile", f"stage FROM {base}: neither debian:12 nor an earlier stage")
        names.add(name)
    if len(stages) < 2:
        problem("Dockerfile", f"needs several stages (has {len(stages)})")
    user = re.findall(r"^USER\s+(\S+)", text, re.M)
    if not user or user[-1].split(":")[0] in ("root", "0"):
        problem("Dockerfile", "the final stage must run as a non-root USER")
    if not re.search(r"^HEALTHCHECK\s", text, re.M):
        problem("Dockerfile", "no HEALTHCHECK")
    for b in BINARIES:
        if not re.search(rf"COPY --from=build[^\n]*(\\\n[^\n]*)*{re.escape(b)}\b", text):
            problem("Dockerfile", f"the runtime stage does not copy {b}")
    if "scripts/ensure-deps.sh" not in text:
        problem("Dockerfile", "the build stage should install the README's packages (scripts/ensure-deps.sh)")
