// SPDX-License-Identifier: Apache-2.0
// Mixed AIC/AIV kernels (CANN 9's __mix__(cube, vector)): how a launch of such a kernel runs on
// the twin, for the launchers (the runtime's kernel_launch.cpp, block_runner.h in tests).
//
// A block of a __mix__(c, v) kernel is c AIC and v AIV sub-blocks (Atlas A2/A3: at most 1 and 2;
// __mix__(1, 2) is one AI Core's AIC and both its AIVs). Each runs the kernel body on its own, as
// a member of the launch's BlockGroup (block_group.h): member b * (c + v) + s is sub-block s of
// block b, the AIC first. A sub-block sees its core in g_coreType (ASCEND_IS_AIC / ASCEND_IS_AIV),
// GetBlockIdx() = b on the AIC and b * v + s' on the AIV s' (0 <= s' < v), GetBlockNum() = the
// launch's blockDim on both, GetSubBlockIdx() = s', GetSubBlockNum() = c or v, and
// GetTaskRation() / GetTaskRatio() = v on the AIV (1 on the AIC). CrossCoreSetFlag /
// CrossCoreWaitFlag (mix_ops.h) synchronise them: a wait lets the other members run.
//
// The kernel says it is mixed with its first statement, kernel_mix(c, v) (the launch rewrite
// inserts it). A launcher that does not know yet runs the block as a plain one: kernel_mix then
// throws MixKernel before the body does anything, and the launcher runs the launch again as a
// mix launch (a MixLaunch). A kernel without __mix__ runs exactly as before.
//
// Core types: a sub-block may use only its core's pipes and memories (AIC: MTE1, M, FIXPIPE and
// L1/L0/bias/fixpipe buffers; AIV: V and UB; both: MTE2/MTE3 to their own memories and the
// scalar unit). check() reports a sub-block that used the other core's as a kernel error.
//
// Timing model: the AI Core engine runs a mix block on one AIC and its AIVs (the MIX task type,
// models/aicore/aicore_engine.h) and replays ONE trace per block, with the vector lanes on the
// AIV. merge() builds that trace from the sub-blocks' traces: their instructions in the order they
// were recorded (which honours every cross-core wait, since a wait returns only after the sets it
// waited for ran), each instruction's scalar basic blocks counted from its own sub-block's
// previous instruction, intra-block cross-core waits as deps on the sets they waited for, and
// waits on other blocks' sets as block_deps. Approximations: the sub-blocks share one scalar issue
// stream, and two AIVs' instructions share the AIV lanes (so their vector and MTE work does not
// overlap each other; it does overlap the AIC's).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/block_group.h"
#include "npusim/ascendc/sub_block.h"
#include "npusim/ascendc/trace.h"

namespace npusim::ascendc {

/// One launch of a mix kernel: its members' identities, the cross-core flags (CrossCoreSetFlag /
/// CrossCoreWaitFlag) and the merging of a block's sub-block traces.
class NPUSIM_KERNEL_API MixLaunch {
 public:
  /// KernelError for a shape other than (0|1, 0|1|2) with at least one core.
  MixLaunch(MixShape shape, std::uint32_t block_num);

  MixShape shape() const { return shape_; }
  std::uint32_t block_num() const { return block_num_; }
  std::uint32_t members() const { return block_num_ * shape_.per_block(); }
  SubBlock member(std::uint32_t m);
  /// GetBlockIdx() of member m (what its BlockContext is created with).
  std::uint32_t logical_idx(std::uint32_t m) const;
  /// The sub-block's name in messages and printf lines: "AIC" or "AIV".
  const char* core_name(std::uint32_t m) const;
  /// Prepares member m's context (created with logical_idx(m) and block_num()): its core name.
  void attach(BlockContext& ctx, std::uint32_t m);
  /// Forgets everything recorded (the launch runs again from the start).
  void reset();
  /// Member m's recording order (ScopedSubBlock).
  std::vector<std::uint64_t>& order(std::uint32_t m) { return order_[m]; }
  std::uint64_t& clock() { return clock_; }

  /// Empty, or why member m's trace is not possible on its core (the instruction and pipe).
  std::string check(const BlockTrace& trace, std::uint32_t m) const;
  /// The trace of block b from its sub-blocks' traces (subs[s]: member b * per_block() + s,
  /// every one ended), as the header describes.
  void merge(std::uint32_t b, const std::vector<const BlockTrace*>& subs, BlockTrace& out) const;

  // ---- cross-core flags (cross_core.cpp) ----
  /// Member `self` signalled `flag` in `mode` with its instruction `instr` (a kSyncSet).
  void set_flag(std::uint32_t self, std::uint32_t mode, std::uint32_t flag, std::uint32_t instr);
  /// Takes member `self`'s next grant of `flag` (false: none yet); `from` gets the sets it stands
  /// for (member, instruction).
  bool take_grant(std::uint32_t self, std::uint32_t flag, std::vector<SyncMark>& from);

 private:
  std::uint32_t merged_index(std::uint32_t m, std::uint32_t instr) const;
  void grant(std::uint32_t member, std::uint32_t flag, const std::vector<SyncMark>& from);

  MixShape shape_;
  std::uint32_t block_num_;
  std::uint64_t clock_ = 0;                         // instructions recorded so far (all members)
  std::vector<std::vector<std::uint64_t>> order_;   // per member: clock_ at each instruction
  // Sets per (key, round): a key is a mode, flag and scope (set_flag()); a member's n-th set of
  // a key belongs to round n, which completes when every member of the scope has made it.
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::vector<SyncMark>> arrivals_;
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint32_t> rounds_;  // (key, member)
  // Per (member, flag): the completed rounds it has not waited for yet (its flag counter), each
  // with the sets that completed it.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::deque<std::vector<SyncMark>>> grants_;
};

namespace detail {
/// Where the running sub-block's instructions note their recording order (ScopedSubBlock): every
/// instruction `ctx` records appends *clock to *order and increments it.
struct EmitOrder {
  const BlockContext* ctx = nullptr;
  std::vector<std::uint64_t>* order = nullptr;
  std::uint64_t* clock = nullptr;
  void note() { order->push_back((*clock)++); }
};
extern NPUSIM_KERNEL_API thread_local EmitOrder tls_emit_order;
}  // namespace detail

/// Installs member m's identity (g_coreType, the sub-block queries) for the current thread, and
/// notes the recording order of the instructions of the block installed (ScopedBlock, first).
class NPUSIM_KERNEL_API ScopedSubBlock {
 public:
  ScopedSubBlock(MixLaunch& launch, std::uint32_t m);
  ~ScopedSubBlock();
  ScopedSubBlock(const ScopedSubBlock&) = delete;
  ScopedSubBlock& operator=(const ScopedSubBlock&) = delete;

 private:
  SubBlock saved_;
  std::int32_t saved_core_;
  detail::EmitOrder saved_order_;
};

}  // namespace npusim::ascendc
