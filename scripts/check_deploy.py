#!/usr/bin/python3
"""Checks of deploy/ and dashboards/ that need no cluster and no Docker.

Usage: scripts/check_deploy.py REPO_DIR BIN_DIR

- Kubernetes manifests (deploy/k8s): the fields each kind needs, selectors
  that match their pod labels and no other workload's, probes and scrape
  annotations on declared ports, security contexts, Secrets, keys and
  volumes that exist, one coordinator replica with a persistent volume and a
  PodDisruptionBudget, an autoscaler on the worker Deployment, the Indexed
  Job of workers and the campaign Job (deploy_checks/k8s.py). Their schemas
  are checked by deploy/k8s/validate (kubernetes-models).
- The compose file: the four services, scalable workers, volumes, and
  commands whose flags the binaries accept (read from their --help, and
  `foundry SUBCOMMAND --help`), wired to each other's ports and to the
  Prometheus config.
- The Dockerfile: multi-stage on debian:12, non-root, a health check.
- Dashboards and alert rules: every foundry_* selector names its scrape job,
  panels use the provisioned datasource.

Prints one line per problem and exits 1 when there is any. Needs PyYAML
(Debian's python3-yaml, which yamllint depends on). The checks live in
scripts/deploy_checks/.
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from deploy_checks import main  # noqa: E402  (after the line above)

if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    sys.exit(main(sys.argv))
