"""Checks of deploy/ and dashboards/ that need no cluster and no Docker
(scripts/check_deploy.py is the entry point):

- k8s: the Kubernetes manifests of deploy/k8s;
- compose: deploy/compose.yaml;
- dockerfile: deploy/Dockerfile;
- dashboards: the queries of the dashboards and the alert rules;
- binaries: the flags the binaries accept (their --help), and the commands
  the manifests and the compose file run, checked against them;
- common: the list of problems found and small helpers.

Each check appends to common.problems; main() prints them.
"""

from . import common
from .binaries import BINARIES, Binaries
from .compose import check_compose
from .dashboards import check_queries
from .dockerfile import check_dockerfile
from .k8s import check_kubernetes


def main(argv):
    repo, bin_dir = argv[1], argv[2]
    bins = Binaries(bin_dir)
    for name in BINARIES:
        bins.flags(name)  # notes the binaries that are not built
    checks = [("Kubernetes manifests", lambda: check_kubernetes(repo, bins)),
              ("compose file", lambda: check_compose(repo, bins)),
              ("Dockerfile", lambda: check_dockerfile(repo)),
              ("dashboard and alert queries", lambda: check_queries(repo))]
    for name, check in checks:
        before = len(common.problems)
        check()
        print(f"  {name}: {'ok' if len(common.problems) == before else 'FAILED'}")
    for p in common.problems:
        print(f"  problem: {p}")
    return 1 if common.problems else 0
