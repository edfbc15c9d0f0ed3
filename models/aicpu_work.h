// SPDX-License-Identifier: Apache-2.0
// The device-side description of one AI CPU kernel launch (a kAiCpu task), as the runtime hands
// it to the AI CPU unit (models/aicpu.h). Plain C++.
//
// At the simulated moment the task starts on an AI CPU core the unit calls run_block(b, count)
// for b = 0 .. block_dim-1, in order: the runtime runs the kernel functionally on the host and
// fills `count` with the work it did (basic blocks executed, bytes of device memory touched). The
// unit turns the counts into simulated time at the aicpu.* rates. Called on the simulation host
// thread, never concurrently; must not call back into the backend.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "models/op_info.h"

namespace npusim::models {

/// What one run of an AI CPU kernel did.
struct AiCpuCount {
  std::uint64_t basic_blocks = 0;  // basic blocks of instrumented kernel code executed
  std::uint64_t bytes = 0;         // bytes of device memory the kernel read or wrote
};

struct AiCpuWork {
  std::string name;             // kernel name (timeline span; op_summary "Op Name" if no info)
  std::string op_type;          // op_summary "OP Type" (empty = name)
  OpInfo info;                  // op_summary "Op Name" and tensors (models/op_info.h)
  std::uint32_t block_dim = 1;  // runs of the kernel, one after another on the task's core
  /// Runs block `block` functionally and adds its work to `count`. Returns 0 or an aclError
  /// (ACL_ERROR_RT_AICPU_EXCEPTION, ACL_ERROR_RT_AICPU_TIMEOUT...); after an error no further
  /// block runs and the task ends with it.
  std::function<int(std::uint32_t block, AiCpuCount& count)> run_block;
};

}  // namespace npusim::models
