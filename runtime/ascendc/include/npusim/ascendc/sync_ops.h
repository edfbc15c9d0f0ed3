// SPDX-License-Identifier: Apache-2.0
// Synchronisation between blocks and with GM: SyncAll, IBSet/IBWait, WaitPreTaskEnd /
// SetNextTaskStart, ReadGmByPassDCache / WriteGmByPassDCache, DataSyncBarrier,
// DataCacheCleanAndInvalid. The blocks of a launch run as a group (block_group.h): a wait lets
// the other blocks run until what it waits for has happened, a GM poll lets them run once.
//   SyncAll()              every block (or the first usedCores) arrives before any passes;
//                          records kSyncSet (after all earlier work) and kSyncWait with a
//                          BlockDep on every other block's kSyncSet of the same round
//   IBSet(gm, ub, b, e)    signals flag (b, e); records kSyncSet
//   IBWait(gm, ub, b, e)   waits for the next signal of flag (b, e) this block has not consumed;
//                          records kSyncWait with a BlockDep on that IBSet's kSyncSet
//   ReadGmByPassDCache     a scalar GM read (kScalarRead) after letting the other blocks run
//   WriteGmByPassDCache    a scalar GM write (kScalarWrite)
//   DataCacheCleanAndInvalid  the host has no per-core data cache, so GM is always coherent; a
//                          GlobalTensor form lets the other blocks run (spin loops over a flag)
//   DataSyncBarrier        the replay issues nothing after a scalar access until it has ended
//                          (block_replay.h), which is the order the barrier guarantees
//   GroupBarrier<MTE3_MODE>(ws, a, w)  Wait(i) returns once all `a` arrivers called Arrive (per
//                          round: the n-th Wait of a block waits for the n-th Arrive of each);
//                          kSyncSet / kSyncWait as SyncAll's
//   InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock  blocks take turns in block
//                          order, round after round (ticket r * blockNum + blockIdx): WaitPreBlock
//                          waits for the previous ticket's NotifyNextBlock
//   InitOutput(gm, n, v)   fills n elements of GM with v (one MTE3 write of n elements)
//   WaitPreTaskEnd / SetNextTaskStart  a stream's tasks run one after another here, so the
//                          previous task has ended before a kernel starts and the next starts
//                          after it ends: both orders hold without an instruction
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/tensor.h"

namespace npusim::ascendc {

NPUSIM_KERNEL_API void sync_all(std::int32_t used_cores);
NPUSIM_KERNEL_API void ib_set(const void* gm, std::int32_t block, std::int32_t event);
NPUSIM_KERNEL_API void ib_wait(const void* gm, std::int32_t block, std::int32_t event);
NPUSIM_KERNEL_API void group_barrier(const void* ws, std::uint32_t arrive, std::uint32_t wait,
                                     std::uint32_t index, bool arriving);
NPUSIM_KERNEL_API void determine_init(const void* gm, std::uint32_t ub_bytes);
NPUSIM_KERNEL_API void determine_turn(const void* gm, bool notify);
/// Lets the other blocks of the launch run (a GM poll); nothing outside a group.
NPUSIM_KERNEL_API void poll_blocks();
/// Checks that a kernel is running (calls that need no instruction still need a block).
NPUSIM_KERNEL_API void require_block(const char* what);

}  // namespace npusim::ascendc

namespace AscendC {

enum class CacheLine : std::uint8_t { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst : std::uint8_t { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class MemDsbT : std::uint8_t { ALL, DDR, UB, SEQ };

template <bool isAIVOnly = true>
inline void SyncAll() {
  npusim::ascendc::sync_all(0);
}

template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<std::int32_t>& gmWorkspace,
                    const LocalTensor<std::int32_t>& /*ubWorkspace*/, const std::int32_t usedCores = 0) {
  npusim::ascendc::check_gm(npusim::ascendc::block(), gmWorkspace.GetPhyAddr(), 32, true,
                            "SyncAll");
  npusim::ascendc::sync_all(usedCores);
}

template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<std::int32_t>& gmWorkspace,
                  const LocalTensor<std::int32_t>& /*ubWorkspace*/, std::int32_t blockIdx,
                  std::int32_t eventID) {
  npusim::ascendc::ib_set(gmWorkspace.GetPhyAddr(), blockIdx, eventID);
}

template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<std::int32_t>& gmWorkspace,
                   const LocalTensor<std::int32_t>& /*ubWorkspace*/, std::int32_t blockIdx,
                   std::int32_t eventID) {
  npusim::ascendc::ib_wait(gmWorkspace.GetPhyAddr(), blockIdx, eventID);
}

enum class PipeMode : std::uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode kMode>
class GroupBarrier {
  static_assert(kMode == PipeMode::MTE3_MODE, "GroupBarrier: only PipeMode::MTE3_MODE exists");

 public:
  GroupBarrier(__gm__ std::uint8_t* groupWorkspace, std::uint32_t arriveSizeIn,
               std::uint32_t waitSizeIn)
      : ws_(groupWorkspace), arrive_(arriveSizeIn), wait_(waitSizeIn) {}
  void Arrive(std::uint32_t arriveIndex) {
    npusim::ascendc::group_barrier(ws_, arrive_, wait_, arriveIndex, true);
  }
  void Wait(std::uint32_t waitIndex) {
    npusim::ascendc::group_barrier(ws_, arrive_, wait_, waitIndex, false);
  }

 private:
  __gm__ std::uint8_t* ws_;
  std::uint32_t arrive_;
  std::uint32_t wait_;
};

inline void InitDetermineComputeWorkspace(const GlobalTensor<std::int32_t>& gmWorkspace,
                                          const LocalTensor<std::int32_t>& ubWorkspace) {
  npusim::ascendc::determine_init(gmWorkspace.GetPhyAddr(), ubWorkspace.GetLength());
}
inline void WaitPreBlock(const GlobalTensor<std::int32_t>& gmWorkspace,
                         const LocalTensor<std::int32_t>& /*ubWorkspace*/) {
  npusim::ascendc::determine_turn(gmWorkspace.GetPhyAddr(), false);
}
inline void NotifyNextBlock(const GlobalTensor<std::int32_t>& gmWorkspace,
                            const LocalTensor<std::int32_t>& /*ubWorkspace*/) {
  npusim::ascendc::determine_turn(gmWorkspace.GetPhyAddr(), true);
}

template <class T>
inline void InitOutput(const GlobalTensor<T>& gm, std::uint32_t size, T value = 0) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint64_t bytes = std::uint64_t{size} * sizeof(T);
  check_gm(ctx, gm.GetPhyAddr(), bytes, true, "InitOutput");
  if (ctx.functional) {
    for (std::uint32_t i = 0; i < size; ++i) gm.GetPhyAddr()[i] = value;
  }
  record_copy(ctx, Op::kCopy, dtype_of<T>(), Mem::kUb, Mem::kGm, bytes, 1, -1, -1,
              gm.GetPhyAddr(), 0);
}

inline void WaitPreTaskEnd() { npusim::ascendc::require_block("WaitPreTaskEnd"); }
inline void SetNextTaskStart() { npusim::ascendc::require_block("SetNextTaskStart"); }

template <class T>
inline T ReadGmByPassDCache(__gm__ T* addr) {
  npusim::ascendc::poll_blocks();
  GlobalTensor<T> g;
  g.SetGlobalBuffer(addr, 1);
  return g.GetValue(0);
}

template <class T>
inline void WriteGmByPassDCache(__gm__ T* addr, T value) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(addr, 1);
  g.SetValue(0, value);
}

template <MemDsbT kArg>
inline void DataSyncBarrier() {
  npusim::ascendc::require_block("DataSyncBarrier");
}

template <class T, CacheLine kEntire, DcciDst kDst = DcciDst::CACHELINE_OUT>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& /*dst*/) {
  static_assert(kDst != DcciDst::CACHELINE_UB && kDst != DcciDst::CACHELINE_ATOMIC,
                "DataCacheCleanAndInvalid: CACHELINE_UB / CACHELINE_ATOMIC are reserved on "
                "Atlas A2/A3");
  npusim::ascendc::poll_blocks();
}

}  // namespace AscendC
