#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Two processes on one simulated machine (issue 14): tests/multiprocess/ipc_peer.cpp as owner and
# peer of one session.
#   ipc_pair.sh PEER NPUSIM WORKDIR pair    values, whitelist error, and the same timelines twice
#                                           (a named session: all device memory is one memfd)
#   ipc_pair.sh PEER NPUSIM WORKDIR pair_default   the same in the session "default" (no
#                                           NPUSIM_SESSION: exported ranges move to a memfd)
#   ipc_pair.sh PEER NPUSIM WORKDIR kill    the peer dies mid-run: the owner's wait ends with an
#                                           error (507046) instead of hanging; the server leaves
#   ipc_pair.sh PEER NPUSIM WORKDIR server_kill   the session's server is killed (SIGKILL): the
#                                           client's sync ends with 507046 and its stream's
#                                           destroy returns promptly (issue 23 item 7)
set -u
peer_bin="$1"
npusim="$2"
work="$3"
mode="$4"
rm -rf "${work}"
mkdir -p "${work}"
export NPUSIM_SERVER="${npusim}"
export NPUSIM_SET="soc.num_devices=2"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
export NPUSIM_SERVE_LOG="${work}/serve.log"
# The sessions' sockets and lock files in this test's directory.
# (A runtime directory must be the user's own, mode 0700, or the session uses /tmp/npusim-<uid>.)
export XDG_RUNTIME_DIR="${work}/run"
mkdir -p -m 0700 "${XDG_RUNTIME_DIR}"
sessions="${XDG_RUNTIME_DIR}/npusim"
fail() {
  echo "FAIL: $*"
  for f in "${work}"/*.log; do echo "== ${f}"; cat "${f}"; done
  exit 1
}

# run_pair NAME PEER_ROLE: both processes in session npusim-test-<pid>-NAME; outputs in
# ${work}/NAME/out/<program-args>/ (NPUSIM_OUT with %p).
run_pair() {
  local name="$1" role="$2" d="${work}/$1"
  mkdir -p "${d}/files"
  if [[ "${mode}" == pair_default ]]; then
    unset NPUSIM_SESSION
  else
    export NPUSIM_SESSION="npusim-test-$$-${name}"
  fi
  export NPUSIM_OUT="${d}/out/%p"
  timeout 60 "${peer_bin}" owner "${d}/files" >"${work}/${name}_owner.log" 2>&1 &
  local a=$!
  timeout 60 "${peer_bin}" "${role}" "${d}/files" >"${work}/${name}_${role}.log" 2>&1 &
  local b=$!
  wait "${a}"
  owner_rc=$?
  wait "${b}"
  peer_rc=$?
  # The server leaves with its last client.
  local sock
  sock="$(ls "${sessions}/${NPUSIM_SESSION:-default}"-*.sock 2>/dev/null)"
  for _ in $(seq 1 100); do [[ -n "${sock}" && -e "${sock}" ]] || break; sleep 0.05; done
  [[ -n "${sock}" && -e "${sock}" ]] &&
    fail "the session server of ${name} is still there after its clients left"
  ls "${sessions}"/*.sock.lock >/dev/null 2>&1 || fail "no session was formed for ${name}"
  [[ "$(stat -c %a "${sessions}")" == 700 ]] || fail "the session directory is not private"
  return 0
}

case "${mode}" in
  pair|pair_default)
    # A program that shares nothing never connects: no server, no socket, no lock file.
    (unset NPUSIM_SESSION; timeout 60 "${peer_bin}" local "${work}" >"${work}/local.log" 2>&1) ||
      fail "the local program failed"
    grep -q "^local: done" "${work}/local.log" || fail "the local program did not finish"
    ls "${sessions}"/* >/dev/null 2>&1 &&
      fail "a program that shares nothing connected to a session"
    for run in 1 2; do
      run_pair "run${run}" peer
      [[ ${owner_rc} -eq 0 && ${peer_rc} -eq 0 ]] || fail "run ${run}: exit codes ${owner_rc}/${peer_rc}"
      grep -q "^owner: sync=0 value=42$" "${work}/run${run}_owner.log" || fail "run ${run}: the owner did not read 42"
      grep -q "^peer: import before the whitelist: 207006$" "${work}/run${run}_peer.log" ||
        fail "run ${run}: an import before the whitelist was not refused with 207006"
      grep -q "^owner: done$" "${work}/run${run}_owner.log" || fail "run ${run}: owner unfinished"
      grep -q "^peer: done$" "${work}/run${run}_peer.log" || fail "run ${run}: peer unfinished"
    done
    grep -q "^peer: physical memory reads 0x07070707$" "${work}/run1_peer.log" ||
      fail "the peer did not read the owner's physical allocation"
    # The peer's wait for the IPC event ends at or after the owner's record (simulated time).
    ev=$(sed -n 's/^owner: event recorded at \([0-9]*\) us$/\1/p' "${work}/run1_owner.log")
    waited=$(sed -n 's/^peer: event wait passed at \([0-9]*\) us$/\1/p' "${work}/run1_peer.log")
    [[ -n "${ev}" && -n "${waited}" && ${waited} -ge ${ev} ]] ||
      fail "the peer's event wait passed at ${waited} us, before the owner's record at ${ev} us"
    # The owner's wait ends at the peer's record (simulated time), not before it.
    rec=$(sed -n 's/^peer: recorded at \([0-9]*\) us$/\1/p' "${work}/run1_peer.log")
    passed=$(sed -n 's/^owner: notify passed at \([0-9]*\) us$/\1/p' "${work}/run1_owner.log")
    [[ -n "${rec}" && -n "${passed}" ]] || fail "missing times"
    [[ ${passed} -ge ${rec} ]] || fail "the owner went on at ${passed} us, before the peer's record at ${rec} us"
    for p in npusim_ipc_peer-owner-files npusim_ipc_peer-peer-files; do
      a="${work}/run1/out/${p}/timeline.json"
      b="${work}/run2/out/${p}/timeline.json"
      [[ -s "${a}" ]] || fail "no timeline ${a}"
      cmp -s "${a}" "${b}" || fail "the timelines of ${p} differ between two runs"
    done
    grep -q "IPC_NOTIFY_RECORD" "${work}/run1/out/npusim_ipc_peer-owner-files/timeline.json" ||
      fail "the owner's timeline does not show the peer's record"
    # One view of the session: both processes' tracks, named after their directories.
    "${npusim}" merge -o "${work}/merged" "${work}/run1/out/npusim_ipc_peer-owner-files" \
      "${work}/run1/out/npusim_ipc_peer-peer-files" >/dev/null || fail "npusim merge failed"
    "${npusim}" merge -o "${work}/bad" "${work}/nowhere" 2>"${work}/merge_err.txt" &&
      fail "npusim merge accepted a missing directory"
    grep -q "nowhere: cannot open" "${work}/merge_err.txt" || fail "unclear merge error"
    python3 - "${work}" <<'PY' || fail "the merged timeline is wrong"
import json, sys
w = sys.argv[1]
merged = json.load(open(w + "/merged/timeline.json"))
parts = [json.load(open(w + "/run1/out/npusim_ipc_peer-" + r + "-files/timeline.json")) for r in ("owner", "peer")]
assert len(merged) == sum(len(p) for p in parts), "events lost or added"
names = [e["args"]["name"] for e in merged if e.get("ph") == "M" and e.get("name") == "process_name"]
assert any(n.startswith("npusim_ipc_peer-owner-files: ") for n in names), names
assert any(n.startswith("npusim_ipc_peer-peer-files: ") for n in names), names
pids = {}
for e in merged:
    if e.get("ph") == "M" and e.get("name") == "process_name":
        assert e["pid"] not in pids, "two processes share a pid"
        pids[e["pid"]] = e["args"]["name"]
PY
    cmp -s "${work}/run1_owner.log" "${work}/run2_owner.log" || fail "the owner's output differs between runs"
    echo "PASS: values, whitelist error, identical timelines (owner's event at ${ev} us, the peer's wait passed at ${waited} us; the peer's notify at ${rec} us, the owner's wait passed at ${passed} us)"
    ;;
  kill)
    start=$(date +%s)
    run_pair "kill" victim
    took=$(( $(date +%s) - start ))
    [[ ${peer_rc} -eq 137 || ${peer_rc} -eq 9 ]] || fail "the victim was not killed (exit ${peer_rc})"
    [[ ${owner_rc} -eq 0 ]] || fail "the owner did not finish normally (exit ${owner_rc})"
    grep -q "^owner: sync=507046 value=-1$" "${work}/kill_owner.log" ||
      fail "the owner's wait did not end with 507046"
    grep -q "ended without cleaning up" "${work}/kill_owner.log" || fail "the owner was not told the peer died"
    grep -q "^owner: done$" "${work}/kill_owner.log" || fail "the owner did not finish"
    grep -q "lost" "${work}/serve.log" || fail "the server did not notice the lost client"
    echo "PASS: the victim died, the owner finished with 507046 in ${took} s, the server left"
    ;;
  server_kill)
    export NPUSIM_SESSION="npusim-test-$$-sk"
    d="${work}/server_kill"
    mkdir -p "${d}"
    timeout 60 "${peer_bin}" orphan "${d}" >"${work}/orphan.log" 2>&1 &
    a=$!
    for _ in $(seq 1 400); do [[ -e "${d}/ready" ]] && break; sleep 0.05; done
    [[ -e "${d}/ready" ]] || fail "the client did not connect"
    # The server of this test's own session (its name is unique to this run).
    server=$(pgrep -f "serve --session ${NPUSIM_SESSION}\$")
    [[ -n "${server}" ]] || fail "no server runs for ${NPUSIM_SESSION}"
    kill -KILL ${server}
    touch "${d}/killed"
    wait "${a}"
    rc=$?
    [[ ${rc} -eq 0 ]] || fail "the client did not finish (exit ${rc}; 124: it hung)"
    line=$(grep "^orphan: sync=" "${work}/orphan.log")
    [[ "${line}" =~ ^orphan:\ sync=507046\ destroy=(0|507000)\ in\ ([0-9]+)\ ms$ ]] ||
      fail "unexpected results: ${line}"
    (( BASH_REMATCH[2] < 5000 )) || fail "the destroy took ${BASH_REMATCH[2]} ms"
    grep -q "^orphan: done$" "${work}/orphan.log" || fail "the client did not finish"
    echo "PASS: ${line}"
    ;;
  *)
    echo "unknown mode ${mode}" >&2
    exit 2
    ;;
esac
