#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A single-node Slurm on localhost, for testing `npusim sweep --slurm` for real (Debian's
# slurm-wlm and munge; no systemd needed; facts in docs/sweep.md).
#
#   slurm_local.sh start DIR   writes DIR/slurm.conf, starts munged (unless one answers already),
#                              slurmctld and slurmd; every state, log and pid file lives in DIR.
#                              Exit 0 when the node is idle; 3 when Slurm cannot start here
#                              (the reason and the daemons' logs on stderr).
#   slurm_local.sh stop DIR    cancels the jobs, stops slurmd, slurmctld (and munged if this
#                              script started it), waiting on each pid.
# Clients find the cluster through SLURM_CONF=DIR/slurm.conf. Ports 16817/16818 (not Slurm's
# defaults, so that a real Slurm on the machine is left alone); root is needed (the daemons).
set -uo pipefail

cmd="${1:-}"
dir="${2:-}"
[[ -n "${cmd}" && -n "${dir}" ]] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
mkdir -p "${dir}"
dir="$(cd "${dir}" && pwd)"
export SLURM_CONF="${dir}/slurm.conf"

cannot() { echo "slurm_local: Slurm cannot start here: $*" >&2; exit 3; }

stop_pid() {  # stop_pid FILE: SIGTERM the pid in FILE and wait for it (up to 10 s, then SIGKILL)
  local f="$1" pid
  [[ -f "${f}" ]] || return 0
  pid="$(cat "${f}" 2>/dev/null)"
  [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null || { rm -f "${f}"; return 0; }
  kill -TERM "${pid}" 2>/dev/null
  for _ in $(seq 100); do kill -0 "${pid}" 2>/dev/null || break; sleep 0.1; done
  kill -0 "${pid}" 2>/dev/null && kill -KILL "${pid}" 2>/dev/null
  rm -f "${f}"
}

start() {
  for p in slurmctld slurmd munged sbatch squeue scontrol sinfo; do
    command -v "${p}" >/dev/null || [[ -x "/usr/sbin/${p}" ]] ||
      cannot "'${p}' is not installed (apt-get install slurm-wlm munge)"
  done
  [[ $(id -u) -eq 0 ]] || cannot "the daemons need root (this is uid $(id -u))"
  export PATH="${PATH}:/usr/sbin"

  # munge: reuse a running daemon, else start one as the munge user (as root it refuses its log).
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    [[ -f /etc/munge/munge.key ]] || cannot "/etc/munge/munge.key is missing (reinstall munge)"
    mkdir -p /run/munge && chown munge:munge /run/munge && chmod 0755 /run/munge
    runuser -u munge -- /usr/sbin/munged || cannot "munged did not start (see /var/log/munge/munged.log)"
    pgrep -u munge -n munged > "${dir}/munged.pid" 2>/dev/null || true
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 || cannot "munged does not answer"
  fi

  local node
  node="$(slurmd -C 2>/dev/null | head -1 | sed -E 's/^NodeName=[^ ]+ //; s/ *$//')"
  [[ "${node}" == CPUs=* ]] || cannot "slurmd -C did not describe this node"
  mkdir -p "${dir}/state" "${dir}/spool"
  cat > "${SLURM_CONF}" <<EOF
# Written by tests/tools/slurm_local.sh: a one-node Slurm on localhost.
ClusterName=npusim
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=${dir}/state
SlurmdSpoolDir=${dir}/spool
SlurmctldPidFile=${dir}/slurmctld.pid
SlurmdPidFile=${dir}/slurmd.pid
SlurmctldLogFile=${dir}/slurmctld.log
SlurmdLogFile=${dir}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerParameters=batch_sched_delay=0
NodeName=localhost NodeAddr=127.0.0.1 ${node} State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  slurmctld -i || cannot "slurmctld did not start: $(tail -5 "${dir}/slurmctld.log" 2>/dev/null)"
  slurmd -N localhost || cannot "slurmd did not start: $(tail -5 "${dir}/slurmd.log" 2>/dev/null)"
  for _ in $(seq 300); do
    if scontrol ping 2>/dev/null | grep -q UP && [[ "$(sinfo -h -o %t 2>/dev/null)" == idle* ]]; then
      echo "slurm_local: node idle (SLURM_CONF=${SLURM_CONF})"
      return 0
    fi
    sleep 0.1
  done
  echo "--- slurmctld.log" >&2; tail -20 "${dir}/slurmctld.log" >&2
  echo "--- slurmd.log" >&2; tail -20 "${dir}/slurmd.log" >&2
  stop
  cannot "the node did not become idle within 30 s (sinfo: $(sinfo -h -o '%t %E' 2>&1))"
}

stop() {
  export PATH="${PATH}:/usr/sbin"
  if [[ -f "${dir}/slurmctld.pid" ]]; then
    scancel --full -u root >/dev/null 2>&1 || true
    for _ in $(seq 50); do [[ -z "$(squeue -h 2>/dev/null)" ]] && break; sleep 0.1; done
  fi
  stop_pid "${dir}/slurmd.pid"
  stop_pid "${dir}/slurmctld.pid"
  stop_pid "${dir}/munged.pid"
  echo "slurm_local: stopped"
}

case "${cmd}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
