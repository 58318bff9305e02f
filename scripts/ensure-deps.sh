#!/usr/bin/env bash
# Installs the Debian 12 packages Puzzle Foundry needs, when any is missing.
# Usage: scripts/ensure-deps.sh [extra-package ...]
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libtbb-dev librocksdb-dev prometheus-cpp-dev libssl-dev
  libxxhash-dev nlohmann-json3-dev libcli11-dev libfmt-dev libjemalloc-dev libcpp-httplib-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  curl
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing packages: ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
