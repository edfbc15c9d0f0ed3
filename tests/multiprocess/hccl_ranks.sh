#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# HCCL with one process per rank: runs <n> hccl_rank processes of one session twice, each writing
# its own timeline (NPUSIM_OUT=<dir>/%p), checks every rank's results (the program does) and that
# the two runs' timelines are byte-identical. "mixed": ranks 0 and 1 are host threads of one
# process, the others one process each; "one": all ranks are threads of one process (in a named
# session, which it does not need). <dead rank>: that rank's process exits without cleaning
# up after joining; every other rank must report the failed collective (not hang).
#   hccl_ranks.sh <hccl_rank> <npusim> <work dir> <n> [mixed | one | <dead rank>]
set -euo pipefail
prog="$1"; server="$2"; work="$3"; n="$4"; dead="${5:-}"
specs=()  # the processes' rank lists, rank 0's last (the others wait for its root info)
if [[ "${dead}" == mixed ]]; then
  dead=""
  for ((r = n - 1; r >= 2; --r)); do specs+=("${r}"); done
  specs+=("0+1")
elif [[ "${dead}" == one ]]; then  # every rank a thread of one process (the session unused)
  dead=""
  one=1
  all="0"
  for ((r = 1; r < n; ++r)); do all+="+${r}"; done
  specs+=("${all}")
else
  for ((r = n - 1; r >= 0; --r)); do specs+=("${r}"); done
fi
rm -rf "${work}"; mkdir -p "${work}"
export NPUSIM_SERVER="${server}"
# The sessions' sockets (and their lock files) in a directory of this test's own.
XDG_RUNTIME_DIR="$(mktemp -d /tmp/npusim-hccl-mp.XXXXXX)"
export XDG_RUNTIME_DIR
trap 'rm -rf "${XDG_RUNTIME_DIR}"' EXIT
export NPUSIM_SET="soc.num_devices=${n}"
unset NPUSIM_CONFIG

run() {  # run <label> [<session>]: all processes of one session, in parallel
  local dir="${work}/$1"
  mkdir -p "${dir}"
  export NPUSIM_SESSION="${2:-hccl-mp-$$-$1}"
  export NPUSIM_OUT="${dir}/out/%p"
  local pids=() spec
  for spec in "${specs[@]}"; do
    (cd "${dir}" && exec "${prog}" "${spec}" "${n}" root.info) >"${dir}/ranks${spec}.log" 2>&1 &
    pids+=($!)
  done
  local fail=0
  for p in "${pids[@]}"; do wait "${p}" || fail=1; done
  for spec in "${specs[@]}"; do
    for r in ${spec//+/ }; do
      if ! grep -qx "rank ${r}: OK" "${dir}/ranks${spec}.log"; then
        echo "FAIL: run $1, rank ${r}:"; cat "${dir}/ranks${spec}.log"; fail=1
      fi
    done
  done
  [[ ${fail} == 0 ]] || exit 1
}

if [[ -n "${dead}" ]]; then
  dir="${work}/dead"
  mkdir -p "${dir}"
  export NPUSIM_SESSION="hccl-mp-$$-dead"
  pids=()
  for ((r = n - 1; r >= 0; --r)); do
    (cd "${dir}" && exec "${prog}" "${r}" "${n}" root.info "${dead}") >"${dir}/rank${r}.log" 2>&1 &
    pids+=($!)
  done
  codes=()
  for p in "${pids[@]}"; do
    set +e; wait "${p}"; codes+=($?); set -e
  done
  fail=0
  for ((r = 0; r < n; ++r)); do
    code="${codes[$((n - 1 - r))]}"
    if [[ ${r} == "${dead}" ]]; then
      [[ ${code} == 3 ]] || { echo "FAIL: the dead rank ${r} exited with ${code}"; fail=1; }
    elif [[ ${code} != 0 ]] || ! grep -q "^rank ${r}: peer lost: [1-9]" "${dir}/rank${r}.log"; then
      echo "FAIL: rank ${r} (exit ${code}):"; cat "${dir}/rank${r}.log"; fail=1
    fi
  done
  [[ ${fail} == 0 ]] || exit 1
  echo "PASS: rank ${dead} of ${n} died; the others' collective failed with an error"
  exit 0
fi

run a
run b
# All ranks in one process: the same timeline as without any session.
[[ -n "${one:-}" ]] && run c off
count=0
for t in "${work}"/a/out/*/timeline.json; do
  rel="${t#"${work}"/a/}"
  if ! cmp -s "${t}" "${work}/b/${rel}"; then
    echo "FAIL: ${rel} differs between two runs"; exit 1
  fi
  if [[ -n "${one:-}" ]] && ! cmp -s "${t}" "${work}/c/${rel}"; then
    echo "FAIL: ${rel} differs from the run without a session"; exit 1
  fi
  count=$((count + 1))
done
# Each process applied the flag writes of the ranks of the other processes (as tasks at their
# writers' simulated times): the collectives really crossed processes.
for spec in "${specs[@]}"; do
  timeline="${work}/a/out/hccl_rank-${spec//+/_}-${n}-root.info/timeline.json"
  python3 - "${timeline}" "${spec}" "${n}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d = d if isinstance(d, list) else d["traceEvents"]
mine = {int(r) for r in sys.argv[2].split("+")}
applied = set()  # ranks named by "HCCL Notify Record (rank k)" or "(ranks i, j, k)"
for e in d:
    name = e.get("name", "")
    if e.get("ph") == "X" and name.startswith("HCCL Notify Record (rank"):
        applied |= {int(r) for r in name.split(" ", 4)[4].rstrip(")").split(", ")}
for k in range(int(sys.argv[3])):
    seen = k in applied
    if seen == (k in mine):
        sys.exit("%s: flag writes of rank %d %s"
                 % (sys.argv[1], k, "applied" if seen else "missing"))
PY
done
[[ ${count} == "${#specs[@]}" ]] || {
  echo "FAIL: ${count} timelines, expected ${#specs[@]}"; ls -R "${work}/a/out"; exit 1; }
echo "PASS: ${n} ranks in ${#specs[@]} processes, results exact," \
  "${count} timelines identical in two runs"
