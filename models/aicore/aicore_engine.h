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
//    batch_mode: the kernel starts only when min(block_dim, cap) blocks can start at once.
//  - scheduler.policy=prema (PREMA, Choi & Rhu, HPCA 2020) replaces the priority order by PREMA's
//    selection. What is implemented: each kernel has a weight w = 8 - priority (priority 0..7, so
//    8 = highest; PREMA's priority levels) and starts with w tokens. At every dispatch, each
//    kernel with blocks still waiting for cores gains w x (time since its last update) /
//    (its predicted isolated time) tokens (PREMA's slowdown-weighted accrual). The threshold is
//    the largest weight among the waiting kernels that is <= the largest token count; kernels
//    with tokens >= threshold are candidates and go first, shortest predicted remaining time
//    first (PREMA's shortest-estimated-job among candidates); the others follow by tokens, then
//    arrival. Predicted isolated time (also the isolated time of ANTT/STP): kernel_launch +
//    max(waves x (block_launch + block 0's replay without contention: every GM access costs only
//    its latency, the core's own MTE rates still apply), block_launch + block_dim x block 0's GM
//    bytes / hbm.bandwidth), waves = ceil(block_dim / cap): the pipe model of one block and the
//    memory roofline of all of them, which ignores only L2 hits and HBM latency. Under prema
//    block 0 runs functionally when the kernel becomes ready (to have its trace to predict from);
//    otherwise when it is dispatched. PREMA's dynamic choice of the preemption mechanism is
//    scheduler.preemption=dynamic (below; it works under any policy). Not implemented: SLA targets.
//  - Preemption (scheduler.preemption != none): at every dispatch, a kernel H with blocks
//    waiting for cores of a kind takes cores from running blocks of kernels V at least
//    scheduler.preempt_threshold priority levels below it (lowest priority first, then the
//    latest arrival, then the highest-numbered core), as many as H's waiting blocks (up to its
//    cap) need beyond the free and already-yielding cores. Under prema H must also be ahead of V
//    in PREMA's order. drain: V's running blocks finish (its further blocks already wait behind H,
//    as with none); the preemption is only recorded. checkpoint: the block stops at once (its
//    started instructions drain), writes its context (aicore.context_bytes, or when 0 the block's
//    used local buffer bytes, BlockTrace::local_bytes) to GM through L2/HBM and frees its cores;
//    it is later re-dispatched (block_launch), reads its context back and replays the rest of
//    its trace. kill: the block's cores are free at once; it is re-dispatched later and replays
//    its whole trace again. dynamic (PREMA's choice of mechanism, per victim block): drain when
//    the block's predicted remaining time (its predicted time — block 0's isolated replay, or
//    when longer its wave's share of the kernel's memory roofline — minus the time since its
//    first issue slot) is at most the checkpoint's predicted cost (block_launch + saving and
//    restoring the context at hbm.bandwidth), else checkpoint. Preempted blocks of a kernel are
//    dispatched before its new blocks.
//  - Functional results do not depend on any of this: a block runs functionally once, at its
//    first dispatch; a resumed or re-run block replays the trace that run recorded (the same
//    bytes, only later).
//  - Measured (stats, per stream under aicore.streams.s<id>): preemptions a stream's kernels
//    caused and suffered; preemption latency (a preempting kernel's readiness, kernel_launch after
//    its receipt, to the first issue slot of the first block it dispatched after asking) and
//    start latency (the same for every kernel: readiness to its first block's first issue slot)
//    as count/p50/p99/max (sim::Distribution: exact up to 4096 samples, then within 1/64);
//    saved and restored bytes, save and restore time, killed work (execution discarded by kill),
//    preempted blocks dispatched again (each pays block_launch again);
//    its first kernel's receipt and last block end; ANTT / STP over streams (PREMA's metrics: per
//    stream, normalized turnaround = sum of its kernels' engine times, receipt to last block end,
//    / sum of their predicted isolated times; ANTT = the mean over streams, STP = the sum of the
//    inverses). The timeline marks "preempt (drain pipes)", "save context", "restore context",
//    "preempt (kill)" and, under drain, "preempt (drain)" spans on the core tracks; a preempted
//    block's span ends at the preemption and carries the arg "preempted".
//    Under policy=fifo every kernel has the same priority, so nothing is ever preempted.
// Policies: the dispatch order (scheduler.policy) and the preemption mechanism
// (scheduler.preemption) are small interfaces with one file per implementation, chosen by name
// (policy/dispatch_policy.h, policy/preemption.h, policy/registry.cpp); the engine dispatches.
// Run_block is called from this module's SC_METHOD (the simulation's main stack, not a core's
// coroutine stack), so kernel code may use deep stacks.
// Records for op_summary.csv are kept only after keep_records(true) (the runtime asks for them
// when it writes outputs): with outputs off a launch leaves nothing behind in the engine.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <queue>
#include <tuple>
#include <vector>

#include <systemc>

#include "models/aicore/ai_core.h"
#include "models/aicore/engine_kernel.h"
#include "models/aicore/op_summary.h"
#include "models/aicore/pipe_costs.h"
#include "models/aicore/policy/dispatch_policy.h"
#include "models/aicore/policy/preemption.h"
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
  void keep_records(bool on) override { keep_records_ = on; }
  /// Also keep KernelRecord::blocks (block_profile.h) of every block that finishes while `on`
  /// (with keep_records: costs one pass over each finished block's trace).
  void keep_block_profiles(bool on) override { keep_profiles_ = on; }
  void append_records(std::vector<KernelRecord>& out) const override {
    out.insert(out.end(), records_.begin(), records_.end());
  }
  /// Every kernel finished while records were kept, in completion order.
  const std::vector<KernelRecord>& records() const { return records_; }
  bool coupled() const { return coupled_; }
  std::size_t core_count() const { return cores_.size(); }

 private:
  using Parked = ParkedBlock;
  using Kernel = AicoreKernel;
  /// Per-stream preemption measurements (aicore.streams.s<id>).
  struct StreamStats {
    std::uint64_t kernels = 0, caused = 0, suffered = 0, saved_bytes = 0, restored_bytes = 0;
    std::uint64_t save_time = 0, restore_time = 0, killed_time = 0, redispatched = 0;
    sim::Distribution latency;  // ps, per preempting kernel
    sim::Distribution start;    // ps, per kernel: readiness to first issue slot
    double iso = 0, turnaround = 0;      // ps, summed over its kernels with a prediction
    std::uint64_t first_received = 0, last_end = 0;  // ps: its first kernel's receipt, last end
  };
  struct Slot {
    Kernel* kernel = nullptr;
    std::vector<int> partners;
    bool yielding = false;  // asked to give its cores up (or, drain, counted on to)
    SimTime asked = 0;      // when it was asked
    bool drain = false;     // asked to drain (runs to its end) rather than to stop
  };
  struct Arrival {
    SimTime at;
    std::uint64_t seq;
    Kernel* kernel;
    bool operator>(const Arrival& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  void build_cores(const ChipConfig& cfg, sim::TrackGroup& tracks, sim::StatGroup& stats);
  /// The dispatch order: kernels_ (priority, arrival) as the dispatch policy reorders it.
  const std::vector<Kernel*>& order();
  void preempt_for(Kernel& h, const std::vector<Kernel*>& order);
  /// The slot whose block to preempt for `h` (-1: none); `deficit`: cores h lacks, per pool.
  int pick_victim(const Kernel& h, const std::vector<Kernel*>& order,
                  const std::array<std::int64_t, 2>& deficit) const;
  /// Asks slot `index`'s block to give its cores up for `h`.
  void preempt_slot(Kernel& h, int index, std::array<std::int64_t, 2>& deficit);
  void predict(Kernel& k, const ascendc::BlockTrace& block0);
  StreamStats& stream_stats(std::uint32_t stream);
  static void add_stream_counts(sim::StatGroup& g, StreamStats& st);
  static void add_stream_latencies(sim::StatGroup& g, StreamStats& st);
  static void add_stream_context_costs(sim::StatGroup& g, StreamStats& st);
  void register_latency_stats(sim::StatGroup& stats);
  void register_fairness_stats(sim::StatGroup& stats);
  double antt() const;
  double stp() const;
  void register_pipe_stats(sim::StatGroup& pipes);
  void release_slot(Kernel& k, AiCore& core, Slot& slot);
  void plan(Kernel& k) const;
  void on_wake();
  void dispatch();
  std::uint32_t free_blocks(const Kernel& k) const;
  int take_core(int pool);
  int claim_slot(Kernel& k);
  int take_next_block(Kernel& k, AiCore& core, BlockJob& job);
  void assign(Kernel& k);
  static void fail(Kernel& k, int error);
  void note_start_latency(Kernel& k, SimTime start, bool first);
  int run_block(Kernel& k, std::uint32_t block, ascendc::BlockTrace& trace);
  void block_finished(AiCore& core) override;
  void block_preempted(AiCore& core) override;
  SimTime sync_end(const AiCore& core, std::uint32_t block, std::uint32_t instr) override;
  void sync_set(AiCore& core, std::uint32_t instr, SimTime end) override;
  void forget_syncs(const Kernel& k);
  void charge_preempted(Kernel& k, AiCore& core, const Slot& slot, StreamStats& st, Parked& back);
  void trace_preempted(const Kernel& k, AiCore& core, const Slot& slot);
  void account(Kernel& k, AiCore& core, const Slot& slot);
  /// The finished block's profiles (KernelRecord::blocks) of `core` and its MIX partner.
  void profile_block(Kernel& k, AiCore& core, const Slot& slot);
  /// Pipe busy time of one block segment to the core (and a MIX block's AIV partner) and, when
  /// `record`, to the kernel's op_summary record (`block`: count it as a block there).
  void charge(Kernel& k, AiCore& core, const Slot& slot,
              const std::array<SimTime, kLaneCount>& lanes, SimTime executed, bool record,
              bool block);
  void finish(Kernel& k);
  void register_stats(sim::StatGroup& stats);

  std::uint32_t device_;
  std::unique_ptr<DispatchPolicy> policy_;           // scheduler.policy
  std::unique_ptr<PreemptionMechanism> preemption_;  // scheduler.preemption
  std::uint32_t threshold_ = 1;
  std::uint64_t context_bytes_ = 0;
  std::array<int, 2> incoming_{};  // cores of yielding slots, per pool
  std::unique_ptr<BlockReplay> predictor_;
  OpSimulator* opsim_ = nullptr;  // the process's op simulator recorder (nullptr: off)
  double hbm_bandwidth_ = 1;  // B/s
  sim::StatGroup* streams_group_ = nullptr;
  std::map<std::uint32_t, StreamStats> streams_;
  std::uint64_t preemptions_ = 0;
  bool coupled_;
  PipeCosts costs_;
  SimTime kernel_launch_, block_launch_, sync_task_, completion_;
  std::size_t max_kernels_;
  std::array<int, 2> pool_begin_{}, pool_size_{}, free_{};
  std::vector<std::unique_ptr<AiCore>> cores_;
  std::vector<bool> busy_;
  std::vector<Slot> slots_;
  std::list<Kernel> kernels_;  // dispatch order: by priority, then arrival
  std::vector<Kernel*> order_;  // order()'s result (kept: no allocation per dispatch)
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> arrivals_;
  sc_core::sc_event wake_;
  std::uint64_t seq_ = 0;
  bool keep_records_ = false;
  bool keep_profiles_ = false;
  std::vector<KernelRecord> records_;
  /// Ends of the kSyncSet instructions of running kernels' blocks: (kernel, block, instr) -> end
  /// (aicore_engine_sync.cpp).
  std::map<std::tuple<const Kernel*, std::uint32_t, std::uint32_t>, SimTime> sync_ends_;

  std::uint64_t kernels_done_ = 0, failed_ = 0, blocks_ = 0, instrs_ = 0;
};

}  // namespace npusim::models
