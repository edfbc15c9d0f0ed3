// SPDX-License-Identifier: Apache-2.0
// CANN 9's Ascend C C API on the twin (dav-2201), part 1: state, system variables,
// synchronisation and GM <-> UB data movement. Kernels reach it through c_api/asc_simd.h;
// the vector compute part is c_api_vector.h.
//
// The C API works on raw __ubuf__ / __gm__ pointers. Its calls are the C++ API's instructions
// under other names and record the same instructions and quantities: asc_copy_gm2ub = DataCopy
// GM -> UB (MTE2), asc_copy_ub2gm = DataCopy UB -> GM (MTE3), asc_copy_ub2ub = DataCopy UB -> UB
// (V), the _align forms = DataCopyPad, the vector ops = the C++ ops (c_api_vector.h runs their
// twin bodies), asc_sync_notify / asc_sync_wait = SetFlag / WaitFlag, asc_sync and
// asc_sync_pipe(PIPE_ALL) = PipeBarrier<PIPE_ALL>. A `_sync` variant is the call followed by
// asc_sync (every pipe waits for it). Calls the twin does not model (cube, atomics, cache
// control, the dav-3510 register API, ...) are not declared: using one fails to compile.
//
// UB arrays: a kernel declares them as `__ubuf__ T name[N]`; CANN's compiler places those in
// UB, the twin (whose __ubuf__ is empty) on the block thread's stack. So a C API UB pointer is
// host memory outside the twin's UB arena: the twin cannot check its bounds or 32-byte alignment
// (a null pointer is a KernelError) and tracks no buffer for it; the instructions' order comes
// only from the kernel's own synchronisation, as on the device.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/device.h"
#include "npusim/ascendc/static_tensor.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/tpipe.h"

namespace npusim::ascendc::capi {

/// The twin pipe of a pipe_t; KernelError naming `op` for PIPE_ALL and the pipes dav-2201 lacks.
inline Pipe pipe_of(pipe_t p, const char* op) {
  switch (p) {
    case PIPE_S: return Pipe::kScalar;
    case PIPE_V: return Pipe::kVector;
    case PIPE_M: return Pipe::kCube;
    case PIPE_MTE1: return Pipe::kMte1;
    case PIPE_MTE2: return Pipe::kMte2;
    case PIPE_MTE3: return Pipe::kMte3;
    case PIPE_FIX: return Pipe::kFixpipe;
    default: fail(op, "pipe %d is not a single pipe of this core", static_cast<int>(p));
  }
}

// The copy bodies. They use the C++ API's pieces (check_gm_range, copy_bursts, record_copy:
// data_copy.h) but not its DataCopy / DataCopyPad bodies, which check their local ends against
// the UB arena; those bodies stay as they are, since any change to them changes how the
// compiler builds every kernel using them, and so the basic blocks the timing model counts.

/// One copy between C API pointers: `count` bursts of `len` bytes, burst i at src + i *
/// src_pitch and dst + i * dst_pitch; the GM end is checked, a UB end must not be null.
struct RawCopy {
  std::uint8_t* dst;
  const std::uint8_t* src;
  Mem dst_mem;
  Mem src_mem;
  DType dtype;
  bool gm_bursts;  // bursts counted as DataCopyPad GM -> UB counts them (by the GM side alone)
};

NPUSIM_TWIN_FN inline void raw_copy_body(BlockContext& ctx, const RawCopy& c, std::uint32_t count,
                                         std::uint64_t len, std::uint64_t src_pitch,
                                         std::uint64_t dst_pitch, const char* op) {
  if ((c.dst_mem == Mem::kUb && c.dst == nullptr) || (c.src_mem == Mem::kUb && c.src == nullptr))
    fail(op, "null UB address");
  if (count == 0 || len == 0) return;
  const bool gm_src = c.src_mem == Mem::kGm, gm_dst = c.dst_mem == Mem::kGm;
  if (gm_src) check_gm_range(ctx, c.src, (count - 1) * src_pitch + len, false, op);
  if (gm_dst) check_gm_range(ctx, c.dst, (count - 1) * dst_pitch + len, true, op);
  if (ctx.functional) copy_bursts(c.dst, c.src, count, len, src_pitch, dst_pitch);
  const bool one = c.gm_bursts ? src_pitch == len : src_pitch == len && dst_pitch == len;
  record_copy(ctx, Op::kCopy, c.dtype, c.src_mem, c.dst_mem, count * len, one ? 1 : count, -1, -1,
              gm_src ? c.src : gm_dst ? c.dst : nullptr, gm_src ? src_pitch : dst_pitch);
}

inline RawCopy raw(void* dst, Mem dst_mem, const void* src, Mem src_mem, DType dtype,
                   bool gm_bursts = false) {
  return {static_cast<std::uint8_t*>(dst), static_cast<const std::uint8_t*>(src), dst_mem, src_mem,
          dtype, gm_bursts};
}

inline void check_bursts(std::uint16_t n_burst, const char* op) {
  if (n_burst == 0 || n_burst > 4095) fail(op, "n_burst %u outside [1, 4095]", n_burst);
}

/// The bursts form of asc_copy_gm2ub / ub2gm / ub2ub: n_burst bursts of len_burst 32-byte
/// blocks, src_gap / dst_gap 32-byte blocks between bursts (DataCopy with DataCopyParams).
inline void copy_blocks(const RawCopy& c, std::uint16_t n_burst, std::uint16_t len_burst,
                        std::uint16_t src_gap, std::uint16_t dst_gap, const char* op) {
  check_bursts(n_burst, op);
  if (len_burst == 0) fail(op, "len_burst must be at least 1 (32-byte blocks)");
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint64_t len = len_burst * 32ull;
  raw_copy_body(ctx, c, n_burst, len, len + src_gap * 32ull, len + dst_gap * 32ull, op);
}

/// The size form: `size` bytes rounded down to whole 32-byte blocks, as the device moves them.
inline void copy_size(const RawCopy& c, std::uint32_t size, const char* op) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint64_t bytes = size / 32u * 32ull;
  raw_copy_body(ctx, c, 1, bytes, bytes, bytes, op);
}

/// Element types of the _align copies: 8, 16 and 32 bits (and 64 bits UB -> GM).
template <class T, std::size_t kMaxBytes>
constexpr bool kAlignType = (std::is_arithmetic_v<T> || IsSmallFloat<T>::value) &&
                            !std::is_same_v<T, bool> && sizeof(T) <= kMaxBytes;

/// asc_copy_gm2ub_align (DataCopyPad GM -> UB): n_burst rows of len_burst bytes, src_gap bytes
/// apart in GM; in UB every row starts 32-byte aligned and holds left_pad + data + right_pad
/// elements rounded up to 32 bytes (the padding is left as it was), rows dst_gap 32-byte blocks
/// apart.
template <class T>
void copy_in_align(T* dst, const T* src, std::uint16_t n_burst, std::uint32_t len_burst,
                   std::uint8_t left_pad, std::uint8_t right_pad, std::uint32_t src_gap,
                   std::uint32_t dst_gap, const char* op) {
  check_bursts(n_burst, op);
  if (dst == nullptr) fail(op, "null UB address");
  if (left_pad * sizeof(T) > 32 || right_pad * sizeof(T) > 32)
    fail(op, "padding of %u / %u elements exceeds 32 bytes", left_pad, right_pad);
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint64_t row = ((left_pad + right_pad) * sizeof(T) + len_burst + 31ull) / 32 * 32;
  raw_copy_body(ctx, raw(dst + left_pad, Mem::kUb, src, Mem::kGm, dtype_of<T>(), true), n_burst,
                len_burst, len_burst + static_cast<std::uint64_t>(src_gap), row + dst_gap * 32ull,
                op);
}

/// asc_copy_ub2gm_align (DataCopyPad UB -> GM): n_burst rows of len_burst bytes; UB rows start
/// 32-byte aligned, src_gap 32-byte blocks apart; GM rows dst_gap bytes apart. Padding applies
/// only to GM -> UB copies: a non-zero padding is a KernelError.
template <class T>
void copy_out_align(T* dst, const T* src, std::uint16_t n_burst, std::uint32_t len_burst,
                    std::uint8_t left_pad, std::uint8_t right_pad, std::uint32_t src_gap,
                    std::uint32_t dst_gap, const char* op) {
  check_bursts(n_burst, op);
  if (left_pad != 0 || right_pad != 0) fail(op, "padding applies only to GM -> UB copies");
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint64_t row = (len_burst + 31ull) / 32 * 32;
  raw_copy_body(ctx, raw(dst, Mem::kGm, src, Mem::kUb, dtype_of<T>()), n_burst, len_burst,
                row + src_gap * 32ull, len_burst + static_cast<std::uint64_t>(dst_gap), op);
}

}  // namespace npusim::ascendc::capi

// ---- state and system variables ----

/// Initialises the core's state at kernel start (AscendC::InitSocState: full vector mask).
inline void asc_init() { AscendC::InitSocState(); }
inline std::int64_t asc_get_block_idx() { return AscendC::GetBlockIdx(); }
inline std::int64_t asc_get_block_num() { return AscendC::GetBlockNum(); }

// ---- synchronisation ----

/// Every pipe waits for everything issued so far (PipeBarrier<PIPE_ALL>).
inline void asc_sync() { npusim::ascendc::block().barrier_all(); }
inline void asc_sync_vec() { asc_sync(); }

/// `tpipe`'s next instruction waits for what `pipe` had issued at the notify (SetFlag/WaitFlag).
inline void asc_sync_notify(pipe_t pipe, pipe_t tpipe, event_t id) {
  using npusim::ascendc::capi::pipe_of;
  npusim::ascendc::block().set_flag(pipe_of(pipe, "asc_sync_notify"),
                                    pipe_of(tpipe, "asc_sync_notify"), id);
}
inline void asc_sync_wait(pipe_t pipe, pipe_t tpipe, event_t id) {
  using npusim::ascendc::capi::pipe_of;
  npusim::ascendc::block().wait_flag(pipe_of(pipe, "asc_sync_wait"),
                                     pipe_of(tpipe, "asc_sync_wait"), id);
}

/// Barrier on one pipe (in order anyway in the trace model) or on all (PIPE_ALL); PIPE_S is not
/// allowed (the scalar unit orders itself).
inline void asc_sync_pipe(pipe_t pipe) {
  if (pipe == PIPE_S) npusim::ascendc::fail("asc_sync_pipe", "PIPE_S cannot be a barrier's pipe");
  if (pipe != PIPE_ALL) (void)npusim::ascendc::capi::pipe_of(pipe, "asc_sync_pipe");
  pipe_barrier(pipe);
}

namespace npusim::ascendc::capi {
/// asc_sync_mte2 / asc_sync_mte3: the other two vector-core pipes wait for `from` (event `id`).
inline void sync_from(Pipe from, Pipe other1, Pipe other2, int id) {
  BlockContext& ctx = block();
  ctx.set_flag(from, other1, id);
  ctx.set_flag(from, other2, id);
  ctx.wait_flag(from, other1, id);
  ctx.wait_flag(from, other2, id);
}
}  // namespace npusim::ascendc::capi

inline void asc_sync_mte2(int id) {
  using npusim::ascendc::Pipe;
  npusim::ascendc::capi::sync_from(Pipe::kMte2, Pipe::kMte3, Pipe::kVector, id);
}
inline void asc_sync_mte3(int id) {
  using npusim::ascendc::Pipe;
  npusim::ascendc::capi::sync_from(Pipe::kMte3, Pipe::kMte2, Pipe::kVector, id);
}

// ---- data movement ----

// asc_copy_gm2ub (MTE2), asc_copy_ub2gm (MTE3), asc_copy_ub2ub (V): `size` bytes (whole 32-byte
// blocks), or n_burst bursts of len_burst 32-byte blocks with gaps; the _sync form.
#define NPUSIM_CAPI_COPY(NAME, DST_Q, DST_MEM, SRC_Q, SRC_MEM)                                   \
  inline void NAME(DST_Q void* dst, SRC_Q void* src, std::uint32_t size) {                      \
    using namespace npusim::ascendc;                                                            \
    capi::copy_size(capi::raw(dst, Mem::DST_MEM, src, Mem::SRC_MEM, DType::kUInt8), size, #NAME); \
  }                                                                                             \
  inline void NAME(DST_Q void* dst, SRC_Q void* src, std::uint16_t n_burst,                     \
                   std::uint16_t len_burst, std::uint16_t src_gap, std::uint16_t dst_gap) {     \
    using namespace npusim::ascendc;                                                            \
    capi::copy_blocks(capi::raw(dst, Mem::DST_MEM, src, Mem::SRC_MEM, DType::kUInt8), n_burst,   \
                      len_burst, src_gap, dst_gap, #NAME);                                      \
  }                                                                                             \
  inline void NAME##_sync(DST_Q void* dst, SRC_Q void* src, std::uint32_t size) {               \
    NAME(dst, src, size);                                                                       \
    asc_sync();                                                                                 \
  }
NPUSIM_CAPI_COPY(asc_copy_gm2ub, __ubuf__, kUb, __gm__, kGm)
NPUSIM_CAPI_COPY(asc_copy_ub2gm, __gm__, kGm, __ubuf__, kUb)
NPUSIM_CAPI_COPY(asc_copy_ub2ub, __ubuf__, kUb, __ubuf__, kUb)
#undef NPUSIM_CAPI_COPY

// asc_copy_gm2ub_align (MTE2, copy_in_align) and asc_copy_ub2gm_align (MTE3, copy_out_align):
// the bursts form, the `size` form (one burst of `size` bytes) and the _sync form.
#define NPUSIM_CAPI_COPY_ALIGN(NAME, DST_Q, SRC_Q, MAX_BYTES, BODY)                              \
  template <class T>                                                                            \
  inline void NAME(DST_Q T* dst, SRC_Q T* src, std::uint16_t n_burst, std::uint32_t len_burst,  \
                   std::uint8_t left_padding_num, std::uint8_t right_padding_num,               \
                   std::uint32_t src_gap, std::uint32_t dst_gap) {                              \
    static_assert(npusim::ascendc::capi::kAlignType<T, MAX_BYTES>,                              \
                  #NAME ": element type not supported");                                        \
    npusim::ascendc::capi::BODY(dst, src, n_burst, len_burst, left_padding_num,                 \
                                right_padding_num, src_gap, dst_gap, #NAME);                    \
  }                                                                                             \
  template <class T>                                                                            \
  inline void NAME(DST_Q T* dst, SRC_Q T* src, std::uint32_t size) {                            \
    NAME(dst, src, 1, size, 0, 0, 0, 0);                                                        \
  }                                                                                             \
  template <class T>                                                                            \
  inline void NAME##_sync(DST_Q T* dst, SRC_Q T* src, std::uint32_t size) {                     \
    NAME(dst, src, size);                                                                       \
    asc_sync();                                                                                 \
  }
NPUSIM_CAPI_COPY_ALIGN(asc_copy_gm2ub_align, __ubuf__, __gm__, 4, copy_in_align)
NPUSIM_CAPI_COPY_ALIGN(asc_copy_ub2gm_align, __gm__, __ubuf__, 8, copy_out_align)
#undef NPUSIM_CAPI_COPY_ALIGN
