#!/usr/bin/env bash
# Puzzle Foundry on Slurm: the one command that runs a whole campaign
# (docs/slurm.md). It submits three jobs:
#   1. coordinator.sbatch  the coordinator, serving $FOUNDRY_RUN_DIR/store;
#   2. workers.sbatch      FOUNDRY_WORKERS workers as a job array, at most
#                          FOUNDRY_CONCURRENT at once, started once the
#                          coordinator job has started (--dependency=after);
#   3. campaign.sbatch     submits the campaign, watches it, exits 0 when it
#                          is DONE; once it has ended, stops the workers and
#                          the coordinator job (both end COMPLETED).
# and prints their ids (also written to $FOUNDRY_RUN_DIR/jobs.env).
#
# Usage ($SHARED: a folder every node sees):
#   FOUNDRY_RUN_DIR=$SHARED/run1 FOUNDRY_FAMILY=sudoku \
#     FOUNDRY_COUNT=1000000 deploy/slurm/submit.sh [--wait]
#   --wait  wait for the campaign job and exit with its exit code (0: the
#           campaign is DONE)
#
# Environment (read here, and passed to the jobs, which read the rest; see
# the top of each .sbatch file for TLS, tokens, FOUNDRY_LISTEN and more):
#   FOUNDRY_RUN_DIR        folder on a filesystem every node shares (required;
#                          created when missing)
#   FOUNDRY_FAMILY, FOUNDRY_COUNT, FOUNDRY_SEED, FOUNDRY_LEVEL, FOUNDRY_SET
#                          the campaign (campaign.sbatch)
#   FOUNDRY_BIN            folder holding foundry, foundry-coordinator and
#                          foundry-worker on every node (default: PATH)
#   FOUNDRY_WORKERS        array tasks, i.e. workers in all, default 4
#   FOUNDRY_CONCURRENT     at most this many running at once, default
#                          FOUNDRY_WORKERS
#   FOUNDRY_CPUS_PER_WORKER  CPUs (= generation threads) per worker, default 1
#   FOUNDRY_SBATCH_ARGS    sbatch options for all three jobs, split on spaces
#                          (e.g. "--partition=cpu --account=puzzles")
#   FOUNDRY_COORDINATOR_SBATCH_ARGS, FOUNDRY_WORKERS_SBATCH_ARGS,
#   FOUNDRY_CAMPAIGN_SBATCH_ARGS
#                          sbatch options for one of them (e.g. "--time=2:00:00")
#   FOUNDRY_KEEP_WORKERS   1: the campaign job leaves the worker array alone;
#                          each worker exits 0 by itself once it has had no
#                          job for FOUNDRY_EXIT_WHEN_IDLE (set it short, e.g.
#                          30s, when you use this)
#   FOUNDRY_KEEP_COORDINATOR  1: leave the coordinator job running after the
#                          campaign (to query or export through it); stop it
#                          with `scancel --signal=TERM --batch JOBID`
# Job output goes to $FOUNDRY_RUN_DIR/logs/.
set -euo pipefail

wait_for_campaign=0
for arg in "$@"; do
  case $arg in
    --wait) wait_for_campaign=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "submit.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

: "${FOUNDRY_RUN_DIR:?set FOUNDRY_RUN_DIR to a folder on the shared filesystem}"
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$FOUNDRY_RUN_DIR/logs"
FOUNDRY_RUN_DIR=$(cd "$FOUNDRY_RUN_DIR" && pwd)
export FOUNDRY_RUN_DIR
if [ ! -s "$FOUNDRY_RUN_DIR/campaign.id" ]; then
  : "${FOUNDRY_FAMILY:?set FOUNDRY_FAMILY}"
  : "${FOUNDRY_COUNT:?set FOUNDRY_COUNT}"
fi
workers=${FOUNDRY_WORKERS:-4}
concurrent=${FOUNDRY_CONCURRENT:-$workers}
cpus=${FOUNDRY_CPUS_PER_WORKER:-1}
logs=$FOUNDRY_RUN_DIR/logs
for n in "$workers" "$concurrent" "$cpus"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: FOUNDRY_WORKERS, FOUNDRY_CONCURRENT and FOUNDRY_CPUS_PER_WORKER must be positive integers" >&2; exit 2; }
done

# A stale address (a coordinator that was killed) would send the workers and
# the campaign job to a dead port until the new coordinator writes its own.
rm -f "$FOUNDRY_RUN_DIR/coordinator.addr"

# All three or none: when a later sbatch fails, the jobs already submitted go.
submitted=()
# shellcheck disable=SC2317  # run by the trap
undo() {
  if [ ${#submitted[@]} -gt 0 ]; then
    echo "submit.sh: cancelling the jobs already submitted: ${submitted[*]}" >&2
    scancel "${submitted[@]}" || true
  fi
}
trap undo EXIT
# The *_SBATCH_ARGS variables hold sbatch options separated by spaces.
read -ra all_args <<<"${FOUNDRY_SBATCH_ARGS:-}"
read -ra coordinator_args <<<"${FOUNDRY_COORDINATOR_SBATCH_ARGS:-}"
read -ra workers_args <<<"${FOUNDRY_WORKERS_SBATCH_ARGS:-}"
read -ra campaign_args <<<"${FOUNDRY_CAMPAIGN_SBATCH_ARGS:-}"
coord=$(sbatch --parsable --export=ALL "${all_args[@]}" "${coordinator_args[@]}" \
  --output="$logs/coordinator-%j.out" "$here/coordinator.sbatch")
coord=${coord%%;*}  # "id;cluster" on multi-cluster set-ups
submitted+=("$coord")
array=$(sbatch --parsable --export=ALL "${all_args[@]}" "${workers_args[@]}" \
  --array="0-$((workers - 1))%${concurrent}" --cpus-per-task="$cpus" \
  --dependency="after:$coord" --output="$logs/worker-%A_%a.out" "$here/workers.sbatch")
array=${array%%;*}
submitted+=("$array")
campaign_export=ALL
[ "${FOUNDRY_KEEP_WORKERS:-0}" = 1 ] || campaign_export=$campaign_export,FOUNDRY_WORKERS_JOB=$array
[ "${FOUNDRY_KEEP_COORDINATOR:-0}" = 1 ] ||
  campaign_export=$campaign_export,FOUNDRY_COORDINATOR_JOB=$coord
campaign=$(sbatch --parsable --export="$campaign_export" "${all_args[@]}" "${campaign_args[@]}" \
  --dependency="after:$coord" --output="$logs/campaign-%j.out" "$here/campaign.sbatch")
campaign=${campaign%%;*}
trap - EXIT

cat >"$FOUNDRY_RUN_DIR/jobs.env" <<JOBS
COORDINATOR_JOB=$coord
WORKERS_JOB=$array
CAMPAIGN_JOB=$campaign
JOBS
echo "coordinator job $coord"
echo "workers job $array (array 0-$((workers - 1)), $concurrent at once, $cpus CPUs each)"
echo "campaign job $campaign"
echo "logs in $logs"

[ "$wait_for_campaign" = 1 ] || exit 0
# The campaign job's exit code; sacct is not needed (no accounting database).
misses=0
while :; do
  state=$(scontrol show job "$campaign" 2>/dev/null |
    sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1) || true
  case $state in
    "")  # slurmctld busy or restarting; or the job is long gone (MinJobAge)
      misses=$((misses + 1))
      if [ "$misses" -ge 30 ]; then
        echo "submit.sh: Slurm no longer knows job $campaign; see $logs/campaign-$campaign.out" >&2
        exit 3
      fi
      sleep 2 ;;
    PENDING | CONFIGURING | RUNNING | COMPLETING | REQUEUED | REQUEUE_HOLD | REQUEUE_FED | \
      SUSPENDED | RESIZING | SIGNALING | STAGE_OUT) misses=0; sleep 2 ;;
    *) break ;;
  esac
done
code=$(scontrol show job "$campaign" 2>/dev/null | sed -n 's/.* ExitCode=\([0-9]*\):\([0-9]*\).*/\1 \2/p' | head -1) || true
read -r rc sig <<<"$code"
[ "${sig:-0}" = 0 ] && sig=""
echo "campaign job $campaign: $state, exit code ${rc:-?}${sig:+ (signal $sig)}"
if [ "$state" = COMPLETED ] && [ "${rc:-1}" = 0 ]; then exit 0; fi
[ -n "${rc:-}" ] && [ "$rc" != 0 ] && exit "$rc"
exit 1
