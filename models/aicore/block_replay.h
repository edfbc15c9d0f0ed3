// SPDX-License-Identifier: Apache-2.0
// Replays one block's instruction trace (npusim/ascendc/trace.h) over an AI Core's pipes and
// computes when each instruction runs. Plain C++: the core (ai_core.h) supplies the waiting and
// the GM traffic through ReplayHost.
//
// Timing model (times in ps, durations from PipeCosts):
//  - Issue: the scalar unit issues instructions in program order. issue_0 = start +
//    bbs_0 * scalar_cycles_per_bb; issue_i = max(issue_{i-1}, end_{i-1} if i-1 is a scalar
//    instruction) + (1 + (bbs_i - bbs_{i-1}) * scalar_cycles_per_bb) cycles. With
//    pipe_queue_depth D > 0, issue_i also waits until the instruction D places earlier on the
//    same pipe has started (its queue slot frees).
//  - Execution: each pipe runs its instructions in order; an instruction starts at
//    max(issue, release of the previous instruction on its pipe, end of each dep) and takes
//    PipeCosts::cycles (end = release = start + cycles). A GM instruction (touches_gm) streams:
//    it releases its pipe when its last request has gone out, release = max(start + cycles,
//    data complete - latency), and ends (for its deps) when its data is complete,
//    end = max(start + cycles + latency, data complete), where data complete comes from
//    ReplayHost::gm_access (L2/HBM, asked at the instruction's start; the request issues after
//    the pipe's startup cycles) and latency = PipeCosts::gm_latency. So back-to-back copies on a
//    pipe overlap their memory latency, and only the consumer waits for it.
//  - Cross-block waits: a kSyncWait instruction also starts no earlier than the end of each
//    other block's kSyncSet it waited for (BlockTrace::block_deps), which the host tells
//    (ReplayHost::block_dep_end) once that block's replay has computed it; until then its lane
//    waits, and advance() returns false with wake_at = ReplayHost::kNever when nothing else can
//    move (the core sleeps until another core reports a kSyncSet end, or its watchdog). Each
//    kSyncSet end is reported to the host (sync_set_end). A preempted block's remaining trace
//    (cut()) keeps no block_deps: after a preemption its waits no longer hold it.
//  - The block ends when every instruction has ended and the scalar unit has run the basic blocks
//    after the last instruction (BlockTrace::scalar_bbs).
//  - Busy time per pipe = sum of its instructions' (release - start); the scalar unit's =
//    issue cycles + basic-block cycles + its own GetValue/SetValue durations.
// Shared bandwidth must be reserved in simulated-time order: the replay computes every instruction
// whose inputs are known (dataflow, not program order), and only then takes the pending GM
// instruction with the earliest start, waits until that start and asks for its data. Any
// instruction still unknown depends on a pending one, so it cannot start earlier. Instructions
// that touch no shared resource are computed without waiting.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "models/aicore/pipe_costs.h"
#include "npusim/ascendc/trace.h"
#include "sim/quantity.h"

namespace npusim::models {

using sim::SimTime;

/// Replay lanes: the 7 pipes, plus the AIV's own MTE2 for MIX blocks on split chips (copies into
/// UB then run on the vector core's MTE2, beside the cube core's MTE2).
constexpr int kLaneCount = ascendc::kPipeCount + 1;
constexpr int kMte2AivLane = ascendc::kPipeCount;

/// The pipe a lane belongs to.
inline ascendc::Pipe lane_pipe(int lane) {
  return lane == kMte2AivLane ? ascendc::Pipe::kMte2 : static_cast<ascendc::Pipe>(lane);
}

struct ReplayResult {
  SimTime end = 0;                          // the block's end
  std::array<SimTime, kLaneCount> busy{};   // ps per lane
  std::uint64_t instrs = 0;
};

/// What the replay needs from its core.
class ReplayHost {
 public:
  virtual ~ReplayHost() = default;
  /// run() only. Contract: returns at simulated time max(now, t).
  virtual void wait_until(SimTime t) {}
  /// Contract: called at simulated time >= the instruction's start, in nondecreasing start order;
  /// its memory request issues at `request` (>= now). Returns when its data is complete.
  /// `latency` comes in as PipeCosts::gm_latency; the host raises it when the access turns out
  /// to need more (an addressed read that misses in L2 also waits for HBM).
  virtual SimTime gm_access(const ascendc::Instr& in, SimTime request, SimTime& latency) = 0;
  /// Pipe tracing (only when run() is asked to trace): `in` occupied `lane` in [start, end).
  virtual void instr_done(const ascendc::Instr& in, int lane, SimTime start, SimTime end) {}
  /// Cross-block synchronisation (BlockTrace::block_deps): the end of instruction `instr` (a
  /// kSyncSet) of block `block` of the same launch, or kNever while it is not known yet. The
  /// default (an isolated replay) waits for nobody.
  virtual SimTime block_dep_end(std::uint32_t block, std::uint32_t instr) { return 0; }
  /// A kSyncSet instruction of the replayed block ends at `end` (other blocks may wait for it).
  virtual void sync_set_end(std::uint32_t instr, SimTime end) {}
  static constexpr SimTime kNever = ~SimTime{0};
};

class BlockReplay {
 public:
  explicit BlockReplay(const PipeCosts& costs);

  /// Replays `trace` with the first issue slot at `start`. `split_mix`: MTE2 copies into UB run
  /// on kMte2AivLane. The result stays valid until the next run(). (begin() + advance(), waiting
  /// with host.wait_until().)
  const ReplayResult& run(const ascendc::BlockTrace& trace, SimTime start, bool split_mix,
                          bool trace_instrs, ReplayHost& host);

  /// The same in steps, for a caller that cannot block: begin(), then advance(now) until it
  /// returns true; each false gives in `wake` the simulated time to call it again (the start of
  /// the next GM instruction: its memory access must happen at that time, in time order with
  /// every other initiator). `trace` and `host` must outlive the replay.
  void begin(const ascendc::BlockTrace& trace, SimTime start, bool split_mix, bool trace_instrs,
             ReplayHost& host);
  bool advance(SimTime now, SimTime& wake_at);
  const ReplayResult& result() const { return result_; }

  /// What a preemption at `now` leaves (cut()).
  struct Cut {
    SimTime drained = 0;                    // the last started instruction's end (>= now)
    std::uint64_t done = 0;                 // instructions that started at or before now
    bool progress = false;                  // anything ran (instructions or basic blocks)
    std::array<SimTime, kLaneCount> busy{}; // their busy time per lane (scalar: their issue and
                                            // basic-block cycles)
  };
  /// Preemption at `now`, after advance(now) (so every GM instruction that started by now has its
  /// data time): the instructions that started at or before `now` run to their end (the pipes
  /// drain, `drained`); the others become `rest`, a trace of their own in program order whose
  /// deps on finished instructions are dropped and whose basic-block counts restart after the
  /// last finished instruction, replayed later from its own start. Returns false when nothing is
  /// left but the scalar tail (the block is not worth preempting: it just ends).
  bool cut(SimTime now, ascendc::BlockTrace& rest, Cut& out) const;

 private:
  static constexpr SimTime kUnknown = ~SimTime{0};
  using Pending = std::pair<SimTime, std::uint32_t>;  // (start, index), earliest first

  // Durations of one instruction shape (all fields but scalar_bbs and deps), memoised: a
  // kernel's blocks replay the same few shapes over and over. Pure functions of the shape.
  struct ShapeCost {
    ascendc::Instr shape;
    bool valid = false;
    SimTime duration = 0;  // PipeCosts::cycles, in ps
    SimTime latency = 0;   // PipeCosts::gm_latency
  };
  struct IssueCost {
    std::uint64_t bbs = 0;  // basic blocks since the previous instruction
    bool valid = false;
    SimTime ps = 0;  // to_ps(1 + bbs * scalar_cycles_per_bb)
  };

  void prepare(bool split_mix);
  void reset(std::size_t n);
  void activate_lanes();
  void finish_replay();
  SimTime tail_start(std::uint64_t& done_bbs) const;
  bool pass(std::uint32_t n);
  std::uint64_t count_done(SimTime now, std::vector<bool>& done, Cut& out) const;
  bool cut_scalar_tail(SimTime now, ascendc::BlockTrace& rest, Cut& out) const;
  void copy_rest(const std::vector<bool>& done, std::uint64_t base_bbs,
                 ascendc::BlockTrace& rest) const;
  const ShapeCost& shape_cost(const ascendc::Instr& in);
  SimTime issue_ps(std::uint64_t bbs, double bb_cycles);
  bool issue_next();
  bool start_head(int lane);
  /// start_head's failure: `lane` waits for `what` (an instruction's end/release, or issue).
  bool blocked(int lane, std::uint32_t what) {
    blocker_[lane] = what;
    return false;
  }
  /// `what` became known: lanes blocked on it are tried again.
  void wake(std::uint32_t what);
  void finish(std::uint32_t i, SimTime release, SimTime end);
  void resolve_earliest();
  SimTime scalar_tail();

  const PipeCosts& costs_;
  const ascendc::BlockTrace* trace_ = nullptr;
  ReplayHost* host_ = nullptr;
  bool trace_instrs_ = false;
  SimTime start_time_ = 0;
  double scalar_cycles_ = 0;

  // Per instruction, what the passes read and write together (one cache line): with a core per
  // block replaying at once, separate arrays per field cost a cache miss per field.
  struct alignas(64) Node {
    SimTime issue, start, release, end;  // kUnknown until known
    SimTime duration;                    // PipeCosts::cycles in ps (shape_cost())
    SimTime step;                        // issue_ps of its basic blocks (not for the first)
    double bb_cycles;                    // its basic blocks' scalar cycles
    std::uint32_t pos;                   // position in its lane
    std::uint8_t lane;
    bool gm;  // touches_gm()
  };
  std::vector<Node> nodes_;
  Node& place(std::size_t i, int lane, const ShapeCost*& last);
  std::vector<SimTime> latency_;  // per instruction: PipeCosts::gm_latency (GM instructions)
  std::array<SimTime, ascendc::kPipeCount> startup_ps_{};
  std::array<ShapeCost, 32> shapes_{};
  std::array<IssueCost, 64> issue_costs_{};
  std::array<std::vector<std::uint32_t>, kLaneCount> lanes_;
  std::array<std::size_t, kLaneCount> head_{};
  std::array<std::uint8_t, kLaneCount> active_{};  // lanes with instructions left, ascending
  std::size_t active_count_ = 0;
  static constexpr std::uint32_t kNoBlocker = ~std::uint32_t{0};
  static constexpr std::uint32_t kBlockedOnIssue = kNoBlocker - 1;
  static constexpr std::uint32_t kBlockedOnBlock = kNoBlocker - 2;  // another block's kSyncSet
  bool block_deps_start(std::uint32_t i, SimTime& t) const;
  bool waits_on_blocks();
  std::array<std::uint32_t, kLaneCount> blocker_{};  // what each lane's head waits for
  std::array<bool, kLaneCount> dirty_{};              // its blocker may be known now
  std::uint32_t next_issue_ = 0;
  // What the next issue waits for (an instruction's start: a full pipe queue; or its end: the
  // scalar unit's own access); kNoBlocker: try. Retried only once that is known.
  std::uint32_t issue_blocker_ = kNoBlocker;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;
  ReplayResult result_;
};

}  // namespace npusim::models
