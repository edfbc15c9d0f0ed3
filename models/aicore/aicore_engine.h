// SPDX-License-Identifier: Apache-2.0
// The AI Core engine: the unit that claims kKernel tasks ("aicore"). Owns the chip's AI Cores, splits each
// kernel into blocks and dispatches them to free cores; records each kernel for op_summary.csv.
//
// Timing model:
//  - Cores: split chips (npusim/chip_arch.h) have aicore.cube_cores AIC and aicore.vector_cores
//    AIV cores; coupled chips have aicore.cube_cores AI Cores with every pipe
//    (310P's separate Vector Cores are not used). A block needs one AIC (kAic), one AIV (kAiv;
//    an AIC when the chip has no AIV), one AI Core (coupled), or for kMix one AIC plus
//    vector_cores / cube_cores AIVs.
//  - Admission: a kernel task is accepted while fewer than aicore.max_concurrent_kernels are in
//    the engine; kernels of different streams share the cores. Its blocks may start
//    aicore.kernel_launch after it is received (tasks without KernelWork just take
//    scheduler.sync_task).
//  - Dispatch (at every kernel arrival and block end, same simulated time): kernels by stream
//    priority (0 first; with scheduler.policy=fifo all equal), then in arrival order, as CANN
//    dispatches pending tasks of higher-priority streams first; each takes the lowest-numbered
//    free cores of its kind, block 0, 1, 2... while it has fewer than min(max_cores, cores of its
//    kind) blocks running; blocks beyond the free cores run in waves. A kernel still waiting for
//    cores of a kind keeps the kernels after it in that order off that kind (no overtaking: a
//    high-priority kernel gets the next free cores, a pending low-priority one never delays it).
//    batch_mode: the kernel starts only when min(block_dim, cap) blocks can start at once. No
//    preemption: running blocks always finish.
//  - A dispatched block runs functionally (KernelWork::run_block) at once, then the core replays
//    its trace from dispatch + aicore.block_launch (ai_core.h). An error stops further blocks;
//    the task ends with the first error once its running blocks end.
//  - The kernel's engine work ends when its last block ends; the scheduler reports completion
//    scheduler.completion later.
// Run_block is called from this module's SC_METHOD (the simulation's main stack, not a core's
// coroutine stack), so kernel code may use deep stacks.
// Records for op_summary.csv are kept only after keep_records(true) (the runtime asks for them
// when it writes outputs): with outputs off a launch leaves nothing behind in the engine.
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <queue>
#include <vector>

#include <systemc>

#include "models/aicore/ai_core.h"
#include "models/aicore/op_summary.h"
#include "models/aicore/pipe_costs.h"
#include "models/chip_config.h"
#include "models/kernel_work.h"
#include "models/unit.h"
#include "sim/stats.h"

namespace npusim::models {

class L2Cache;

class AiCoreEngine : public sc_core::sc_module, public TaskEngine, public CoreSink, public Unit {
 public:
  /// Binds every core's GM socket to ctx.l2.
  AiCoreEngine(const sc_core::sc_module_name& name, UnitContext& ctx);

  /// msprof's compute task types: AI_VECTOR_CORE (AIV blocks), MIX_AIC, AI_CORE (AIC blocks, or
  /// any block on coupled chips).
  const char* task_type(const Task& task) const override;

  bool has_free_channel() const override;
  void start(EngineJob& job, SimTime delay, JobSink& sink) override;

  /// Keep a KernelRecord of every kernel that finishes from now on (off by default: the records
  /// grow with every launch and only op_summary.csv reads them).
  void keep_records(bool on) { keep_records_ = on; }
  /// Every kernel finished while records were kept, in completion order.
  const std::vector<KernelRecord>& records() const { return records_; }
  bool coupled() const { return coupled_; }
  std::size_t core_count() const { return cores_.size(); }

 private:
  struct Kernel {
    EngineJob* job = nullptr;
    JobSink* sink = nullptr;
    std::shared_ptr<const KernelWork> work;
    std::array<std::uint32_t, 2> need{};  // cores per block from pool 0 (AIC / AI Core), 1 (AIV)
    int pool = 0;                         // the pool of the core that replays the block
    std::uint32_t priority = 0;           // the stream's (0 = highest; 0 for all under fifo)
    std::uint32_t cap = 1;                // blocks running at once
    std::uint32_t next_block = 0;
    std::uint32_t running = 0;
    bool ready = false, started = false, failed = false;
    int error = 0;
    KernelRecord rec;
    std::list<Kernel>::iterator self;
  };
  struct Slot {
    Kernel* kernel = nullptr;
    std::vector<int> partners;
  };
  struct Arrival {
    SimTime at;
    std::uint64_t seq;
    Kernel* kernel;
    bool operator>(const Arrival& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  void build_cores(const ChipConfig& cfg, sim::TrackGroup& tracks, sim::StatGroup& stats);
  void plan(Kernel& k) const;
  void on_wake();
  void dispatch();
  std::uint32_t free_blocks(const Kernel& k) const;
  int take_core(int pool);
  void assign(Kernel& k);
  int run_block(Kernel& k, std::uint32_t block, kernel::BlockTrace& trace);
  void block_finished(AiCore& core) override;
  void account(Kernel& k, AiCore& core, const Slot& slot);
  void finish(Kernel& k);
  void register_stats(sim::StatGroup& stats);

  std::uint32_t device_;
  bool coupled_;
  PipeCosts costs_;
  SimTime kernel_launch_, block_launch_, sync_task_, completion_;
  std::size_t max_kernels_;
  std::array<int, 2> pool_begin_{}, pool_size_{}, free_{};
  std::vector<std::unique_ptr<AiCore>> cores_;
  std::vector<bool> busy_;
  std::vector<Slot> slots_;
  std::list<Kernel> kernels_;  // dispatch order: by priority, then arrival
  bool by_priority_ = true;
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> arrivals_;
  sc_core::sc_event wake_;
  std::uint64_t seq_ = 0;
  bool keep_records_ = false;
  std::vector<KernelRecord> records_;

  std::uint64_t kernels_done_ = 0, failed_ = 0, blocks_ = 0, instrs_ = 0;
};

}  // namespace npusim::models
