// SPDX-License-Identifier: Apache-2.0
// Compare-mask, block-gather and transpose ops (V pipe) of the Ascend C twin, and SetPadValue:
//   Compare(src0, src1, mode, mask, BinaryRepeatParams)  one repeat; the active elements' result
//        bits go to the block's CMPMASK register (others 0); GetCmpMask(dst) copies its 16 bytes
//        to dst, SetCmpMask(src) loads them from src;
//   Compare(dst, src0, src1, mode, mask, repeatTime, BinaryRepeatParams)  repeat form: result bit
//        of element e of repeat r at bit r * per + e of dst (inactive bits 0);
//   Gatherb(dst, src0, offset, repeatTime, GatherRepeatParams)  block j of repeat r of dst (at
//        r * dstRepStride + j * dstBlkStride blocks) = the 32 bytes at byte offset[8r + j] of src0;
//   Transpose(dst, src)  one 16 x 16 matrix of a 2-byte type;
//   Transpose(dst, src, tmp, TransposeParamsExt)  NCHW <-> NHWC of a 2-byte type;
//   TransDataTo5HD<T>(dstList, srcList, params)  2-byte types: per repeat, the 32-byte block of
//        each of 16 source addresses (+ r * srcRepStride blocks) is row i of a 16 x 16 matrix;
//        column j goes to destination address j (+ r * dstRepStride blocks). Addresses are UB
//        byte addresses (GetPhyAddr()); no tensor, so the instruction carries no buffer deps;
//   Compares(dst, src0, scalar, mode, count)  bit i of dst = src0[i] <mode> scalar;
//   Select(dst, selMask, src0, scalar, VSEL_TENSOR_SCALAR_MODE, count)  bit i ? src0[i] : scalar;
//   Select<T, VSEL_CMPMASK_SPR>(dst, src0, src1, repeatTime, BinaryRepeatParams)  the lanes the
//        vector mask enables (SetVectorMask) take src0 where bit e of the CMPMASK register
//        (Compare without dst, SetCmpMask) is set, else src1, in every repeat; other lanes keep
//        dst. One V instruction of the active lanes;
//   SetPadValue(v)  sets the block's MTE2 padding register (no instruction); DataCopyPad GM -> UB
//        with isPad false and a left or right padding fills the padding with it.
// Recorded as one V instruction each (Compare as Max, the moves as Copy), count = elements.
#pragma once

#include <cstdint>
#include <cstring>

#include "npusim/ascendc/attention_ops.h"
#include "npusim/ascendc/shape_ops.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_mask.h"

namespace AscendC {

struct GatherRepeatParams {
  GatherRepeatParams() = default;
  GatherRepeatParams(std::uint16_t dst_blk, std::uint16_t dst_rep)
      : dstBlkStride(dst_blk), dstRepStride(dst_rep) {}
  std::uint16_t dstBlkStride = 1;
  std::uint16_t dstRepStride = 8;
};

enum class TransposeType : std::uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_ND2ND_012_WITH_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_ND2ND_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW
};

struct TransposeParamsExt {
  std::uint16_t nSize = 0;
  std::uint16_t cSize = 0;
  std::uint16_t hSize = 0;
  std::uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

struct TransDataTo5HDParams {
  TransDataTo5HDParams() = default;
  TransDataTo5HDParams(bool dst_high, bool src_high, std::uint8_t repeats, std::uint16_t dst_rep,
                       std::uint16_t src_rep)
      : dstHighHalf(dst_high), srcHighHalf(src_high), repeatTimes(repeats),
        dstRepStride(dst_rep), srcRepStride(src_rep) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  std::uint8_t repeatTimes = 1;
  std::uint16_t dstRepStride = 0;
  std::uint16_t srcRepStride = 0;
};

}  // namespace AscendC

namespace npusim::ascendc {

/// Compare over lanes: result bit of lane (r, e) at bit r * per + e of `out` (out_bytes long).
template <class T>
NPUSIM_TWIN_FN void compare_lanes(BlockContext& ctx, std::uint8_t* out, std::uint64_t out_bytes,
                                  std::int32_t out_slot, Operand<T> a, Operand<T> b,
                                  AscendC::CMPMODE mode, const Lanes& l,
                                  const AscendC::BinaryRepeatParams& p) {
  constexpr std::uint32_t kB = 32 / sizeof(T);
  check_lanes(a, l, p.src0BlkStride, p.src0RepStride, "Compare", "src0");
  check_lanes(b, l, p.src1BlkStride, p.src1RepStride, "Compare", "src1");
  if (out == nullptr) fail("Compare", "dst has no buffer");
  if ((static_cast<std::uint64_t>(l.repeats) * l.per + 7) / 8 > out_bytes)
    fail("Compare", "dst: %u repeats of result bits do not fit its %llu bytes", l.repeats,
         static_cast<unsigned long long>(out_bytes));
  for (std::uint32_t r = 0; ctx.functional && r < l.repeats; ++r) {
    for (std::uint32_t e = 0; e < l.per; ++e) {
      const std::uint64_t bit = static_cast<std::uint64_t>(r) * l.per + e;
      const bool on = l.on(r, e) &&
                      compare_one(a.data[lane_index(r, e, p.src0BlkStride, p.src0RepStride, kB)],
                                  b.data[lane_index(r, e, p.src1BlkStride, p.src1RepStride, kB)],
                                  mode);
      const auto m = static_cast<std::uint8_t>(1u << (bit % 8));
      out[bit / 8] = static_cast<std::uint8_t>(on ? out[bit / 8] | m : out[bit / 8] & ~m);
    }
  }
  record_vector(ctx, Op::kMax, dtype_of<T>(), dtype_of<T>(), static_cast<std::int32_t>(l.count()),
                sizeof(T), {{out_slot, true}, {a.slot, false}, {b.slot, false}});
}

/// Select over lanes with the CMPMASK register: lane (r, e) = bit e ? src0 : src1.
template <class T>
NPUSIM_TWIN_FN __attribute__((noinline)) void select_reg_lanes(
    BlockContext& ctx, Operand<T> dst, Operand<T> a, Operand<T> b, const Lanes& l,
    const AscendC::BinaryRepeatParams& p) {
  constexpr std::uint32_t kB = 32 / sizeof(T);
  check_lanes(dst, l, p.dstBlkStride, p.dstRepStride, "Select", "dst");
  check_lanes(a, l, p.src0BlkStride, p.src0RepStride, "Select", "src0");
  check_lanes(b, l, p.src1BlkStride, p.src1RepStride, "Select", "src1");
  const std::uint8_t* reg = ctx.regs.cmp_mask;
  for (std::uint32_t r = 0; ctx.functional && r < l.repeats; ++r) {
    for (std::uint32_t e = 0; e < l.per; ++e) {
      if (!l.on(r, e)) continue;
      const bool take_a = ((reg[e / 8] >> (e % 8)) & 1u) != 0;
      dst.data[lane_index(r, e, p.dstBlkStride, p.dstRepStride, kB)] =
          take_a ? a.data[lane_index(r, e, p.src0BlkStride, p.src0RepStride, kB)]
                 : b.data[lane_index(r, e, p.src1BlkStride, p.src1RepStride, kB)];
    }
  }
  record_vector(ctx, Op::kCopy, dtype_of<T>(), dtype_of<T>(), static_cast<std::int32_t>(l.count()),
                sizeof(T), {{dst.slot, true}, {a.slot, false}, {b.slot, false}});
}

/// Copies n bytes between UB and the CMPMASK register, one V instruction.
NPUSIM_TWIN_FN inline void cmp_mask_move(BlockContext& ctx, Operand<std::uint8_t> t, bool to_reg) {
  check_operand(t, 16, to_reg ? "SetCmpMask" : "GetCmpMask", to_reg ? "src" : "dst");
  if (ctx.functional) {
    if (to_reg) __builtin_memcpy(ctx.regs.cmp_mask, t.data, 16);
    else __builtin_memcpy(t.data, ctx.regs.cmp_mask, 16);
  }
  record_vector(ctx, Op::kCopy, DType::kUInt8, DType::kUInt8, 16, 1, {{t.slot, !to_reg}});
}

/// Compares / Select against a scalar (the tensor forms are shape_ops.h's).
template <class T>
NPUSIM_TWIN_FN void scalar_cmp_sel_body(BlockContext& ctx, Operand<T> dst,
                                        Operand<std::uint8_t> mask, Operand<T> a, T s,
                                        const AscendC::CMPMODE* cmp, std::uint32_t count) {
  const auto n = static_cast<std::int32_t>(count);
  const char* name = cmp != nullptr ? "Compares" : "Select";
  check_operand(a, n, name, "src0");
  check_operand(mask, static_cast<std::int32_t>((count + 7) / 8), name, "mask");
  if (cmp == nullptr) check_operand(dst, n, name, "dst");
  for (std::uint32_t i = 0; ctx.functional && i < count; ++i) {
    const auto bit = static_cast<std::uint8_t>(1u << (i % 8));
    if (cmp == nullptr) {
      dst.data[i] = (mask.data[i / 8] & bit) != 0 ? a.data[i] : s;
    } else if (compare_one(a.data[i], s, *cmp)) {
      mask.data[i / 8] = static_cast<std::uint8_t>(mask.data[i / 8] | bit);
    } else {
      mask.data[i / 8] = static_cast<std::uint8_t>(mask.data[i / 8] & ~bit);
    }
  }
  record_vector(ctx, cmp != nullptr ? Op::kMax : Op::kCopy, dtype_of<T>(), dtype_of<T>(), n,
                sizeof(T), {{cmp != nullptr ? mask.slot : dst.slot, true}, {a.slot, false}});
}

template <class T>
NPUSIM_TWIN_FN void gatherb_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                                 Operand<std::uint32_t> offset, std::uint32_t repeats,
                                 const AscendC::GatherRepeatParams& p) {
  constexpr std::uint32_t kB = 32 / sizeof(T);
  check_operand(offset, static_cast<std::int32_t>(repeats * 8), "Gatherb", "offset");
  if (dst.data == nullptr || src.data == nullptr) fail("Gatherb", "tensor has no buffer");
  const std::uint64_t last = repeats == 0 ? 0 :
      ((repeats - 1ull) * p.dstRepStride + 7ull * p.dstBlkStride) * kB + kB;
  if (last > dst.size) fail("Gatherb", "dst: the repeats reach element %llu of %u",
                            static_cast<unsigned long long>(last), dst.size);
  const std::uint64_t src_bytes = static_cast<std::uint64_t>(src.size) * sizeof(T);
  for (std::uint32_t r = 0; ctx.functional && r < repeats; ++r) {
    for (std::uint32_t j = 0; j < 8; ++j) {
      const std::uint64_t at = offset.data[r * 8 + j];
      if (at % 32 != 0 || at + 32 > src_bytes)
        fail("Gatherb", "block offset %llu is unaligned or beyond src (%llu bytes)",
             static_cast<unsigned long long>(at), static_cast<unsigned long long>(src_bytes));
      T* d = dst.data + (static_cast<std::uint64_t>(r) * p.dstRepStride + j * p.dstBlkStride) * kB;
      __builtin_memcpy(static_cast<void*>(d), reinterpret_cast<const std::uint8_t*>(src.data) + at,
                       32);
    }
  }
  record_vector(ctx, Op::kCopy, dtype_of<T>(), dtype_of<T>(),
                static_cast<std::int32_t>(repeats * 8 * kB), sizeof(T),
                {{dst.slot, true}, {src.slot, false}, {offset.slot, false}});
}

/// dst = src with its axes permuted: element (a0, a1, a2, a3) of src (sizes n[0..3]) goes to
/// position sum(a[perm[k]] * stride_k) of dst, 2-byte elements.
NPUSIM_TWIN_FN inline void permute4(std::uint16_t* dst, const std::uint16_t* src,
                                    const std::uint32_t (&n)[4], const std::uint32_t (&perm)[4]) {
  std::uint32_t a[4];
  for (a[0] = 0; a[0] < n[0]; ++a[0])
    for (a[1] = 0; a[1] < n[1]; ++a[1])
      for (a[2] = 0; a[2] < n[2]; ++a[2])
        for (a[3] = 0; a[3] < n[3]; ++a[3]) {
          std::uint64_t o = 0;
          for (int k = 0; k < 4; ++k) o = o * n[perm[k]] + a[perm[k]];
          dst[o] = src[((static_cast<std::uint64_t>(a[0]) * n[1] + a[1]) * n[2] + a[2]) * n[3] +
                       a[3]];
        }
}

template <class T>
NPUSIM_TWIN_FN void transpose_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                                   std::int32_t tmp_slot, const std::uint32_t (&n)[4],
                                   const std::uint32_t (&perm)[4]) {
  const std::uint64_t total = static_cast<std::uint64_t>(n[0]) * n[1] * n[2] * n[3];
  check_operand(dst, static_cast<std::int32_t>(total), "Transpose", "dst");
  check_operand(src, static_cast<std::int32_t>(total), "Transpose", "src");
  if (dst.data == src.data) fail("Transpose", "dst and src must be different tensors");
  if (ctx.functional) {
    permute4(reinterpret_cast<std::uint16_t*>(dst.data),
             reinterpret_cast<const std::uint16_t*>(src.data), n, perm);
  }
  record_vector(ctx, Op::kCopy, dtype_of<T>(), dtype_of<T>(), static_cast<std::int32_t>(total),
                sizeof(T), {{dst.slot, true}, {src.slot, false}, {tmp_slot, true}});
}

NPUSIM_TWIN_FN inline void trans_5hd_body(BlockContext& ctx, DType dtype,
                                          const std::uint64_t* dst_list,
                                          const std::uint64_t* src_list,
                                          const AscendC::TransDataTo5HDParams& p) {
  std::uint8_t* ub = ctx.base(Mem::kUb);
  const std::uint64_t cap = ctx.capacity(Mem::kUb);
  for (std::uint32_t i = 0; i < 16; ++i) {
    const std::uint64_t s_end = src_list[i] + (p.repeatTimes - 1ull) * p.srcRepStride * 32 + 32;
    const std::uint64_t d_end = dst_list[i] + (p.repeatTimes - 1ull) * p.dstRepStride * 32 + 32;
    if (p.repeatTimes > 0 && (s_end > cap || d_end > cap))
      fail("TransDataTo5HD", "address list entry %u leaves the %llu-byte UB", i,
           static_cast<unsigned long long>(cap));
  }
  for (std::uint32_t r = 0; ctx.functional && r < p.repeatTimes; ++r) {
    std::uint16_t m[16][16];
    for (std::uint32_t i = 0; i < 16; ++i)
      __builtin_memcpy(m[i], ub + src_list[i] + r * p.srcRepStride * 32ull, 32);
    for (std::uint32_t j = 0; j < 16; ++j) {
      std::uint16_t col[16];
      for (std::uint32_t i = 0; i < 16; ++i) col[i] = m[i][j];
      __builtin_memcpy(ub + dst_list[j] + r * p.dstRepStride * 32ull, col, 32);
    }
  }
  record_vector(ctx, Op::kCopy, dtype, dtype, static_cast<std::int32_t>(p.repeatTimes * 256u), 2,
                {});
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T, bool kSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const std::uint64_t mask, const BinaryRepeatParams& repeatParams) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const Lanes l = lanes_of(ctx, kSetMask, nullptr, mask, 1, 256 / sizeof(T), "Compare");
  compare_lanes(ctx, ctx.regs.cmp_mask, 16, -1, operand(src0), operand(src1), cmpMode, l,
                repeatParams);
}

template <class T, class U, bool kSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                    const LocalTensor<T>& src1, CMPMODE cmpMode, const std::uint64_t mask,
                    std::uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const Lanes l = lanes_of(ctx, kSetMask, nullptr, mask, repeatTime, 256 / sizeof(T), "Compare");
  compare_lanes(ctx, reinterpret_cast<std::uint8_t*>(dst.twin_data()), dst.GetLength(),
                dst.twin_slot(), operand(src0), operand(src1), cmpMode, l, repeatParams);
}

/// The mask-register form: the vector mask (SetVectorMask) picks the lanes, the CMPMASK register
/// the source of each (VSEL_CMPMASK_SPR only; the other modes need a selMask tensor).
template <class T, SELMODE kSelMode>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, std::uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  if (kSelMode != SELMODE::VSEL_CMPMASK_SPR)
    fail("Select", "without a selMask tensor only VSEL_CMPMASK_SPR is supported");
  const Lanes l = lanes_of(ctx, false, nullptr, 0, repeatTime, 256 / sizeof(T), "Select");
  select_reg_lanes(ctx, operand(dst), operand(src0), operand(src1), l, repeatParams);
}

/// Bit i of dst (LSB first in each byte) = src0[i] <mode> src1Scalar.
template <class T, class U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                     CMPMODE cmpMode, std::uint32_t count) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  scalar_cmp_sel_body(ctx, Operand<T>{nullptr, 0, -1},
                      operand(dst.template ReinterpretCast<std::uint8_t>()), operand(src0),
                      src1Scalar, &cmpMode, count);
}

/// dst[i] = selMask bit i ? src0[i] : src1 (VSEL_TENSOR_SCALAR_MODE).
template <class T, class U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                   const LocalTensor<T>& src0, T src1, SELMODE selMode, std::uint32_t count) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE)
    fail("Select", "a scalar src1 needs VSEL_TENSOR_SCALAR_MODE");
  scalar_cmp_sel_body(ctx, operand(dst), operand(selMask.template ReinterpretCast<std::uint8_t>()),
                      operand(src0), src1, static_cast<const CMPMODE*>(nullptr), count);
}

template <class T>
inline void GetCmpMask(const LocalTensor<T>& dst) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  cmp_mask_move(ctx, operand(dst.template ReinterpretCast<std::uint8_t>()), false);
}

template <class T>
inline void SetCmpMask(const LocalTensor<T>& src) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  cmp_mask_move(ctx, operand(src.template ReinterpretCast<std::uint8_t>()), true);
}

template <class T>
inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                    const LocalTensor<std::uint32_t>& offset, const std::uint8_t repeatTime,
                    const GatherRepeatParams& repeatParams) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  gatherb_body(ctx, operand(dst), operand(src0), operand(offset), repeatTime, repeatParams);
}

/// Transposes one 16 x 16 matrix of a 2-byte type.
template <class T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
  static_assert(sizeof(T) == 2, "Transpose(dst, src): 16 x 16 matrices of 2-byte types");
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint32_t n[4] = {1, 1, 16, 16}, perm[4] = {0, 1, 3, 2};
  transpose_body(ctx, operand(dst), operand(src), -1, n, perm);
}

/// NCHW <-> NHWC of a 2-byte type (sharedTmpBuffer is only reserved).
template <class T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                      const TransposeParamsExt& params) {
  static_assert(sizeof(T) == 2, "Transpose: the simulator supports 2-byte types");
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const bool to_nhwc = params.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
  if (!to_nhwc && params.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW)
    fail("Transpose", "only TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW are supported");
  const std::uint32_t nchw[4] = {params.nSize, params.cSize, params.hSize, params.wSize};
  const std::uint32_t nhwc[4] = {params.nSize, params.hSize, params.wSize, params.cSize};
  const std::uint32_t to[4] = {0, 2, 3, 1}, back[4] = {0, 3, 1, 2};
  transpose_body(ctx, operand(dst), operand(src), sharedTmpBuffer.twin_slot(),
                 to_nhwc ? nchw : nhwc, to_nhwc ? to : back);
}

template <class T>
inline void TransDataTo5HD(const std::uint64_t dstList[16], const std::uint64_t srcList[16],
                           const TransDataTo5HDParams& params) {
  static_assert(sizeof(T) == 2, "TransDataTo5HD: the simulator supports 2-byte types");
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  if (params.dstHighHalf || params.srcHighHalf)
    fail("TransDataTo5HD", "dstHighHalf/srcHighHalf apply to 1-byte types only");
  trans_5hd_body(ctx, dtype_of<T>(), dstList, srcList, params);
}

template <class T, TPosition kPos = TPosition::MAX>
inline void SetPadValue(T paddingValue) {
  static_assert(sizeof(T) <= 8, "SetPadValue: at most 8-byte types");
  auto& regs = npusim::ascendc::block().regs;
  regs.pad_value = 0;
  std::memcpy(&regs.pad_value, &paddingValue, sizeof(T));
  regs.pad_value_set = true;
}

}  // namespace AscendC
