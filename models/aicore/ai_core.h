// SPDX-License-Identifier: Apache-2.0
// One AI Core (an AIC cube core, an AIV vector core, or a coupled AI Core with all pipes): replays
// the instruction trace of the block the engine hands it.
//
// Timing model: BlockReplay (block_replay.h) from the block's first issue slot (dispatch +
// aicore.block_launch); the core's SC_METHOD (no thread: it runs on the simulation's stack)
// sleeps only until each GM instruction's start (so its L2/HBM reservation happens at its
// simulated start, in time order with every other initiator) and once until the block's end,
// then reports to the engine. GM traffic goes
// out of the `mem` socket (LT b_transport, annotated delay) to L2. Busy time per pipe is
// accounted by the engine (account()), which knows how a MIX block splits over AIC and AIV.
// Preemption (preempt(), asked by the engine at simulated time P): the core wakes at P (its
// waits are "until t or a preemption"), brings the replay up to P and cuts it there
// (BlockReplay::cut: instructions that started by P run to their end D, the rest becomes the
// block's remaining trace). checkpoint: from D the core writes its context (BlockJob-independent
// byte count given by the engine) to GM through `mem` (L2/HBM at their modelled bandwidth) and
// is free when the write completes; kill: the core is free at P and the block's work is lost.
// A resumed block (BlockJob::restore_bytes > 0) first reads its context back at its first issue
// slot, and replays its remaining trace from the read's completion. No per-cycle loop: every
// phase is one timed wait. A replay waiting for another block's kSyncSet (a cross-block wait)
// sleeps until poke() or its watchdog: a wait no block ever satisfies ends as a timeout.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/aicore/block_profile.h"
#include "models/aicore/block_replay.h"
#include "models/aicore/op_simulator.h"
#include "models/aicore/pipe_costs.h"
#include "models/l2_cache.h"
#include "npusim/ascendc/trace.h"
#include "sim/stats.h"
#include "sim/tracks.h"

namespace npusim::models {

enum class CoreKind : std::uint8_t { kAic, kAiv, kCoupled };

class AiCore;

/// A block on its way through a core.
struct BlockJob {
  std::uint32_t block = 0;
  std::uint32_t task_id = 0;  // the kernel task's (timeline args)
  SimTime dispatched = 0;     // the engine gave it the core
  SimTime start = 0;          // first issue slot (dispatched + block_launch)
  AiCore* partner = nullptr;  // MIX on a split chip: the AIV core that runs the vector lanes
  std::uint64_t restore_bytes = 0;  // a checkpointed block: context read back before its replay
  int record = -1;  // the op simulator's launch id (op_simulator.h), -1: not recorded
};

/// How a running block gives up its core (scheduler.preemption).
enum class PreemptMode : std::uint8_t { kCheckpoint, kKill };

/// What a preempted block left behind (valid inside CoreSink::block_preempted).
struct PreemptResult {
  PreemptMode mode = PreemptMode::kKill;
  SimTime at = 0;                 // the preemption
  SimTime drained = 0;            // checkpoint: the started instructions' end (save starts)
  SimTime free = 0;               // the core is free (kill: at; checkpoint: save complete)
  SimTime restored = 0;           // a resumed block: when its context read completed (0: none)
  std::uint64_t saved_bytes = 0;  // checkpoint: context written
  BlockReplay::Cut cut;           // checkpoint: the instructions that ran; kill: none count
};

/// Where a core reports a finished block (the engine).
class CoreSink {
 public:
  virtual ~CoreSink() = default;
  /// Contract: called from the core's thread at the block's end; the core is idle again.
  virtual void block_finished(AiCore& core) = 0;
  /// Contract: called when a block preempt() stopped has given the core up (core.preempted());
  /// its remaining work is in core.trace_buffer() (checkpoint) or lost (kill).
  virtual void block_preempted(AiCore& core) = 0;
  /// Cross-block synchronisation (ReplayHost::block_dep_end / sync_set_end) of the block running
  /// on `core`: the end of instruction `instr` of block `block` of the same kernel (kNever: not
  /// known yet), and the end of the core's own kSyncSet `instr`. Defaults: nobody waits.
  virtual SimTime sync_end(const AiCore& core, std::uint32_t block, std::uint32_t instr) {
    return 0;
  }
  virtual void sync_set(AiCore& core, std::uint32_t instr, SimTime end) {}
};

/// Timeline tracks of a core (reserved, named when the core first runs a block): its own and,
/// when tracing pipes, one per pipe.
struct CoreTracks {
  sim::Track core;
  std::array<sim::Track, ascendc::kPipeCount> pipe;
  bool pipes = false;
};

class AiCore : public sc_core::sc_module, private ReplayHost {
 public:
  tlm_utils::simple_initiator_socket<AiCore> mem;

  /// A block that runs longer than `timeout` (from its first issue slot) is stopped there.
  AiCore(const sc_core::sc_module_name& name, int index, CoreKind kind, std::string label,
         const PipeCosts& costs, SimTime timeout, CoreTracks tracks, sim::StatGroup& stats,
         CoreSink& sink);
  ~AiCore() override { payload_.clear_extension(&access_); }

  int index() const { return index_; }
  CoreKind core_kind() const { return kind_; }
  const std::string& label() const { return label_; }  // "AIV 3"

  /// The buffer the engine fills (run_block) before assign().
  ascendc::BlockTrace& trace_buffer() { return trace_; }
  /// Contract: the core is idle; starts replaying trace_buffer() as `job`.
  void assign(const BlockJob& job);
  const BlockJob& job() const { return job_; }
  /// The last finished block's replay (valid inside CoreSink::block_finished).
  const ReplayResult& result() const { return *result_; }
  /// The last finished block's end (its replay's end, or start + timeout when the watchdog
  /// stopped it) and whether the watchdog did (valid inside CoreSink::block_finished).
  SimTime end() const { return end_; }
  bool timed_out() const { return timed_out_; }
  /// When the running block's context read completed (a resumed block; 0 otherwise).
  SimTime restored() const { return restored_; }
  /// The running block's first issue slot: job().start, or restored() for a resumed block.
  SimTime replay_start() const { return replay_start_; }

  /// Asks the running block to give up the core now (a no-op when idle or already yielding).
  /// checkpoint: it saves `save_bytes` of context first. A block with nothing left but work
  /// that ends anyway (BlockReplay::cut returns false) is not stopped: it finishes as usual.
  void preempt(PreemptMode mode, std::uint64_t save_bytes);
  /// Another block of the running block's kernel has reported a kSyncSet end: a replay waiting
  /// for one (BlockReplay's cross-block waits) looks again now.
  void poke() {
    if (phase_ == Phase::kReplay) preempt_ev_.notify(sc_core::SC_ZERO_TIME);
  }
  /// Whether a preemption is pending or in progress.
  bool yielding() const { return want_ || phase_ == Phase::kSave; }
  const PreemptResult& preempted() const { return preempt_; }

  /// Counts a block this core ran or took part in, with its pipe busy time (ps) and execution
  /// time.
  void account(const std::array<SimTime, ascendc::kPipeCount>& busy, SimTime executed,
               bool block = true);
  /// Counters (ps): block execution time and busy time per pipe.
  std::uint64_t busy_time() const { return busy_ps_; }
  const std::array<std::uint64_t, ascendc::kPipeCount>& pipe_busy() const { return pipe_busy_ps_; }
  /// Records the instructions of blocks whose job has a record id into `sim` (op_simulator.h),
  /// as core unit `unit` ("core0.veccore1").
  void set_op_simulator(OpSimulator* sim, const std::string& unit) {
    opsim_ = sim;
    opsim_unit_ = sim != nullptr ? sim->unit_id(unit, label_) : -1;
  }
  /// The running (or last finished) block's GM bytes by replay lane and L2 outcome
  /// (block_profile.h), since assign().
  const std::array<L2Traffic, kLaneCount>& l2_traffic() const { return l2_; }
  /// Whether trace_block records anything (the timeline is on).
  bool tracing() const { return tracks_.core.on(); }
  /// A span on this core's track.
  void trace_block(const std::string& name, SimTime from, SimTime to,
                   std::vector<sim::TraceArg> args);

 private:
  /// The core's SC_METHOD: replays the assigned block in steps (begin, advance at each GM
  /// instruction's start, the block's end), sleeping in between with next_trigger.
  void step();
  bool preempt_now(SimTime now);  // step(): a preemption that takes; true = core free
  void step_save(SimTime now);    // step() in kSave/kSaving
  bool step_start(SimTime now);   // step() in kStart/kRestore; false = sleeping
  bool step_replay(SimTime now);  // step() in kReplay; false = sleeping
  /// Cuts the replay at `now` (step() at the preemption); false when the block just ends.
  bool begin_preempt(SimTime now);
  /// Reads or writes `bytes` of GM at simulated time now (a context save or restore); returns
  /// when it completes.
  SimTime transfer(bool write, std::uint64_t bytes);
  /// Sleeps `until` (absolute) or until a preemption is asked.
  void sleep_until(SimTime until, SimTime now);
  SimTime gm_access(const ascendc::Instr& in, SimTime request, SimTime& latency) override;
  void instr_done(const ascendc::Instr& in, int lane, SimTime start, SimTime end) override;
  SimTime block_dep_end(std::uint32_t block, std::uint32_t instr) override {
    return sink_.sync_end(*this, block, instr);
  }
  void sync_set_end(std::uint32_t instr, SimTime end) override { sink_.sync_set(*this, instr, end); }
  void declare_tracks();
  void register_stats(sim::StatGroup& stats);

  int index_;
  CoreKind kind_;
  std::string label_;
  const PipeCosts& costs_;
  CoreTracks tracks_;
  CoreSink& sink_;
  BlockReplay replay_;
  ascendc::BlockTrace trace_;
  BlockJob job_;
  const ReplayResult* result_ = nullptr;
  enum class Phase : std::uint8_t { kIdle, kStart, kRestore, kReplay, kTail, kSave, kSaving };
  Phase phase_ = Phase::kIdle;
  SimTime timeout_ = 0;
  SimTime end_ = 0;
  bool timed_out_ = false;
  bool declared_ = false;  // timeline tracks declared
  SimTime restored_ = 0;
  SimTime replay_start_ = 0;  // the replay's first issue slot (job start, or restore end)
  bool want_ = false;  // preemption asked, not handled yet
  PreemptMode want_mode_ = PreemptMode::kKill;
  std::uint64_t want_bytes_ = 0;
  PreemptResult preempt_;
  ascendc::BlockTrace rest_;
  sc_core::sc_event go_, preempt_ev_;
  GmAccessExtension access_;  // payload_'s extension (cleared before payload_ is destroyed)
  tlm::tlm_generic_payload payload_;

  OpSimulator* opsim_ = nullptr;
  int opsim_unit_ = -1;
  std::array<L2Traffic, kLaneCount> l2_{};
  std::uint64_t blocks_ = 0;
  std::uint64_t busy_ps_ = 0;
  std::array<std::uint64_t, ascendc::kPipeCount> pipe_busy_ps_{};
};

}  // namespace npusim::models
