// SPDX-License-Identifier: Apache-2.0
// Data movement of the Ascend C twin: DataCopy (contiguous, DataCopyParams bursts, GM -> L1
// ND2NZ) and DataCopyPad. Each call copies the bytes and records one instruction on the pipe the
// hardware uses for that path: GM -> UB/L1/L0 = MTE2, UB -> GM/L1 = MTE3, L1 -> UB/L0 = MTE1,
// UB -> UB = V.
//
// In timing-only mode (BlockContext::functional false) the bodies check and record exactly as
// usual but move no bytes.
//
// Semantics kept from the device: the contiguous form moves count*sizeof(T) rounded DOWN to a
// multiple of 32 bytes; local addresses must be 32-byte aligned (KernelError otherwise).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"

namespace AscendC {

/// Strided copy: blockCount bursts of blockLen 32-byte blocks; gaps between bursts in 32-byte
/// blocks (older headers call srcGap/dstGap srcStride/dstStride; both names work).
struct DataCopyParams {
  DataCopyParams() : srcStride(0), dstStride(0) {}
  DataCopyParams(std::uint16_t count, std::uint16_t len, std::uint16_t src_gap,
                 std::uint16_t dst_gap)
      : blockCount(count), blockLen(len), srcStride(src_gap), dstStride(dst_gap) {}
  std::uint16_t blockCount = 1;
  std::uint16_t blockLen = 0;
  union {
    std::uint16_t srcStride;
    std::uint16_t srcGap;
  };
  union {
    std::uint16_t dstStride;
    std::uint16_t dstGap;
  };
};

/// DataCopyPad parameters: blockLen in BYTES; GM-side stride in bytes, UB-side in 32-byte blocks.
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(std::uint16_t count, std::uint32_t len, std::uint32_t src_stride,
                    std::uint32_t dst_stride, std::uint32_t reserved = 0)
      : blockCount(count),
        blockLen(len),
        srcStride(src_stride),
        dstStride(dst_stride),
        rsv(reserved) {}
  std::uint16_t blockCount = 1;
  std::uint32_t blockLen = 0;
  std::uint32_t srcStride = 0;
  std::uint32_t dstStride = 0;
  std::uint32_t rsv = 0;
};

template <class T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, std::uint8_t left, std::uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  std::uint8_t leftPadding = 0;
  std::uint8_t rightPadding = 0;
  T paddingValue = T();
};

/// GM (ND) -> L1 (NZ) conversion, see the DataCopy ND2NZ documentation.
struct Nd2NzParams {
  Nd2NzParams() = default;
  Nd2NzParams(std::uint16_t nd_num, std::uint16_t n_value, std::uint16_t d_value,
              std::uint16_t src_nd_matrix_stride, std::uint16_t src_d_value,
              std::uint16_t dst_nz_c0_stride, std::uint16_t dst_nz_n_stride,
              std::uint16_t dst_nz_matrix_stride)
      : ndNum(nd_num),
        nValue(n_value),
        dValue(d_value),
        srcNdMatrixStride(src_nd_matrix_stride),
        srcDValue(src_d_value),
        dstNzC0Stride(dst_nz_c0_stride),
        dstNzNStride(dst_nz_n_stride),
        dstNzMatrixStride(dst_nz_matrix_stride) {}
  std::uint16_t ndNum = 1;
  std::uint16_t nValue = 0;
  std::uint16_t dValue = 0;
  std::uint16_t srcNdMatrixStride = 0;
  std::uint16_t srcDValue = 0;
  std::uint16_t dstNzC0Stride = 0;
  std::uint16_t dstNzNStride = 0;
  std::uint16_t dstNzMatrixStride = 0;
};

}  // namespace AscendC

namespace npusim::ascendc {

// As in vector_ops.h: each copy is a kernel-facing shell (block(), ScalarPause) around a twin body
// marked NPUSIM_TWIN_FN; bodies see the two ends as raw pointers and memories (CopyEnds).

NPUSIM_TWIN_FN inline Pipe copy_pipe(Mem src, Mem dst) {
  if (src == Mem::kGm) return Pipe::kMte2;
  if (src == Mem::kL0c) return Pipe::kFixpipe;
  if (src == Mem::kL1) return Pipe::kMte1;
  if (src == Mem::kUb && dst == Mem::kUb) return Pipe::kVector;
  return Pipe::kMte3;
}

/// Byte offset of local data `p` in its memory; KernelError if it breaks the 32-byte rule.
NPUSIM_TWIN_FN inline std::uint64_t local_offset(BlockContext& ctx, const void* p, Mem mem,
                                                 const char* op) {
  if (p == nullptr) fail(op, "local tensor has no buffer");
  const auto offset =
      static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(p) - ctx.base(mem));
  if (offset % 32 != 0) {
    fail(op, "%s address %llu is not 32-byte aligned", mem_name(mem),
         static_cast<unsigned long long>(offset));
  }
  return offset;
}

/// Records one copy instruction.
/// `gm`/`gm_pitch`: the GM end's first byte and the distance between its bursts (0: contiguous);
/// nullptr for a copy between local memories.
NPUSIM_TWIN_FN inline void record_copy(BlockContext& ctx, Op op, DType dtype, Mem src, Mem dst,
                                       std::uint64_t bytes, std::uint32_t bursts,
                                       std::int32_t src_slot, std::int32_t dst_slot,
                                       const void* gm = nullptr, std::uint64_t gm_pitch = 0) {
  Instr ins;
  ins.gm_addr = reinterpret_cast<std::uintptr_t>(gm);
  ins.gm_pitch = bursts > 1 ? gm_pitch : 0;
  ins.pipe = copy_pipe(src, dst);
  ins.op = op;
  ins.dtype = dtype;
  ins.src = src;
  ins.dst = dst;
  ins.bytes = bytes;
  ins.count = bursts;
  ctx.emit(ins, {{src_slot, false}, {dst_slot, true}});
}

/// Copies `count` bursts of `len` bytes; burst i starts at src + i*src_pitch, dst + i*dst_pitch.
NPUSIM_TWIN_FN inline void copy_bursts(std::uint8_t* dst, const std::uint8_t* src,
                                       std::uint32_t count, std::uint64_t len,
                                       std::uint64_t src_pitch, std::uint64_t dst_pitch) {
  for (std::uint32_t i = 0; i < count; ++i)
    __builtin_memmove(dst + i * dst_pitch, src + i * src_pitch, len);
}

/// Bounds of a local destination/source: KernelError when `bytes` from `offset` leave memory.
NPUSIM_TWIN_FN inline void check_local(BlockContext& ctx, Mem mem, std::uint64_t offset,
                                       std::uint64_t bytes, const char* op) {
  if (offset + bytes > ctx.capacity(mem)) {
    fail(op, "%llu bytes at %s offset %llu run past the end of %s (%u bytes)",
         static_cast<unsigned long long>(bytes), mem_name(mem),
         static_cast<unsigned long long>(offset), mem_name(mem), ctx.capacity(mem));
  }
}

// One strided copy between a local tensor and GM or another local tensor.
struct CopyEnds {
  std::uint8_t* dst;
  const std::uint8_t* src;
  Mem dst_mem;
  Mem src_mem;
  std::int32_t dst_slot;
  std::int32_t src_slot;
  bool dst_local;  // a LocalTensor (32-byte aligned); else a GlobalTensor
  bool src_local;
};

NPUSIM_TWIN_FN inline void strided_copy(BlockContext& ctx, const CopyEnds& e, DType dtype,
                                        std::uint32_t count, std::uint64_t len,
                                        std::uint64_t src_pitch, std::uint64_t dst_pitch,
                                        const char* op) {
  if (count == 0 || len == 0) return;
  const std::uint64_t src_span = (count - 1) * src_pitch + len;
  const std::uint64_t dst_span = (count - 1) * dst_pitch + len;
  if (e.src_mem == Mem::kGm)
    check_gm_range(ctx, e.src, src_span, false, op);
  else
    check_local(ctx, e.src_mem, static_cast<std::uint64_t>(e.src - ctx.base(e.src_mem)), src_span,
                op);
  if (e.dst_mem == Mem::kGm)
    check_gm_range(ctx, e.dst, dst_span, true, op);
  else
    check_local(ctx, e.dst_mem, static_cast<std::uint64_t>(e.dst - ctx.base(e.dst_mem)), dst_span,
                op);
  if (ctx.functional) copy_bursts(e.dst, e.src, count, len, src_pitch, dst_pitch);
  const bool contiguous = src_pitch == len && dst_pitch == len;
  const bool gm_src = e.src_mem == Mem::kGm;
  const bool gm_dst = e.dst_mem == Mem::kGm;
  record_copy(ctx, Op::kCopy, dtype, e.src_mem, e.dst_mem, count * len, contiguous ? 1 : count,
              e.src_slot, e.dst_slot, gm_src ? e.src : gm_dst ? e.dst : nullptr,
              gm_src ? src_pitch : dst_pitch);
}

/// DataCopy's body: the 32-byte rule for local ends (dst first), then the strided copy.
NPUSIM_TWIN_FN inline void copy_body(BlockContext& ctx, const CopyEnds& e, DType dtype,
                                     std::uint32_t count, std::uint64_t len,
                                     std::uint64_t src_pitch, std::uint64_t dst_pitch) {
  if (e.dst_local) local_offset(ctx, e.dst, e.dst_mem, "DataCopy");
  if (e.src_local) local_offset(ctx, e.src, e.src_mem, "DataCopy");
  strided_copy(ctx, e, dtype, count, len, src_pitch, dst_pitch, "DataCopy");
}

template <class T>
CopyEnds ends(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src) {
  return {reinterpret_cast<std::uint8_t*>(dst.twin_data()),
          reinterpret_cast<const std::uint8_t*>(src.GetPhyAddr()),
          dst.mem(),
          Mem::kGm,
          dst.twin_slot(),
          -1,
          true,
          false};
}
template <class T>
CopyEnds ends(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src) {
  return {reinterpret_cast<std::uint8_t*>(dst.GetPhyAddr()),
          reinterpret_cast<const std::uint8_t*>(src.twin_data()),
          Mem::kGm,
          src.mem(),
          -1,
          src.twin_slot(),
          false,
          true};
}
template <class T>
CopyEnds ends(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src) {
  return {reinterpret_cast<std::uint8_t*>(dst.twin_data()),
          reinterpret_cast<const std::uint8_t*>(src.twin_data()),
          dst.mem(),
          src.mem(),
          dst.twin_slot(),
          src.twin_slot(),
          true,
          true};
}

template <class D, class S>
void copy_contiguous(const D& dst, const S& src, std::uint32_t count) {
  using T = typename D::PrimType;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * sizeof(T) / 32 * 32;
  copy_body(ctx, ends(dst, src), dtype_of<T>(), 1, bytes, bytes, bytes);
}

template <class D, class S>
void copy_params(const D& dst, const S& src, const AscendC::DataCopyParams& p) {
  using T = typename D::PrimType;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint64_t len = p.blockLen * 32ull;
  copy_body(ctx, ends(dst, src), dtype_of<T>(), p.blockCount, len, len + p.srcGap * 32ull,
            len + p.dstGap * 32ull);
}

/// DataCopy GM (ND) -> L1 (NZ), see AscendC::DataCopy(..., Nd2NzParams).
template <class T>
NPUSIM_TWIN_FN void nd2nz_body(BlockContext& ctx, T* dst, std::uint32_t dst_size, Mem dst_mem,
                               std::int32_t dst_slot, const T* src,
                               const AscendC::Nd2NzParams& p) {
  local_offset(ctx, dst, dst_mem, "DataCopy(Nd2Nz)");
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  constexpr std::uint32_t kC0 = 32 / sizeof(T);
  const std::uint32_t blocks = (p.dValue + kC0 - 1) / kC0;
  for (std::uint32_t i = 0; i < p.ndNum; ++i) {
    const T* s = src + static_cast<std::uint64_t>(i) * p.srcNdMatrixStride;
    check_gm_range(ctx, s, ((p.nValue - 1ull) * p.srcDValue + p.dValue) * sizeof(T), false,
                   "DataCopy(Nd2Nz)");
    const std::uint64_t base = static_cast<std::uint64_t>(i) * p.dstNzMatrixStride;
    if (!ctx.functional) {  // timing-only: the bounds of the last (highest) block, no copy
      const std::uint64_t d =
          base + ((blocks - 1ull) * p.dstNzC0Stride + (p.nValue - 1ull) * p.dstNzNStride) * kC0;
      if (d + kC0 > dst_size)
        fail("DataCopy(Nd2Nz)", "destination element %llu beyond the tensor (%u elements)",
             static_cast<unsigned long long>(d + kC0), dst_size);
      continue;
    }
    for (std::uint32_t c = 0; c < blocks; ++c) {
      for (std::uint32_t r = 0; r < p.nValue; ++r) {
        const std::uint64_t d =
            base + (static_cast<std::uint64_t>(c) * p.dstNzC0Stride + r * p.dstNzNStride) * kC0;
        if (d + kC0 > dst_size)
          fail("DataCopy(Nd2Nz)", "destination element %llu beyond the tensor (%u elements)",
               static_cast<unsigned long long>(d + kC0), dst_size);
        const T* row = s + static_cast<std::uint64_t>(r) * p.srcDValue + c * kC0;
        if ((c + 1) * kC0 <= p.dValue) {  // a whole block of the row
          __builtin_memcpy(static_cast<void*>(dst + d), row, kC0 * sizeof(T));
          continue;
        }
        for (std::uint32_t e = 0; e < kC0; ++e) {
          if (c * kC0 + e < p.dValue) {
            dst[d + e] = row[e];
          } else {
            __builtin_memset(static_cast<void*>(dst + d + e), 0, sizeof(T));  // T()
          }
        }
      }
    }
  }
  // GM side: nValue rows of dValue elements, srcDValue apart (the ndNum matrices are taken as
  // following each other at that pitch: exact for ndNum 1, the common case).
  record_copy(ctx, Op::kCopyNd2Nz, dtype_of<T>(), Mem::kGm, dst_mem,
              static_cast<std::uint64_t>(p.ndNum) * p.nValue * p.dValue * sizeof(T),
              static_cast<std::uint32_t>(p.ndNum) * p.nValue, -1, dst_slot, src,
              static_cast<std::uint64_t>(p.srcDValue) * sizeof(T));
}

/// isPad false: SetPadValue's register fills the row's padding when the row has a left or right
/// padding and the register was set (otherwise the padding bytes stay as they were).
NPUSIM_TWIN_FN inline bool pad_register_fills(const BlockContext& ctx, std::uint8_t left,
                                              std::uint8_t right) {
  return ctx.regs.pad_value_set && (left != 0 || right != 0);
}

/// Fills `row` bytes at r with the padding register's low `elem` bytes, element by element.
NPUSIM_TWIN_FN __attribute__((noinline)) inline void fill_pad_register(const BlockContext& ctx,
                                                                       std::uint8_t* r,
                                                                       std::uint64_t row,
                                                                       std::uint64_t elem) {
  for (std::uint64_t e = 0; e + elem <= row; e += elem)
    __builtin_memcpy(r + e, &ctx.regs.pad_value, elem);
}

/// DataCopyPad GM -> UB, see AscendC::DataCopyPad.
template <class T>
NPUSIM_TWIN_FN void pad_in_body(BlockContext& ctx, T* dst, Mem dst_mem, std::int32_t dst_slot,
                                const T* src, const AscendC::DataCopyExtParams& p,
                                const AscendC::DataCopyPadExtParams<T>& pad) {
  const std::uint64_t off = local_offset(ctx, dst, dst_mem, "DataCopyPad");
  if (p.blockCount == 0 || p.blockLen == 0) return;
  const std::uint64_t left = pad.leftPadding * sizeof(T);
  const std::uint64_t row = (left + p.blockLen + pad.rightPadding * sizeof(T) + 31) / 32 * 32;
  const std::uint64_t dst_pitch = row + p.dstStride * 32ull;
  const std::uint64_t src_pitch = p.blockLen + static_cast<std::uint64_t>(p.srcStride);
  check_gm_range(ctx, src, (p.blockCount - 1) * src_pitch + p.blockLen, false, "DataCopyPad");
  check_local(ctx, dst_mem, off, (p.blockCount - 1) * dst_pitch + row, "DataCopyPad");
  auto* d = reinterpret_cast<std::uint8_t*>(dst);
  const auto* s = reinterpret_cast<const std::uint8_t*>(src);
  for (std::uint32_t i = 0; ctx.functional && i < p.blockCount; ++i) {
    std::uint8_t* r = d + i * dst_pitch;
    if (pad.isPad) {
      for (std::uint64_t e = 0; e < row / sizeof(T); ++e)
        __builtin_memcpy(r + e * sizeof(T), &pad.paddingValue, sizeof(T));
    } else if (pad_register_fills(ctx, pad.leftPadding, pad.rightPadding)) {
      fill_pad_register(ctx, r, row, sizeof(T));
    }
    __builtin_memmove(r + left, s + i * src_pitch, p.blockLen);
  }
  record_copy(ctx, Op::kCopy, dtype_of<T>(), Mem::kGm, dst_mem,
              static_cast<std::uint64_t>(p.blockCount) * p.blockLen,
              p.srcStride == 0 ? 1u : p.blockCount, -1, dst_slot, src, src_pitch);
}

/// DataCopyPad UB -> GM, see AscendC::DataCopyPad.
NPUSIM_TWIN_FN inline void pad_out_body(BlockContext& ctx, const CopyEnds& e, DType dtype,
                                        const AscendC::DataCopyExtParams& p) {
  local_offset(ctx, e.src, e.src_mem, "DataCopyPad");
  const std::uint64_t row = (p.blockLen + 31ull) / 32 * 32;
  strided_copy(ctx, e, dtype, p.blockCount, p.blockLen, row + p.srcStride * 32ull,
               p.blockLen + static_cast<std::uint64_t>(p.dstStride), "DataCopyPad");
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, std::uint32_t count) {
  npusim::ascendc::copy_contiguous(dst, src, count);
}
template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, std::uint32_t count) {
  npusim::ascendc::copy_contiguous(dst, src, count);
}
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint32_t count) {
  npusim::ascendc::copy_contiguous(dst, src, count);
}
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                     const DataCopyParams& p) {
  npusim::ascendc::copy_params(dst, src, p);
}
template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                     const DataCopyParams& p) {
  npusim::ascendc::copy_params(dst, src, p);
}
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     const DataCopyParams& p) {
  npusim::ascendc::copy_params(dst, src, p);
}

/// GM (ND) -> L1 (NZ): row r, column block c of ND matrix i lands at
/// dst[i*dstNzMatrixStride + c*dstNzC0Stride*C0 + r*dstNzNStride*C0] (C0 = 32 bytes of T);
/// columns past dValue in the last block are zero-filled.
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  nd2nz_body(ctx, dst.twin_data(), dst.GetSize(), dst.mem(), dst.twin_slot(), src.GetPhyAddr(), p);
}

/// GM -> UB with byte-granular bursts (blockLen bytes each, GM bursts srcStride bytes apart).
/// In UB every row is leftPadding + data + rightPadding elements rounded up to 32 bytes, rows
/// dstStride 32-byte blocks apart; with isPad the padding is filled with paddingValue, without it
/// (and a left or right padding) with SetPadValue's value when the kernel set one.
template <class T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                        const DataCopyExtParams& p, const DataCopyPadExtParams<T>& pad = {}) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  pad_in_body(ctx, dst.twin_data(), dst.mem(), dst.twin_slot(), src.GetPhyAddr(), p, pad);
}

/// UB -> GM with byte-granular bursts: UB rows start 32-byte aligned (srcStride extra 32-byte
/// blocks apart), GM bursts are dstStride bytes apart.
template <class T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                        const DataCopyExtParams& p) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  pad_out_body(ctx, ends(dst, src), dtype_of<T>(), p);
}

}  // namespace AscendC
