#!/usr/bin/env bash
# CI checks of what can be checked here of deploy/ and dashboards/ (no Docker
# engine, no cluster): YAML validity (yamllint), the Kubernetes manifests
# against the Kubernetes API schemas (deploy/k8s/validate, kubernetes-models
# from npm), Prometheus configs and alert rules (promtool check config /
# check rules / test rules), and our own checks of the Kubernetes manifests,
# the compose file, the Dockerfile and the queries (scripts/check_deploy.py,
# which also runs the binaries' --help to check every flag the compose file
# and the manifests pass).
#
# Usage: scripts/check-deploy.sh [BIN_DIR]   (default build/bin)
# Installs yamllint, prometheus (for promtool), nodejs and npm with apt-get
# when missing and root or password-less sudo, and runs `npm ci` in
# deploy/k8s/validate when its node_modules is missing or older than its
# package-lock.json. A check whose tool cannot be had is skipped with a
# message. Exits non-zero when a check that ran failed.
# Registered in ctest as check_deploy (label "deploy").
set -uo pipefail
cd "$(dirname "$0")/.."
BIN_DIR=${1:-build/bin}

passed=0
failed=0
skipped=0

SUDO=""
can_install() {
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; return 0; fi
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo -n"; return 0; fi
  return 1
}

# ensure TOOL PACKAGE: true when TOOL is (or could be made) available.
ensure() {
  local tool=$1 package=$2
  command -v "$tool" >/dev/null && return 0
  if ! can_install; then
    echo "check-deploy: $tool is missing and installing $package needs root or sudo"
    return 1
  fi
  echo "check-deploy: installing $package"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "$package" >/dev/null 2>&1 ||
    { $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null 2>&1 &&
      $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "$package" >/dev/null 2>&1; }
  command -v "$tool" >/dev/null || { echo "check-deploy: could not install $package"; return 1; }
}

# run NAME COMMAND...: one check.
run() {
  local name=$1
  shift
  local out
  if out=$("$@" 2>&1); then
    echo "ok      $name"
    echo "$out" | grep '^  note:' | sed 's/^  /        /'
    passed=$((passed + 1))
  else
    echo "FAILED  $name"
    echo "$out" | sed 's/^/        /'
    failed=$((failed + 1))
  fi
}

skip() {
  echo "SKIPPED $1: $2"
  skipped=$((skipped + 1))
}

# ---- YAML
if ensure yamllint yamllint; then
  run "yamllint deploy/ dashboards/provisioning/" \
    yamllint --strict -c deploy/yamllint.yml deploy dashboards/provisioning
else
  skip "yamllint" "yamllint not available"
fi

# ---- Kubernetes API schemas (kubernetes-models, pinned by the lock file)
VALIDATE=deploy/k8s/validate
npm_ready() {
  [ -f "$VALIDATE/node_modules/.package-lock.json" ] &&
    ! [ "$VALIDATE/package-lock.json" -nt "$VALIDATE/node_modules/.package-lock.json" ]
}
if ensure node nodejs && ensure npm npm; then
  if ! npm_ready; then
    echo "check-deploy: npm ci in $VALIDATE"
    if ! npm_out=$(cd "$VALIDATE" && npm ci --no-audit --no-fund --loglevel=error 2>&1); then
      echo "$npm_out" | tail -n 5 | sed 's/^/        /'
    fi
  fi
  if npm_ready; then
    run "Kubernetes API schemas of deploy/k8s/*.yaml (node $VALIDATE/validate.mjs)" \
      node "$VALIDATE/validate.mjs"
  else
    skip "node $VALIDATE/validate.mjs" "npm ci in $VALIDATE failed"
  fi
else
  skip "node $VALIDATE/validate.mjs" "node and npm not available"
fi

# ---- Prometheus configs and rules
if ensure promtool prometheus; then
  run "promtool check rules deploy/prometheus/alerts.yml" \
    promtool check rules deploy/prometheus/alerts.yml
  run "promtool test rules deploy/prometheus/alerts_test.yml" \
    promtool test rules deploy/prometheus/alerts_test.yml
  run "promtool check config deploy/prometheus/prometheus-local.yml" \
    promtool check config deploy/prometheus/prometheus-local.yml
  run "promtool check config deploy/prometheus/prometheus-compose.yml" \
    promtool check config deploy/prometheus/prometheus-compose.yml
  # Debian's Prometheus is built without Kubernetes service discovery, so its
  # promtool rejects kubernetes_sd_configs. Check everything else of the
  # file (relabelling, rule files) with the discovery block swapped for a
  # static target.
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  sed -e 's/^\(\s*\)kubernetes_sd_configs:/\1static_configs:/' \
      -e 's/^\(\s*\)- role: pod$/\1- targets: ["10.0.0.1:9420"]/' \
      -e '/^\s*namespaces:$/d' -e '/^\s*names: \[foundry\]$/d' \
      deploy/prometheus/prometheus-kubernetes.yml >"$tmp/prometheus.yml"
  cp deploy/prometheus/alerts.yml "$tmp/alerts.yml"
  if grep -q kubernetes_sd_configs "$tmp/prometheus.yml" || ! grep -q '10.0.0.1:9420' "$tmp/prometheus.yml"; then
    echo "FAILED  promtool check config deploy/prometheus/prometheus-kubernetes.yml: the discovery block has an unexpected shape"
    failed=$((failed + 1))
  else
    run "promtool check config deploy/prometheus/prometheus-kubernetes.yml (discovery swapped for a static target)" \
      promtool check config "$tmp/prometheus.yml"
  fi
else
  skip "promtool" "prometheus (promtool) not available"
fi

# ---- our schema check (needs PyYAML: Debian's python3-yaml)
PY=/usr/bin/python3
have_pyyaml() { [ -x "$PY" ] && "$PY" -c 'import yaml' 2>/dev/null; }
if ! have_pyyaml && can_install; then
  echo "check-deploy: installing python3-yaml"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends python3 python3-yaml >/dev/null 2>&1
fi
if have_pyyaml; then
  run "manifests, compose, Dockerfile and queries (scripts/check_deploy.py $BIN_DIR)" \
    "$PY" scripts/check_deploy.py . "$BIN_DIR"
else
  skip "scripts/check_deploy.py" "/usr/bin/python3 with PyYAML (python3-yaml) not available"
fi

echo "check-deploy: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
