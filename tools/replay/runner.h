// SPDX-License-Identifier: Apache-2.0
// `npusim replay`: runs a workload trace (tools/replay/trace.h) as an ordinary ACL program in
// this process: aclInit (the chip configuration comes from NPUSIM_CONFIG / NPUSIM_SET /
// NPUSIM_OUT, which the CLI sets), device memory for every tensor (views share their base's),
// inputs and weights filled deterministically (seeded), then every op through its aclnn
// two-phase call (tools/replay/op_table.h), workspaces from aclrtMalloc.
//
// Ordering: by default ops are issued asynchronously on their streams; where an op reads or
// writes memory an op of another stream wrote or read before it (per allocation, views
// included), the earlier op records an event the later op's stream waits for; orderings already
// implied by earlier waits add none (vector clocks). --sync-per-op synchronizes each op's stream
// after it instead. The simulated end-to-end time is the elapsed time between an event recorded
// on stream 0 before the first op (the other streams wait for it) and one after every stream
// joined stream 0 — simulated time only; the wall time is reported beside it.
//
// Ops whose aclnn functions (or aclCreateIntArray / aclCreateScalar when the op needs them) are
// not in the library, and CSV rows without an entry, are reported by name with their count:
// skipped, or with --strict nothing runs (exit 2). An op whose operator refuses its arguments
// in phase 1 (nothing queued) is counted by type and the run goes on (--strict: stops, exit 1).
// Exit codes: 0 success, 1 an op or a check failed (or a --dump file could not be written), 2 a
// bad trace or configuration, a --dump directory that cannot take files (checked before the
// run), or --strict with unsupported ops.
#ifndef NPUSIM_TOOLS_REPLAY_RUNNER_H_
#define NPUSIM_TOOLS_REPLAY_RUNNER_H_

#include <map>
#include <set>
#include <string>

namespace npusim::replay {

struct Options {
  std::string trace;
  std::map<std::string, std::string> params;  // --param k=v (YAML traces)
  std::string out_dir;                        // "" = no outputs (NPUSIM_OUT is set by the CLI)
  std::string dump_dir;                       // --dump: role-output tensors as raw .bin files
  bool sync_per_op = false;
  bool strict = false;
  std::set<std::string> skip_ops;  // --skip-op: op types not run (reported as such)
  int repeat = 1;
  /// The chip runs timing-only (aicore.functional=false): kernels compute nothing, so the values
  /// of floating-point inputs cannot matter; they are not generated (zeros are copied in, at the
  /// same simulated cost). Integer tensors (indices, which may steer addresses) still are.
  bool timing_only = false;
};

int run_replay(const Options& options);

}  // namespace npusim::replay

#endif  // NPUSIM_TOOLS_REPLAY_RUNNER_H_
