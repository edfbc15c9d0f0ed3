// SPDX-License-Identifier: Apache-2.0
// The AI CPU: aicpu.cores ARM cores that run AI CPU kernels (CANN routes operators without an AI
// Core kernel, control-heavy and int64 index operators and user AI CPU kernels there).
//
// Timing model: each core runs one task at a time; a task waits in the scheduler while every
// core is busy (the lowest free core takes the next). When a task starts on a core the kernel
// runs functionally on the host (AiCpuWork::run_block, block 0 .. block_dim-1 one after another
// on that core) and reports its counted work: B basic blocks of instrumented kernel code and
// M bytes of device memory it read or wrote. Its time on the core is then computed once:
//   aicpu.task_start + (ceil(B * aicpu.instructions_per_bb / aicpu.ipc)
//                       + ceil(M / aicpu.hbm_bytes_per_cycle)) cycles of aicpu.clock
// (an in-order core: memory time adds to compute time) and the core sleeps through it in one
// wait. Host wall time never enters. The figures of the presets are assumptions (configs/).
//
// Timeline: one track per core ("AI CPU core <n>"), one span per task. op_summary.csv: one row
// per task with Task Type AI_CPU (keep_records). Stats (chip<N>.aicpu): tasks, busy_time,
// basic_blocks, bytes, and per core core<n>.tasks / core<n>.busy_time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/aicore/op_summary.h"
#include "models/aicpu_config.h"
#include "models/aicpu_work.h"
#include "models/channel_engine.h"
#include "models/unit.h"

namespace npusim::models {

/// Claims kAiCpu (every direction) as "aicpu" when aicpu.cores > 0.
class AiCpu : public ChannelEngine, public Unit {
 public:
  AiCpu(const sc_core::sc_module_name& name, UnitContext& ctx);

  const char* task_type(const Task&) const override { return "AI_CPU"; }

  /// The time a task with this much work occupies a core (the formula above).
  sim::SimTime duration(const AiCpuCount& count) const;

  /// Keep a record of every finished task for op_summary.csv (off by default).
  void keep_records(bool on) override { keep_records_ = on; }
  void append_records(std::vector<KernelRecord>& out) const override {
    out.insert(out.end(), records_.begin(), records_.end());
  }
  const std::vector<KernelRecord>& records() const { return records_; }

 protected:
  std::optional<sim::SimTime> resume(EngineJob& job, sim::SimTime now) override;
  std::size_t span_args(const EngineJob& job, sim::TraceField* args) const override;

 private:
  struct Core {
    bool running = false;  // the task's work is computed; the next resume() ends it
    AiCpuCount count;
    int error = 0;
    std::uint64_t tasks = 0;
    std::uint64_t busy_time = 0;  // ps
  };
  void run_blocks(Core& core, const AiCpuWork* work);
  void fail(Task& task, int error);
  void record(const EngineJob& job, const AiCpuWork* work, const Core& core, sim::SimTime now);

  std::uint32_t device_;
  sim::SimTime task_start_;
  sim::Frequency clock_;
  double ipc_;
  double instructions_per_bb_;
  double bytes_per_cycle_;
  sim::SimTime completion_;
  std::vector<std::unique_ptr<Core>> cores_;  // stable addresses (stats refer to them)
  std::uint64_t basic_blocks_ = 0;
  std::uint64_t failed_ = 0;
  bool keep_records_ = false;
  std::vector<KernelRecord> records_;
};

}  // namespace npusim::models
