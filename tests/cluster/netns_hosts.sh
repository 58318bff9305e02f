# shellcheck shell=bash
# Hosts on a network made of Linux network namespaces, for the cluster tests.
# Sourced (bash), not run. Needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN) and
# iproute2.
#
#   nh_require                 root, `ip netns add` permitted, tools installed
#   nh_setup HOST...           one namespace per host, each with one link to a
#                              bridge in a "switch" namespace of its own;
#                              addresses 10.77.0.1, .2, ... in the order given;
#                              /etc/netns/NS/hosts names every host
#   nh_ns HOST, nh_ip HOST     the host's namespace name, its address
#   nh_exec HOST CMD...        runs CMD on HOST (in the foreground)
#   nh_spawn HOST LOG CMD...   starts CMD on HOST in the background, stdout and
#                              stderr to LOG; its pid in NH_PID, remembered
#   nh_stop PID [SECONDS]      SIGTERM, SIGKILL after SECONDS (default 5)
#   nh_link_down HOST          pulls the host's cable (its switch port down)
#   nh_link_up HOST            plugs it back in
#   nh_teardown                kills every process started here (by pid) and
#                              any left in the namespaces, deletes the
#                              namespaces (their links go with them) and the
#                              /etc/netns/NS directories; safe to call twice
#
# Nothing is added to the root namespace: the links are created inside the
# switch namespace and their other ends moved straight into the hosts', so
# the 10.77.0.0/24 addresses exist only on this private network and parallel
# runs (namespace names carry the shell's pid) never see each other's.

NH_PREFIX="fnet$$"
NH_SUBNET="10.77.0"
NH_HOSTS=()
NH_PIDS=()
NH_NAMESPACES=()
NH_PID=

nh_log() { echo "[netns $(date +%T)] $*" >&2; }

nh_require() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "FAIL: the network test needs root: it creates network namespaces (ip netns add)" >&2
    return 1
  fi
  local missing=()
  command -v ip >/dev/null || missing+=(iproute2)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v curl >/dev/null || missing+=(curl)
  command -v jq >/dev/null || missing+=(jq)
  command -v timeout >/dev/null || missing+=(coreutils)
  if [ ${#missing[@]} -gt 0 ]; then
    nh_log "installing ${missing[*]}"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
        --no-install-recommends "${missing[@]}" >/dev/null; }; then
      echo "FAIL: could not install ${missing[*]}" >&2
      return 1
    fi
  fi
  local probe="${NH_PREFIX}-probe" err
  if ! err=$(ip netns add "$probe" 2>&1); then
    echo "FAIL: 'ip netns add' is not permitted here ($err): the network test needs" \
      "CAP_SYS_ADMIN and CAP_NET_ADMIN (root on the host, or a privileged container)" >&2
    return 1
  fi
  ip netns del "$probe"
  if ! err=$(ip netns add "$probe" 2>&1 && ip -n "$probe" link add nhbr type bridge 2>&1); then
    ip netns del "$probe" 2>/dev/null
    echo "FAIL: cannot make a bridge inside a network namespace ($err)" >&2
    return 1
  fi
  ip netns del "$probe"
}

nh_ns() { echo "${NH_PREFIX}-$1"; }

nh_ip() {
  local i
  for i in "${!NH_HOSTS[@]}"; do
    if [ "${NH_HOSTS[$i]}" = "$1" ]; then
      echo "${NH_SUBNET}.$((i + 1))"
      return 0
    fi
  done
  echo "nh_ip: unknown host '$1'" >&2
  return 1
}

# Namespaces of earlier runs killed before their trap ran (SIGKILL): their
# name carries a pid that no longer exists. Processes still inside are
# killed by pid, then the namespace and its /etc/netns directory go.
nh_remove_stale() {
  local ns pid p
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^fnet[0-9]+-' || true); do
    pid=${ns#fnet}
    pid=${pid%%-*}
    [ -d "/proc/$pid" ] && continue
    nh_log "removing namespace $ns of an earlier run (pid $pid is gone)"
    for p in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
  done
}

nh_setup() {
  nh_remove_stale
  NH_HOSTS=("$@")
  local sw host ns i hosts_file
  sw=$(nh_ns switch)
  ip netns add "$sw" && NH_NAMESPACES+=("$sw") || return 1
  ip -n "$sw" link set lo up &&
    ip -n "$sw" link add br0 type bridge &&
    ip -n "$sw" link set br0 up || return 1
  hosts_file=$(mktemp)
  printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$hosts_file"
  for i in "${!NH_HOSTS[@]}"; do
    printf '%s.%d\t%s\n' "$NH_SUBNET" $((i + 1)) "${NH_HOSTS[$i]}" >>"$hosts_file"
  done
  for i in "${!NH_HOSTS[@]}"; do
    host=${NH_HOSTS[$i]}
    ns=$(nh_ns "$host")
    ip netns add "$ns" && NH_NAMESPACES+=("$ns") || return 1
    mkdir -p "/etc/netns/$ns"
    cp "$hosts_file" "/etc/netns/$ns/hosts"
    # The switch port p-HOST and the host's eth0, created as a pair.
    ip -n "$sw" link add "p-$host" type veth peer name eth0 netns "$ns" &&
      ip -n "$sw" link set "p-$host" master br0 &&
      ip -n "$sw" link set "p-$host" up &&
      ip -n "$ns" link set lo up &&
      ip -n "$ns" addr add "${NH_SUBNET}.$((i + 1))/24" dev eth0 &&
      ip -n "$ns" link set eth0 up || return 1
  done
  rm -f "$hosts_file"
  # Every host reaches every other, by name, before anyone relies on it.
  local a b deadline
  deadline=$((SECONDS + 10))
  for a in "${NH_HOSTS[@]}"; do
    for b in "${NH_HOSTS[@]}"; do
      [ "$a" = "$b" ] && continue
      until nh_exec "$a" getent hosts "$b" >/dev/null && nh_reaches "$a" "$b"; do
        if [ $SECONDS -ge $deadline ]; then
          echo "FAIL: host $a cannot reach host $b on the test network" >&2
          return 1
        fi
        sleep 0.2
      done
    done
  done
}

# True when host A reaches host B by name: a TCP connection to a closed port
# of B is refused at once (RST) instead of timing out.
nh_reaches() {
  local out
  out=$(nh_exec "$1" timeout 2 bash -c "exec 3<>/dev/tcp/$2/9" 2>&1)
  case $? in
    0) return 0 ;;
    124) return 1 ;;
  esac
  [[ $out == *"refused"* ]]
}

nh_exec() {
  local host=$1
  shift
  ip netns exec "$(nh_ns "$host")" "$@"
}

nh_spawn() {
  local host=$1 log=$2
  shift 2
  # `ip netns exec` execs CMD, so $! is CMD's own pid.
  ip netns exec "$(nh_ns "$host")" "$@" >"$log" 2>&1 &
  NH_PID=$!
  NH_PIDS+=("$NH_PID")
}

nh_stop() {
  local pid=$1 grace=${2:-5} i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < grace * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

nh_link_down() { ip -n "$(nh_ns switch)" link set "p-$1" down; }
nh_link_up() { ip -n "$(nh_ns switch)" link set "p-$1" up; }

nh_teardown() {
  local pid ns
  local i live
  for pid in "${NH_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for ((i = 0; i < 50; i++)); do
    live=0
    for pid in "${NH_PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && live=1; done
    [ "$live" = 0 ] && break
    sleep 0.1
  done
  for pid in "${NH_PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  for ns in "${NH_NAMESPACES[@]}"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
  done
  for pid in "${NH_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  for ns in "${NH_NAMESPACES[@]}"; do
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
  done
  NH_PIDS=()
  NH_NAMESPACES=()
}
