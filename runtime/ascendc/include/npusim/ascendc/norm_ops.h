// SPDX-License-Identifier: Apache-2.0
// Ascend C high-level reduction and broadcast APIs of the twin (used by the norm operators,
// runtime/aclnn/norm_kernels.cpp), each computing on UB data and recording ONE V instruction:
//
//   Sum(dst, src[, sharedTmp], SumParams{outter, inner, n})
//       dst[i] = sum of src[i * inner + j], j < n, for each of the outter rows (inner: the row
//       pitch in elements, 32-byte aligned; n <= inner valid elements). Pairwise sum, each partial
//       rounded to T (as ReduceSum).                       count = outter * inner elements
//   ReduceMax / ReduceMin / ReduceSum <T, Pattern::Reduce::AR | RA>(dst, src[, sharedTmp],
//                                                                   srcShape, pad)
//       srcShape = {rows, cols}; AR reduces each row (dst[rows]), RA each column (dst[cols]).
//       srcInnerPad: rows are stored padded to 32 bytes (pitch = cols rounded up), else packed.
//                                                          count = rows * pitch elements
//   Broadcast<T, 2, axis>(dst, src, dstShape, srcShape[, sharedTmp])  (and <T, 1, 0>: [1] -> [k])
//       axis 1: src [m, 1] -> dst [m, k] (row i filled with src[i]);
//       axis 0: src [1, k] -> dst [m, k] (every row a copy of src). dst packed, pitch k.
//                                                          count = m * k elements
//
// The instruction is recorded with the closest existing opcode (Sum / ReduceSum: kReduceSum,
// ReduceMax / ReduceMin: kReduceMax / kReduceMin, Broadcast: kDuplicate); the vector pipe's cost
// depends only on the bytes. In timing-only mode (BlockContext::functional false) the element math
// is skipped; arguments are still checked and the instruction recorded.
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

struct SumParams {
  std::uint32_t outter = 1;
  std::uint32_t inner = 0;
  std::uint32_t n = 0;
};

namespace Pattern::Reduce {
struct AR {};
struct RA {};
}  // namespace Pattern::Reduce

}  // namespace AscendC

namespace npusim::ascendc {

template <class T>
NPUSIM_TWIN_FN void check_count(const Operand<T>& t, std::uint64_t count, const char* op,
                                const char* which) {
  if (t.data == nullptr) fail(op, "%s has no buffer", which);
  if (count > t.size) {
    fail(op, "%s needs %llu elements, the tensor has %u", which,
         static_cast<unsigned long long>(count), t.size);
  }
}

template <class T>
NPUSIM_TWIN_FN void record_norm_op(BlockContext& ctx, Op op, std::uint64_t count,
                                   std::int32_t dst_slot, std::int32_t src_slot,
                                   std::int32_t tmp_slot) {
  Instr ins;
  ins.pipe = Pipe::kVector;
  ins.op = op;
  ins.dtype = dtype_of<T>();
  ins.dtype2 = dtype_of<T>();
  ins.src = Mem::kUb;
  ins.dst = Mem::kUb;
  ins.count = static_cast<std::uint32_t>(count);
  ins.bytes = count * sizeof(T);
  ctx.emit(ins, {{dst_slot, true}, {src_slot, false}, {tmp_slot, true}});
}

enum class Reduce2d : std::uint8_t { kSum, kMax, kMin };

template <class T, Reduce2d kKind>
NPUSIM_TWIN_FN T combine2d(T acc, T v) {
  if constexpr (kKind == Reduce2d::kMax) {
    return v > acc ? v : acc;
  } else if constexpr (kKind == Reduce2d::kMin) {
    return v < acc ? v : acc;
  } else {
    return static_cast<T>(acc + v);
  }
}

/// Rows x cols of src reduced along the rows (per_row) or the columns; pitch elements per row.
template <class T, Reduce2d kKind>
NPUSIM_TWIN_FN void reduce2d_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                                  std::int32_t tmp_slot, std::uint32_t rows, std::uint32_t cols,
                                  std::uint32_t pitch, bool per_row, const char* name) {
  if (rows == 0 || cols == 0 || pitch < cols) {
    fail(name, "bad shape: %u rows, %u columns, pitch %u", rows, cols, pitch);
  }
  check_count(src, static_cast<std::uint64_t>(rows - 1) * pitch + cols, name, "src");
  check_count(dst, per_row ? rows : cols, name, "dst");
  if (ctx.functional) {
    if (per_row) {
      for (std::uint32_t r = 0; r < rows; ++r) {
        const T* row = src.data + static_cast<std::uint64_t>(r) * pitch;
        if constexpr (kKind == Reduce2d::kSum) {
          dst.data[r] = pairwise_sum(row, cols);
        } else {
          T best = row[0];
          for (std::uint32_t c = 1; c < cols; ++c) best = combine2d<T, kKind>(best, row[c]);
          dst.data[r] = best;
        }
      }
    } else {
      for (std::uint32_t c = 0; c < cols; ++c) {
        T acc = src.data[c];
        for (std::uint32_t r = 1; r < rows; ++r) {
          acc = combine2d<T, kKind>(acc, src.data[static_cast<std::uint64_t>(r) * pitch + c]);
        }
        dst.data[c] = acc;
      }
    }
  }
  record_norm_op<T>(ctx,
                    kKind == Reduce2d::kMax   ? Op::kReduceMax
                    : kKind == Reduce2d::kMin ? Op::kReduceMin
                                              : Op::kReduceSum,
                    static_cast<std::uint64_t>(rows) * pitch, dst.slot, src.slot, tmp_slot);
}

template <class T>
NPUSIM_TWIN_FN void broadcast2d_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                                     std::uint32_t m, std::uint32_t k, bool along_rows) {
  if (m == 0 || k == 0) fail("Broadcast", "empty shape %u x %u", m, k);
  check_count(dst, static_cast<std::uint64_t>(m) * k, "Broadcast", "dst");
  check_count(src, along_rows ? m : k, "Broadcast", "src");
  if (ctx.functional) {
    for (std::uint32_t r = 0; r < m; ++r) {
      T* row = dst.data + static_cast<std::uint64_t>(r) * k;
      for (std::uint32_t c = 0; c < k; ++c) row[c] = along_rows ? src.data[r] : src.data[c];
    }
  }
  record_norm_op<T>(ctx, Op::kDuplicate, static_cast<std::uint64_t>(m) * k, dst.slot, src.slot, -1);
}

template <class T, Reduce2d kKind, class Pattern>
void reduce2d(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
              std::int32_t tmp_slot, const std::uint32_t src_shape[], bool inner_pad,
              const char* name) {
  static_assert(std::is_same_v<Pattern, AscendC::Pattern::Reduce::AR> ||
                    std::is_same_v<Pattern, AscendC::Pattern::Reduce::RA>,
                "pattern must be AscendC::Pattern::Reduce::AR or RA");
  auto& ctx = block();
  ScalarPause pause(ctx);
  const std::uint32_t rows = src_shape[0], cols = src_shape[1];
  constexpr std::uint32_t kBlock = 32 / sizeof(T);
  const std::uint32_t pitch = inner_pad ? (cols + kBlock - 1) / kBlock * kBlock : cols;
  reduce2d_body<T, kKind>(ctx, operand(dst), operand(src), tmp_slot, rows, cols, pitch,
                          std::is_same_v<Pattern, AscendC::Pattern::Reduce::AR>, name);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T, std::int32_t kReduceDim = -1, bool kIsReuseSource = false,
          bool kIsBasicBlock = false>
inline void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                const LocalTensor<std::uint8_t>& shared_tmp, const SumParams& p) {
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  if (p.n == 0 || p.n > p.inner || (p.inner * sizeof(T)) % 32 != 0) {
    fail("Sum",
         "SumParams need 0 < n <= inner and inner * sizeof(T) a multiple of 32 "
         "(outter %u, inner %u, n %u)",
         p.outter, p.inner, p.n);
  }
  reduce2d_body<T, Reduce2d::kSum>(ctx, operand(dst), operand(src), shared_tmp.twin_slot(),
                                   p.outter, p.n, p.inner, true, "Sum");
}
template <class T, std::int32_t kReduceDim = -1, bool kIsReuseSource = false,
          bool kIsBasicBlock = false>
inline void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SumParams& p) {
  Sum<T, kReduceDim, kIsReuseSource, kIsBasicBlock>(dst, src, LocalTensor<std::uint8_t>(), p);
}

template <class T, class Pattern, bool kIsReuseSource = false>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<std::uint8_t>& shared_tmp, const std::uint32_t src_shape[],
                      bool src_inner_pad) {
  npusim::ascendc::reduce2d<T, npusim::ascendc::Reduce2d::kMax, Pattern>(
      dst, src, shared_tmp.twin_slot(), src_shape, src_inner_pad, "ReduceMax");
}
template <class T, class Pattern, bool kIsReuseSource = false>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const std::uint32_t src_shape[], bool src_inner_pad) {
  npusim::ascendc::reduce2d<T, npusim::ascendc::Reduce2d::kMax, Pattern>(dst, src, -1, src_shape,
                                                                       src_inner_pad, "ReduceMax");
}
template <class T, class Pattern, bool kIsReuseSource = false>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<std::uint8_t>& shared_tmp, const std::uint32_t src_shape[],
                      bool src_inner_pad) {
  npusim::ascendc::reduce2d<T, npusim::ascendc::Reduce2d::kMin, Pattern>(
      dst, src, shared_tmp.twin_slot(), src_shape, src_inner_pad, "ReduceMin");
}
template <class T, class Pattern, bool kIsReuseSource = false>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const std::uint32_t src_shape[], bool src_inner_pad) {
  npusim::ascendc::reduce2d<T, npusim::ascendc::Reduce2d::kMin, Pattern>(dst, src, -1, src_shape,
                                                                       src_inner_pad, "ReduceMin");
}
template <class T, class Pattern, bool kIsReuseSource = false>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<std::uint8_t>& shared_tmp, const std::uint32_t src_shape[],
                      bool src_inner_pad) {
  npusim::ascendc::reduce2d<T, npusim::ascendc::Reduce2d::kSum, Pattern>(
      dst, src, shared_tmp.twin_slot(), src_shape, src_inner_pad, "ReduceSum");
}
template <class T, class Pattern, bool kIsReuseSource = false>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const std::uint32_t src_shape[], bool src_inner_pad) {
  npusim::ascendc::reduce2d<T, npusim::ascendc::Reduce2d::kSum, Pattern>(dst, src, -1, src_shape,
                                                                       src_inner_pad, "ReduceSum");
}

template <class T, std::int32_t kDim, std::int32_t kAxis, bool kIsReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const std::uint32_t dst_shape[kDim], const std::uint32_t src_shape[kDim]) {
  static_assert((kDim == 1 && kAxis == 0) || (kDim == 2 && (kAxis == 0 || kAxis == 1)),
                "the twin's Broadcast is 1-D (axis 0) or 2-D");
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  if constexpr (kDim == 1) {  // [1] -> [k] (a [1, 1] -> [1, k] broadcast), or [k] -> [k]
    if (src_shape[0] != 1 && src_shape[0] != dst_shape[0])
      fail("Broadcast", "source shape [%u] does not broadcast to [%u]", src_shape[0], dst_shape[0]);
    broadcast2d_body(ctx, operand(dst), operand(src), 1, dst_shape[0], src_shape[0] == 1);
  } else {
    const bool along_rows = kAxis == 1;
    if ((along_rows && (src_shape[0] != dst_shape[0] || src_shape[1] != 1)) ||
        (!along_rows && (src_shape[1] != dst_shape[1] || src_shape[0] != 1))) {
      fail("Broadcast", "source shape [%u, %u] does not broadcast to [%u, %u] along axis %d",
           src_shape[0], src_shape[1], dst_shape[0], dst_shape[1], kAxis);
    }
    broadcast2d_body(ctx, operand(dst), operand(src), dst_shape[0], dst_shape[1], along_rows);
  }
}
template <class T, std::int32_t kDim, std::int32_t kAxis, bool kIsReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const std::uint32_t dst_shape[kDim], const std::uint32_t src_shape[kDim],
                      LocalTensor<std::uint8_t>& /*shared_tmp*/) {
  Broadcast<T, kDim, kAxis, kIsReuseSource>(dst, src, dst_shape, src_shape);
}

}  // namespace AscendC
