// SPDX-License-Identifier: Apache-2.0
// op_profile.json: the AI Core kernel launches of a run with their per-block profiles
// (block_profile.h), what `msprof op` / `msopprof` (tools/opprof) turns into msprof's per-kernel
// CSV files. The runtime writes it into $NPUSIM_OP_PROFILE_DIR (runtime/backend/sim_backend.cpp).
// Plain C++.
//
// Layout (times in ps, bytes, cycles of the AI Core clock):
//   {"format": "npusim-op-profile", "version": 1, "soc": ..., "frequency_hz": ...,
//    "cube_cores": ..., "vector_cores": ..., "coupled": bool,
//    "kernels": [ one per launch with blocks, by (device, start, stream, task id):
//      {"launch": 0.., "name", "op_type", "task_type", "device", "stream", "task_id",
//       "block_dim", "mix_block_dim", "start_ps", "end_ps", "error",
//       "blocks": [ per block and core, in completion order:
//         {"block", "core", "vector", "start_ps", "end_ps",
//          "busy_ps": {pipe: ps}, "instrs": {pipe: n}        pipes S V M MTE1 MTE2 MTE3 FIXP
//          "l2": {pipe: [read_hit, read_miss, write_hit, write_miss]},
//          "moved": {"GM->UB": bytes, ...}, "read": {mem: bytes}, "written": {mem: bytes},
//          "cube_cycles"/"vec_cycles"/"cube_instrs"/"vec_instrs": {dtype: n},
//          "cube_fops", "vec_fops", "vec_ub_read", "vec_ub_write", "scalar_ub_read",
//          "scalar_ub_write"} ]} ]}
// Zero entries of the maps are left out. dtype names: bool int8 uint8 int16 uint16 int32 uint32
// int64 uint64 fp16 bf16 fp32 fp64 (unknown: "other").
#pragma once

#include <string>
#include <vector>

#include "models/aicore/op_summary.h"

namespace npusim::models {

struct OpProfileParams {
  std::string soc;
  double frequency_hz = 1e9;
  std::int64_t cube_cores = 1;
  std::int64_t vector_cores = 0;
  bool coupled = false;
};

/// The element type's key in op_profile.json.
const char* dtype_key(ascendc::DType t);

/// op_profile.json of the records that have blocks (AI Core kernels), with '\n' at the end.
std::string op_profile_json(std::vector<KernelRecord> records, const OpProfileParams& params);

}  // namespace npusim::models
