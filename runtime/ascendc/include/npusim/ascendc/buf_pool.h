// SPDX-License-Identifier: Apache-2.0
// Memory management of the Ascend C twin beyond TPipe/TQue/TBuf:
//  - TBufPool<pos, bufIDSize>: a block of one local memory that TPipe::InitBufPool carves (or
//    shares with another pool); its InitBuffer hands out queue / TBuf buffers from it in order,
//    InitBufPool carves (or shares) a sub-pool, Reset makes the whole block free again (the
//    buffers handed out before must no longer be used). Pools sharing memory alias each other,
//    as on the device.
//  - EXTERN_IMPL_BUFPOOL(Name, pos, bufIDSize): the members a user-written pool class needs
//    (GetBufHandle, GetCurAddr/SetCurAddr, GetCurBufSize/SetCurBufSize, Reset, InitBufPool);
//    its own InitBuffer places buffers with TQue/TBuf::InitStartBufHandle / InitBufHandle.
//  - (GetTPipePtr() at global scope, as kernels call it, is in tpipe.h.)
// All of this is bookkeeping: no instruction is recorded. Addresses are byte offsets in the
// pool's physical memory; a buffer outside its pool or a pool that does not fit is a
// KernelError.
#pragma once

#include <cstdint>

#include "npusim/ascendc/tpipe.h"

namespace npusim::ascendc {

/// The state of one buffer pool.
struct PoolState {
  Mem mem = Mem::kNone;
  std::uint32_t base = 0;  // byte address of the pool in `mem`
  std::uint32_t size = 0;
  std::uint32_t cur = 0;   // next free byte address
  std::uint32_t bufs = 0;  // buffers handed out since the last Reset
  std::uint8_t handles[64] = {};

  void attach(Mem m, std::uint32_t at, std::uint32_t bytes) {
    mem = m;
    base = at;
    size = bytes;
    reset();
  }
  /// `bytes` at the start of `other` (a pool sharing its memory).
  void share(const PoolState& other, std::uint32_t bytes, const char* op) {
    if (other.mem == Mem::kNone) fail(op, "the pool to share has no memory yet");
    if (bytes > other.size) fail(op, "%u bytes cannot share a pool of %u bytes", bytes, other.size);
    attach(other.mem, other.base, bytes);
  }
  void reset() {
    cur = base;
    bufs = 0;
  }
  /// The next `bytes` of the pool.
  std::uint32_t take(std::uint32_t bytes, const char* op) {
    check(mem, cur, bytes, op);
    const std::uint32_t at = cur;
    cur += bytes;
    return at;
  }
  void check(Mem m, std::uint32_t addr, std::uint32_t bytes, const char* op) const {
    if (mem == Mem::kNone) fail(op, "the buffer pool has no memory (missing InitBufPool)");
    if (m != mem) fail(op, "a %s buffer in a %s pool", mem_name(m), mem_name(mem));
    if (addr < base || static_cast<std::uint64_t>(addr) + bytes > base + size) {
      fail(op, "%u bytes at address %u leave the pool [%u, %u)", bytes, addr, base, base + size);
    }
  }
  AscendC::TBufHandle handle(std::uint32_t index, std::uint32_t limit) {
    if (index >= limit || index >= sizeof handles)
      fail("GetBufHandle", "buffer %u of a pool of %u buffers", index, limit);
    return &handles[index];
  }
};

inline std::uint32_t align32(std::uint32_t len) { return (len + 31u) / 32u * 32u; }

}  // namespace npusim::ascendc

/// The members of a buffer pool class (see the file comment); ends in a member declaration.
#define EXTERN_IMPL_BUFPOOL(NAME, POSITION, BUF_ID_SIZE)                                         \
 public:                                                                                         \
  static constexpr ::AscendC::TPosition kPosition = POSITION;                                    \
  void Init() { twin_pool_ = ::npusim::ascendc::PoolState{}; }                                   \
  void Reset() { twin_pool_.reset(); }                                                           \
  ::AscendC::TBufHandle GetBufHandle(std::uint32_t index) {                                      \
    return twin_pool_.handle(index, BUF_ID_SIZE);                                                \
  }                                                                                              \
  std::uint32_t GetCurAddr() const { return twin_pool_.cur; }                                    \
  void SetCurAddr(std::uint32_t addr) { twin_pool_.cur = addr; }                                 \
  std::uint32_t GetCurBufSize() const { return twin_pool_.bufs; }                                \
  void SetCurBufSize(std::uint32_t count) { twin_pool_.bufs = count; }                           \
  template <class SubPool>                                                                       \
  bool InitBufPool(SubPool& sub, std::uint32_t len) {                                            \
    const std::uint32_t bytes = ::npusim::ascendc::align32(len);                                 \
    sub.twin_pool_.attach(twin_pool_.mem, twin_pool_.take(bytes, #NAME "::InitBufPool"), bytes); \
    return true;                                                                                 \
  }                                                                                              \
  template <class SubPool, class Share>                                                          \
  bool InitBufPool(SubPool& sub, std::uint32_t len, Share& share) {                              \
    sub.twin_pool_.share(share.twin_pool_, ::npusim::ascendc::align32(len),                      \
                         #NAME "::InitBufPool");                                                 \
    return true;                                                                                 \
  }                                                                                              \
  ::npusim::ascendc::PoolState twin_pool_

namespace AscendC {

template <TPosition kPos, std::uint32_t kBufIdSize = 4>
class TBufPool {
 public:
  /// num buffers of len bytes (rounded up to 32) for a queue, from the pool.
  template <class Que>
  bool InitBuffer(Que& que, std::uint8_t num, std::uint32_t len) {
    const std::uint32_t each = npusim::ascendc::align32(len);
    TBufHandle h = GetBufHandle(twin_pool_.bufs);
    const std::uint32_t at = twin_pool_.take(each * num, "TBufPool::InitBuffer");
    que.InitStartBufHandle(h, num, each);
    for (std::uint32_t i = 0; i < num; ++i) que.InitBufHandle(this, i, h, at + i * each, each);
    twin_pool_.bufs += num;
    return true;
  }
  template <TPosition kBufPos>
  bool InitBuffer(TBuf<kBufPos>& buf, std::uint32_t len) {
    const std::uint32_t each = npusim::ascendc::align32(len);
    TBufHandle h = GetBufHandle(twin_pool_.bufs);
    buf.InitStartBufHandle(h, 1, each);
    buf.InitBufHandle(this, 0, h, twin_pool_.take(each, "TBufPool::InitBuffer"), each);
    twin_pool_.bufs += 1;
    return true;
  }

  EXTERN_IMPL_BUFPOOL(TBufPool, kPos, kBufIdSize);
};

}  // namespace AscendC
// GetTPipePtr() at global scope: tpipe.h.
