// SPDX-License-Identifier: Apache-2.0
// TPipe, TQue/TQueBind, TBuf and the explicit synchronisation calls of the Ascend C twin.
//
// TPipe::InitBuffer carves buffers out of the block's local memories (capacities from
// BlockContext::caps(); overflow is a KernelError naming memory, request and free space).
// Queues implement the device semantics the trace needs (trace.h): AllocTensor hands out free
// buffers in FIFO order (so N buffers rotate), EnQue/DeQue pass them producer -> consumer
// (at most `depth` queued; EnQue on a full queue returns false), FreeTensor returns them.
// Misuse that would hang the device (AllocTensor with every buffer in use, DeQue on an empty
// queue, WaitFlag without SetFlag) is a KernelError instead.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"

enum pipe_t : std::uint8_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX,
  MAX_PIPE
};

enum event_t : std::uint8_t {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7
};

namespace AscendC {

/// An event id as FetchEventID / AllocEventID hand it out (kernels keep it in this type).
using TEventID = std::int8_t;

enum class HardEvent : std::uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX
};

}  // namespace AscendC

namespace npusim::ascendc {

/// (source pipe, destination pipe) of a HardEvent.
constexpr std::array<Pipe, 2> event_pipes(AscendC::HardEvent e) {
  constexpr Pipe S = Pipe::kScalar, V = Pipe::kVector, M = Pipe::kCube, T1 = Pipe::kMte1,
                 T2 = Pipe::kMte2, T3 = Pipe::kMte3, F = Pipe::kFixpipe;
  constexpr std::array<Pipe, 2> kTable[] = {
      {T2, T1}, {T1, T2}, {T1, M},  {M, T1},  {T2, V}, {V, T2}, {T3, V}, {V, T3}, {M, V},
      {V, M},   {V, V},   {T3, T1}, {T1, T3}, {T1, V}, {T2, M}, {M, T2}, {V, T1}, {M, F},
      {F, M},   {T3, T2}, {T2, T3}, {S, V},   {V, S},  {S, T2}, {T2, S}, {S, T3}, {T3, S},
      {T2, F},  {F, T2},  {F, S},   {M, S},   {F, T3}, {T1, F}, {F, T1}, {F, F},  {S, S}};
  return kTable[static_cast<int>(e)];
}

}  // namespace npusim::ascendc

namespace AscendC {

template <TPosition kPos>
class TBuf;

/// A buffer handle of a TBufPool (GetBufHandle), for custom pools' InitBufHandle calls.
using TBufHandle = std::uint8_t*;

}  // namespace AscendC

namespace npusim::ascendc {

/// A buffer of `len` bytes at byte address `addr` of a buffer pool's memory (buf_pool.h): the
/// pool checks the range, the block records the slot.
template <class Pool>
std::int32_t pool_buffer(Pool* pool, AscendC::TPosition pos, std::uint32_t addr,
                         std::uint32_t len) {
  pool->twin_pool_.check(mem_of(pos), addr, len, "InitBufHandle");
  return block().add_slot(mem_of(pos), addr, len);
}

}  // namespace npusim::ascendc

namespace AscendC {

/// Queue with separate source and destination positions (TQue is TQueBind<pos, pos, depth>).
template <TPosition kSrc, TPosition kDst, std::int32_t kDepth, auto kMask = 0>
class TQueBind {
 public:
  static constexpr TPosition kPosition = kSrc == TPosition::GM ? kDst : kSrc;

  template <class T>
  LocalTensor<T> AllocTensor() {
    auto& ctx = npusim::ascendc::block();
    npusim::ascendc::ScalarPause pause(ctx);  // queue bookkeeping is twin code, not kernel scalar work
    if (free_.empty()) {
      npusim::ascendc::fail("TQue::AllocTensor",
                           "all %u buffers of the %s queue are in use "
                           "(missing FreeTensor?); the device would hang",
                           static_cast<unsigned>(slots_.size()),
                           npusim::ascendc::position_name(kPosition));
    }
    auto& in_use = ctx.queue_buffers_in_use(static_cast<std::uint8_t>(kPosition));
    if (in_use >= ctx.caps().max_queue_buffers_per_position) {
      npusim::ascendc::fail("TQue::AllocTensor",
                           "more than %u buffers allocated at position %s "
                           "(hardware event ids); the device would hang",
                           ctx.caps().max_queue_buffers_per_position,
                           npusim::ascendc::position_name(kPosition));
    }
    ++in_use;
    const std::int32_t slot = free_.front();
    free_.pop_front();
    ctx.reuse(slot);
    return tensor<T>(ctx, slot);
  }

  template <class T>
  void FreeTensor(const LocalTensor<T>& t) {
    auto& ctx = npusim::ascendc::block();
    npusim::ascendc::ScalarPause pause(ctx);  // queue bookkeeping is twin code, not kernel scalar work
    const std::int32_t slot = t.twin_slot();
    if (!owns(slot))
      npusim::ascendc::fail("TQue::FreeTensor", "tensor does not belong to this queue");
    for (std::int32_t s : free_) {
      if (s == slot) npusim::ascendc::fail("TQue::FreeTensor", "buffer freed twice");
    }
    auto& in_use = ctx.queue_buffers_in_use(static_cast<std::uint8_t>(kPosition));
    if (in_use > 0) --in_use;
    ctx.release(slot);
    free_.push_back(slot);
  }

  template <class T>
  bool EnQue(const LocalTensor<T>& t) {
    auto& ctx = npusim::ascendc::block();
    npusim::ascendc::ScalarPause pause(ctx);  // queue bookkeeping is twin code, not kernel scalar work
    if (!owns(t.twin_slot()))
      npusim::ascendc::fail("TQue::EnQue", "tensor does not belong to this queue");
    if (kDepth > 0 && queued_.size() >= static_cast<std::size_t>(kDepth)) return false;
    ctx.enqueue(t.twin_slot());
    queued_.push_back(t.twin_slot());
    return true;
  }
  template <TPosition kUserSrc, TPosition kUserDst, class T>
  bool EnQue(const LocalTensor<T>& t) {
    return EnQue(t);
  }

  template <class T>
  LocalTensor<T> DeQue() {
    auto& ctx = npusim::ascendc::block();
    npusim::ascendc::ScalarPause pause(ctx);  // queue bookkeeping is twin code, not kernel scalar work
    if (queued_.empty()) {
      npusim::ascendc::fail("TQue::DeQue",
                           "the %s queue is empty (missing EnQue?); the device would hang",
                           npusim::ascendc::position_name(kPosition));
    }
    const std::int32_t slot = queued_.front();
    queued_.pop_front();
    ctx.dequeue(slot);
    return tensor<T>(ctx, slot);
  }
  template <TPosition kUserSrc, TPosition kUserDst, class T>
  LocalTensor<T> DeQue() {
    return DeQue<T>();
  }

  bool VacantInQue() const {
    return kDepth <= 0 || queued_.size() < static_cast<std::size_t>(kDepth);
  }
  bool HasTensorInQue() const { return !queued_.empty(); }
  std::int32_t GetTensorCountInQue() const { return static_cast<std::int32_t>(queued_.size()); }
  bool HasIdleBuffer() const { return !free_.empty(); }
  void FreeAllEvent() {}

  /// Custom buffer pools (EXTERN_IMPL_BUFPOOL): start over with buffers of `len` bytes, then
  /// add buffer `index` at byte address `addr` of the pool.
  void InitStartBufHandle(TBufHandle, std::uint8_t, std::uint32_t len) { twin_init(0, 0, len); }
  template <class Pool>
  void InitBufHandle(Pool* pool, std::uint32_t, TBufHandle, std::uint32_t addr, std::uint32_t len) {
    const std::int32_t slot = npusim::ascendc::pool_buffer(pool, kPosition, addr, len);
    slots_.push_back(slot);
    free_.push_back(slot);
  }

  // ---- twin internals (TPipe::InitBuffer) ----
  void twin_init(std::int32_t first_slot, std::uint32_t num, std::uint32_t len) {
    slots_.clear();
    free_.clear();
    queued_.clear();
    for (std::uint32_t i = 0; i < num; ++i) {
      slots_.push_back(first_slot + static_cast<std::int32_t>(i));
      free_.push_back(first_slot + static_cast<std::int32_t>(i));
    }
    len_ = len;
  }

 private:
  bool owns(std::int32_t slot) const {
    for (std::int32_t s : slots_) {
      if (s == slot) return true;
    }
    return false;
  }
  template <class T>
  LocalTensor<T> tensor(npusim::ascendc::BlockContext& ctx, std::int32_t slot) const {
    const npusim::ascendc::BufferSlot& s = ctx.slot(slot);
    auto* data = reinterpret_cast<T*>(ctx.base(s.mem) + s.offset);
    return LocalTensor<T>(data, static_cast<std::uint32_t>(len_ / sizeof(T)), kPosition, slot);
  }

  std::vector<std::int32_t> slots_;
  std::deque<std::int32_t> free_;
  std::deque<std::int32_t> queued_;
  std::uint32_t len_ = 0;
};

template <TPosition kPos, std::int32_t kDepth, auto kMask = 0>
class TQue : public TQueBind<kPos, kPos, kDepth, kMask> {};

/// A plain buffer (no queue, no synchronisation), e.g. VECCALC temporaries.
template <TPosition kPos = TPosition::VECCALC>
class TBuf {
 public:
  template <class T>
  LocalTensor<T> Get() const {
    return Get<T>(static_cast<std::uint32_t>(len_ / sizeof(T)));
  }
  template <class T>
  LocalTensor<T> Get(std::uint32_t count) const {
    return GetWithOffset<T>(count, 0);
  }
  template <class T>
  LocalTensor<T> GetWithOffset(std::uint32_t count, std::uint32_t byte_offset) const {
    auto& ctx = npusim::ascendc::block();
    if (slot_ < 0)
      npusim::ascendc::fail("TBuf::Get", "buffer not initialised (missing TPipe::InitBuffer)");
    if (byte_offset + static_cast<std::uint64_t>(count) * sizeof(T) > len_) {
      npusim::ascendc::fail("TBuf::Get", "%u elements at offset %u exceed the %u-byte buffer", count,
                           byte_offset, len_);
    }
    const npusim::ascendc::BufferSlot& s = ctx.slot(slot_);
    auto* data = reinterpret_cast<T*>(ctx.base(s.mem) + s.offset + byte_offset);
    return LocalTensor<T>(data, count, kPos, slot_);
  }
  /// The whole buffer, as Get (a TBuf has no queue: the buffer stays the TBuf's).
  template <class T>
  LocalTensor<T> AllocTensor() const {
    return Get<T>();
  }
  /// Gives back a tensor of AllocTensor / Get: only checks that it is this buffer's.
  template <class T>
  void FreeTensor(const LocalTensor<T>& t) const {
    if (t.twin_slot() != slot_ || slot_ < 0) {
      npusim::ascendc::fail("TBuf::FreeTensor", "tensor does not belong to this buffer");
    }
  }

  /// Custom buffer pools (EXTERN_IMPL_BUFPOOL): the buffer at byte address `addr` of the pool.
  void InitStartBufHandle(TBufHandle, std::uint8_t, std::uint32_t len) { twin_init(-1, len); }
  template <class Pool>
  void InitBufHandle(Pool* pool, std::uint32_t, TBufHandle, std::uint32_t addr, std::uint32_t len) {
    twin_init(npusim::ascendc::pool_buffer(pool, kPos, addr, len), len);
  }

  void twin_init(std::int32_t slot, std::uint32_t len) {
    slot_ = slot;
    len_ = len;
  }

 private:
  std::int32_t slot_ = -1;
  std::uint32_t len_ = 0;
};

/// Owns the buffers of a kernel; releases them when destroyed.
class TPipe {
 public:
  TPipe() : ctx_(&npusim::ascendc::block()) {
    for (int m = 0; m < 9; ++m) marks_[m] = ctx_->used(static_cast<npusim::ascendc::Mem>(m));
    ctx_->current_tpipe = this;
  }
  ~TPipe() { Destroy(); }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  template <TPosition kSrc, TPosition kDst, std::int32_t kDepth, auto kMask>
  bool InitBuffer(TQueBind<kSrc, kDst, kDepth, kMask>& que, std::uint8_t num, std::uint32_t len) {
    constexpr TPosition kPos = TQueBind<kSrc, kDst, kDepth, kMask>::kPosition;
    const std::int32_t first = carve(kPos, num, len, "queue");
    que.twin_init(first, num, aligned(kPos, len));
    return true;
  }

  template <TPosition kPos>
  bool InitBuffer(TBuf<kPos>& buf, std::uint32_t len) {
    const std::int32_t slot = carve(kPos, 1, len, "TBuf");
    buf.twin_init(slot, aligned(kPos, len));
    return true;
  }

  /// A TBufPool (or EXTERN_IMPL_BUFPOOL class) of `len` bytes carved from the pipe's memory, or
  /// sharing `share`'s memory (buf_pool.h).
  template <class Pool>
  bool InitBufPool(Pool& pool, std::uint32_t len) {
    const npusim::ascendc::Mem mem = npusim::ascendc::mem_of(Pool::kPosition);
    const std::uint32_t a = aligned(Pool::kPosition, len);
    pool.twin_pool_.attach(mem, ctx_->allocate(mem, a, "TPipe::InitBufPool"), a);
    return true;
  }
  template <class Pool, class Share>
  bool InitBufPool(Pool& pool, std::uint32_t len, Share& share) {
    pool.twin_pool_.share(share.twin_pool_, aligned(Pool::kPosition, len), "TPipe::InitBufPool");
    return true;
  }

  void Init() {}
  void Reset() { Destroy(); }
  void Destroy() {
    if (ctx_ == nullptr) return;
    for (int m = 0; m < 9; ++m) ctx_->release_to(static_cast<npusim::ascendc::Mem>(m), marks_[m]);
    if (ctx_->current_tpipe == this) ctx_->current_tpipe = nullptr;
  }

  template <HardEvent kEvent>
  std::int32_t FetchEventID() {
    return 0;
  }
  std::int32_t FetchEventID(HardEvent) { return 0; }
  template <HardEvent kEvent>
  std::int32_t AllocEventID() {
    return next_event_++ & 7;
  }
  template <HardEvent kEvent>
  void ReleaseEventID(std::int32_t) {}

 private:
  static std::uint32_t aligned(TPosition pos, std::uint32_t len) {
    const std::uint32_t a = npusim::ascendc::BlockContext::alignment(npusim::ascendc::mem_of(pos));
    return (len + a - 1) / a * a;
  }
  std::int32_t carve(TPosition pos, std::uint32_t num, std::uint32_t len, const char* kind) {
    const npusim::ascendc::Mem mem = npusim::ascendc::mem_of(pos);
    char what[96];
    std::snprintf(what, sizeof what, "TPipe::InitBuffer(%s %s, num %u, len %u)", kind,
                  npusim::ascendc::position_name(pos), num, len);
    if (mem == npusim::ascendc::Mem::kGm || num == 0) {
      npusim::ascendc::fail(what, "position %s has no local buffer on this architecture or num is 0",
                           npusim::ascendc::position_name(pos));
    }
    const std::uint32_t each = aligned(pos, len);
    const std::uint32_t offset = ctx_->allocate(mem, static_cast<std::uint64_t>(each) * num, what);
    std::int32_t first = -1;
    for (std::uint32_t i = 0; i < num; ++i) {
      const std::int32_t s = ctx_->add_slot(mem, offset + i * each, each);
      if (i == 0) first = s;
    }
    return first;
  }

  npusim::ascendc::BlockContext* ctx_;
  std::array<std::uint32_t, 9> marks_{};
  std::int32_t next_event_ = 0;
};

inline TPipe* GetTPipePtr() { return static_cast<TPipe*>(npusim::ascendc::block().current_tpipe); }

/// SetFlag/WaitFlag: the destination pipe's next instruction waits for everything the source
/// pipe had issued at SetFlag time.
template <HardEvent kEvent>
inline void SetFlag(std::int32_t event_id) {
  constexpr auto kPipes = npusim::ascendc::event_pipes(kEvent);
  npusim::ascendc::block().set_flag(kPipes[0], kPipes[1], event_id);
}
template <HardEvent kEvent>
inline void WaitFlag(std::int32_t event_id) {
  constexpr auto kPipes = npusim::ascendc::event_pipes(kEvent);
  npusim::ascendc::block().wait_flag(kPipes[0], kPipes[1], event_id);
}

/// PipeBarrier<PIPE_ALL> orders every pipe after everything issued so far; a barrier on a single
/// pipe is implicit in the trace model (each pipe runs in order).
template <pipe_t kPipe>
inline void PipeBarrier() {
  if constexpr (kPipe == PIPE_ALL) npusim::ascendc::block().barrier_all();
}

}  // namespace AscendC

// CANN's kernels call GetTPipePtr() unqualified, outside namespace AscendC.
using AscendC::GetTPipePtr;

inline void pipe_barrier(pipe_t pipe) {
  if (pipe == PIPE_ALL) npusim::ascendc::block().barrier_all();
}
