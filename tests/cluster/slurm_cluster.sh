# shellcheck shell=bash
# A real single-node Slurm cluster in a temporary directory, for tests.
# Source this file, then:
#   slurm_cluster_start DIR [CPUS]  munged, slurmctld and slurmd with every
#       state, spool, log, pid and socket path under DIR (made world-readable
#       so the munge and slurm users can reach it; its parents must let them
#       through too), on free ports; exports SLURM_CONF and sets
#       SLURM_JOBCOMP_LOG (jobcomp/filetxt: one line per ended job or array
#       task, with its state and exit code). Returns once the node is idle.
#       The node claims CPUS CPUs (default 8) whatever the machine has.
#   slurm_cluster_stop  cancels every job, waits for their step daemons and
#       programs to go, then stops slurmd, slurmctld and munged, each by the
#       pid this shell started (never by name). Safe to call twice, and from
#       an EXIT trap.
#   slurm_jobcomp_line JOBID  the jobcomp line of a job or an array task
#       (JOBID may be the task's own id or ARRAYJOB_TASK).
#   slurm_field LINE KEY  the value of KEY=... in a jobcomp or scontrol line.
# Needs root (slurmd launches jobs as their users) and Debian's slurm-wlm and
# munge packages (slurm_cluster_install [PACKAGE...] installs them, and any
# other package named, when missing).

SLURM_CLUSTER_DIR=""
SLURM_CLUSTER_PIDS=()  # munged slurmctld slurmd, in start order

slurm_cluster_log() { printf '[slurm-cluster] %s\n' "$*" >&2; }

slurm_cluster_install() {  # [more Debian packages]
  local missing=() p
  for p in slurm-wlm munge "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  slurm_cluster_log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  # The packages' init scripts do not start anything in a container without
  # an init system; the daemons below are started by hand.
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
}

# Two TCP ports nothing listens on or uses, one per line, below Linux's
# ephemeral range (32768 and up), where outgoing connections take theirs.
slurm_cluster_free_ports() {
  local -A used=()
  local _sl local_addr _rest port picked=0
  while read -r _sl local_addr _rest; do
    [[ $local_addr == *:* ]] && used[$((16#${local_addr##*:}))]=1
  done < <(tail -q -n +2 /proc/net/tcp /proc/net/tcp6 2>/dev/null)
  while [ $picked -lt 2 ]; do
    port=$((15000 + RANDOM % 17000))
    [ -n "${used[$port]:-}" ] && continue
    used[$port]=1
    echo "$port"
    picked=$((picked + 1))
  done
}

# Waits (up to $2 seconds) until the command in $3... succeeds.
slurm_cluster_wait() {
  local what=$1 seconds=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $deadline ]; then
      slurm_cluster_log "timed out after ${seconds}s waiting for $what"
      return 1
    fi
    sleep 0.2
  done
}

slurm_cluster_alive() {  # pid
  kill -0 "$1" 2>/dev/null
}

slurm_cluster_start() {
  local dir=$1 cpus=${2:-8}
  mkdir -p "$dir"
  SLURM_CLUSTER_DIR=$(cd "$dir" && pwd)
  local d=$SLURM_CLUSTER_DIR host
  host=$(hostname)
  # munged refuses group- or world-writable folders on its paths, and the
  # slurm user must reach the socket: 0755 all the way.
  chmod 0755 "$d"
  if ! setpriv --reuid=munge --regid=munge --clear-groups test -x "$d"; then
    slurm_cluster_log "$d: the munge and slurm users cannot reach it (a parent folder is private?)"
    return 1
  fi
  mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log" "$d/run"
  chmod 0755 "$d/munge"
  chown munge:munge "$d/munge"
  chown slurm:slurm "$d/state" "$d/log" "$d/run"
  mungekey --create --keyfile="$d/munge/munge.key" >/dev/null 2>&1 ||
    create-munge-key -f -k "$d/munge/munge.key" >/dev/null 2>&1 # older munge
  chown munge:munge "$d/munge/munge.key"
  chmod 0600 "$d/munge/munge.key"
  # setpriv (not runuser) execs munged directly: $! is munged's own pid.
  setpriv --reuid=munge --regid=munge --clear-groups \
    /usr/sbin/munged --foreground --socket="$d/munge/munge.sock" \
    --key-file="$d/munge/munge.key" --pid-file="$d/munge/munged.pid" \
    --log-file="$d/munge/munged.log" --seed-file="$d/munge/munged.seed" \
    </dev/null >"$d/log/munged.out" 2>&1 &
  SLURM_CLUSTER_PIDS+=($!)
  slurm_cluster_wait "munged's socket" 20 test -S "$d/munge/munge.sock" || return 1

  local ports
  mapfile -t ports < <(slurm_cluster_free_ports)
  SLURM_JOBCOMP_LOG=$d/log/jobcomp.log
  cat >"$d/slurm.conf" <<EOF
ClusterName=foundrytest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$SLURM_JOBCOMP_LOG
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
# Start pending jobs as soon as something changes, not once a minute: the
# worker array waits on the coordinator job (--dependency=after:).
SchedulerParameters=sched_interval=1,bf_interval=1,batch_sched_delay=0
# Seconds between a cancel's SIGTERM and its SIGKILL (Slurm's default, 30).
KillWait=30
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  chmod 0644 "$d/slurm.conf"
  export SLURM_CONF=$d/slurm.conf

  /usr/sbin/slurmctld -D -f "$SLURM_CONF" </dev/null >"$d/log/slurmctld.out" 2>&1 &
  SLURM_CLUSTER_PIDS+=($!)
  slurm_cluster_wait "slurmctld" 30 scontrol ping || {
    tail -20 "$d/log/slurmctld.log" "$d/log/slurmctld.out" >&2
    return 1
  }
  /usr/sbin/slurmd -D -f "$SLURM_CONF" </dev/null >"$d/log/slurmd.out" 2>&1 &
  SLURM_CLUSTER_PIDS+=($!)
  slurm_cluster_wait "the node to be idle" 60 slurm_cluster_node_idle || {
    sinfo >&2
    tail -20 "$d/log/slurmd.log" "$d/log/slurmctld.log" >&2
    return 1
  }
}

slurm_cluster_node_idle() {
  [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]
}

slurm_cluster_no_jobs() {
  local q
  q=$(squeue -h -o %i 2>/dev/null) || return 1
  [ -z "$q" ]
}

# No job step left on the node: no slurmstepd, no program of a job.
slurm_cluster_no_steps() {
  local pids
  pids=$(scontrol listpids 2>/dev/null | awk 'NR > 1 && $1 ~ /^[0-9]+$/')
  [ -z "$pids" ]
}

slurm_cluster_stop() {
  [ ${#SLURM_CLUSTER_PIDS[@]} -eq 0 ] && return 0
  local i pid
  if [ ${#SLURM_CLUSTER_PIDS[@]} -ge 3 ] && slurm_cluster_alive "${SLURM_CLUSTER_PIDS[1]}"; then
    # Jobs first, while slurmd still runs to signal their programs and reap
    # their step daemons.
    scancel --full --signal=TERM --state=RUNNING --user="$(id -un)" 2>/dev/null || true
    scancel --user="$(id -un)" 2>/dev/null || true
    slurm_cluster_wait "the jobs to end" 60 slurm_cluster_no_jobs || squeue >&2 || true
    slurm_cluster_wait "the job steps to end" 60 slurm_cluster_no_steps || scontrol listpids >&2 || true
  fi
  # slurmd, then slurmctld, then munged; SIGTERM, then SIGKILL after 15 s.
  for ((i = ${#SLURM_CLUSTER_PIDS[@]} - 1; i >= 0; i--)); do
    pid=${SLURM_CLUSTER_PIDS[$i]}
    slurm_cluster_alive "$pid" || continue
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + 15))
    while slurm_cluster_alive "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
    if slurm_cluster_alive "$pid"; then
      slurm_cluster_log "pid $pid ignored SIGTERM for 15 s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
  done
  SLURM_CLUSTER_PIDS=()
}

slurm_field() {  # LINE KEY
  local kv
  for kv in $1; do
    case $kv in "$2="*) printf '%s\n' "${kv#*=}"; return 0 ;; esac
  done
  return 1
}

slurm_jobcomp_line() {  # JOBID or ARRAYJOB_TASK
  [ -f "$SLURM_JOBCOMP_LOG" ] || return 1
  local id=$1 line
  if [[ $id == *_* ]]; then
    line=$(grep -E "(^| )ArrayJobId=${id%_*} .*ArrayTaskId=${id#*_}( |$)" "$SLURM_JOBCOMP_LOG" | tail -1)
  else
    line=$(grep -E "^JobId=$id " "$SLURM_JOBCOMP_LOG" | tail -1)
  fi
  [ -n "$line" ] && printf '%s\n' "$line"
}
