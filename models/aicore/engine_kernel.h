// SPDX-License-Identifier: Apache-2.0
// What the AI Core engine (aicore_engine.h) keeps of each kernel it accepted, shared with its
// policies (policy/): dispatch order and preemption mechanism read it. Not a public interface.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <list>
#include <memory>

#include "models/aicore/ai_core.h"
#include "models/aicore/op_summary.h"
#include "models/engine.h"
#include "models/kernel_work.h"

namespace npusim::models {

/// A preempted block waiting to run again (checkpoint: its remaining trace and context; kill:
/// its whole trace), or block 0 run ahead (prema's prediction, or a kernel of unknown type).
struct ParkedBlock {
  std::uint32_t block = 0;
  ascendc::BlockTrace trace;
  std::uint64_t restore_bytes = 0;
  int error = 0;           // run_block's result (block 0 run ahead)
  bool preempted = false;  // false: block 0 run ahead, never dispatched yet
};

struct AicoreKernel {
  EngineJob* job = nullptr;
  JobSink* sink = nullptr;
  std::shared_ptr<const KernelWork> work;
  CoreType type = CoreType::kAiv;       // work's, or what block 0 used (!core_type_known)
  const char* type_name = "AI_CORE";    // msprof's task type of `type` on this chip
  std::array<std::uint32_t, 2> need{};  // cores per block from pool 0 (AIC / AI Core), 1 (AIV)
  int pool = 0;                         // the pool of the core that replays the block
  std::uint32_t priority = 0;           // the dispatch policy's (0 = highest; 0 for all: fifo)
  std::uint32_t cap = 1;                // blocks running at once
  std::uint32_t next_block = 0;
  std::uint32_t running = 0;
  bool ready = false, started = false, failed = false;
  int error = 0;
  std::deque<ParkedBlock> parked;  // dispatched before next_block
  SimTime ready_at = 0;
  SimTime predicted = 0;      // isolated time (0: not known yet)
  SimTime block_time = 0;     // a block's predicted time (dynamic preemption)
  bool preempted_others = false;
  bool latency_pending = false;  // preempted for; its next dispatched block is the sample
  double tokens = 0;          // prema
  SimTime token_at = 0;
  std::uint64_t seq = 0;      // arrival order
  int opsim = -1;             // the op simulator's launch id (-1: not recorded)
  KernelRecord rec;
  std::list<AicoreKernel>::iterator self;
};

/// Blocks of `k` not running yet: parked ones and those never dispatched.
inline std::uint32_t waiting_blocks(const AicoreKernel& k) {
  return static_cast<std::uint32_t>(k.parked.size()) +
         (k.work && k.next_block < k.work->block_dim ? k.work->block_dim - k.next_block : 0);
}

/// Whether `k` is ready and has blocks waiting for cores.
inline bool wants_cores(const AicoreKernel& k) {
  return k.ready && !k.failed && waiting_blocks(k) > 0;
}

}  // namespace npusim::models
