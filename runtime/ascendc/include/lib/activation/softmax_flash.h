// SPDX-License-Identifier: Apache-2.0
// SoftmaxFlashV2 of the Ascend C twin: the softmax of a row split over column blocks, one block
// per call, on an [m, k] source (SoftMaxShapeInfo):
//   isUpdate false: max = rowmax(x); dst = exp(x - max); expSum = rowsum(dst);
//   isUpdate true:  max = max(inMax, rowmax(x)); dst = exp(x - max);
//                   expMax = exp(inMax - max); expSum = expMax * inExpSum + rowsum(dst).
// max, expSum, inMax, inExpSum are [m, 32 bytes] tensors of S (float, or T); expMax is [m, 32
// bytes] of T. Outputs may be their inputs (the inputs are read first) and dst may be src.
// Per pass of r rows (lib/activation/softmax_common.h): ReduceMax, Broadcast, Sub, Exp,
// ReduceSum and the block Broadcasts; isUpdate adds reading inMax / inExpSum (a ReduceMax over
// their blocks each) and Max, Sub, Exp, Mul, Add over the r row values. Half adds Casts. The
// temporary space is SoftMax's (GetSoftMaxFlashV2MinTmpSize); the tiling is not read.
// isReuseSource and isBasicBlock are accepted; the NZ format fails.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/activation/softmax.h"
#include "lib/activation/softmax_common.h"

namespace npusim::ascendc {

constexpr const char* kFlashV2Tiling = "GetSoftMaxFlashV2MinTmpSize";

/// dst = exp(x - max) for a pass; returns the exponentials in float (dst itself for float).
template <class T>
AscendC::LocalTensor<float> exp_into(const AscendC::LocalTensor<T>& dst,
                                     const AscendC::LocalTensor<float>& x,
                                     const AscendC::LocalTensor<float>& mx,
                                     const AscendC::LocalTensor<float>& buf, std::uint32_t r,
                                     std::uint32_t k) {
  const auto n = static_cast<std::int32_t>(r * k);
  spread(buf, mx, r, k);
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Sub(dst, x, buf, n);  // dst may be x: each element is read before it is written
    AscendC::Exp(dst, dst, n);
    return dst;
  } else {
    AscendC::Sub(buf, x, buf, n);
    AscendC::Exp(buf, buf, n);
    store_rows(dst, buf, r * k);
    return buf;
  }
}

template <class T, class S>
struct FlashV2Io {
  AscendC::LocalTensor<T> dst;
  AscendC::LocalTensor<S> exp_sum;
  AscendC::LocalTensor<S> max;
  AscendC::LocalTensor<T> src;
  AscendC::LocalTensor<T> exp_max;
  AscendC::LocalTensor<S> in_exp_sum;
  AscendC::LocalTensor<S> in_max;
};

template <bool kUpdate, class T, class S>
void flash_v2_pass(const FlashV2Io<T, S>& io, const SoftmaxRows& rows, std::uint32_t row0,
                   std::uint32_t r, const SoftmaxScratch& s) {
  constexpr std::uint32_t kBlkS = 32 / sizeof(S);
  constexpr std::uint32_t kBlkT = 32 / sizeof(T);
  const auto rn = static_cast<std::int32_t>(r);
  const std::uint32_t at = row0 * rows.k;
  const auto x = float_rows(io.src[at], s.row_buf(1), r * rows.k);
  const auto mx = s.stat(0), em = s.stat(1), acc = s.stat(2), h = s.stat(3);
  row_reduce<Reduce2d::kMax>(mx, x, r, rows.valid, rows.k);
  if constexpr (kUpdate) {
    load_blocks(em, io.in_max[row0 * kBlkS], h, r);
    AscendC::Max(mx, mx, em, rn);
    AscendC::Sub(em, em, mx, rn);
    AscendC::Exp(em, em, rn);  // expMax = exp(inMax - max)
    store_blocks(io.exp_max[row0 * kBlkT], em, h, r);
  }
  store_blocks(io.max[row0 * kBlkS], mx, h, r);
  const auto e = exp_into(io.dst[at], x, mx, s.row_buf(0), r, rows.k);
  row_reduce<Reduce2d::kSum>(mx, e, r, rows.valid, rows.k);  // the max is stored already
  if constexpr (kUpdate) {
    load_blocks(acc, io.in_exp_sum[row0 * kBlkS], h, r);
    AscendC::Mul(acc, acc, em, rn);
    AscendC::Add(mx, mx, acc, rn);
  }
  store_blocks(io.exp_sum[row0 * kBlkS], mx, h, r);
}

template <bool kUpdate, class T, class S>
void flash_v2(const FlashV2Io<T, S>& io, const AscendC::LocalTensor<std::uint8_t>* shared,
              const AscendC::SoftMaxShapeInfo& shape, bool nz) {
  softmax_nd_only("SoftmaxFlashV2", nz);
  const SoftmaxRows rows = softmax_rows<T>("SoftmaxFlashV2", shape);
  check_stats<T>("SoftmaxFlashV2", io.exp_sum, rows);
  check_stats<T>("SoftmaxFlashV2", io.max, rows);
  const auto pass = [&](std::uint32_t row0, std::uint32_t r, const SoftmaxScratch& s) {
    flash_v2_pass<kUpdate>(io, rows, row0, r, s);
  };
  constexpr std::uint32_t kRows = kSoftmaxFloatRows<T>;
  if (shared != nullptr) {
    softmax_passes("SoftmaxFlashV2", kFlashV2Tiling, HighLevelTmp(*shared), rows, kRows,
                   kStatArrays, pass);
  } else {
    softmax_framework("SoftmaxFlashV2", kFlashV2Tiling, rows, kRows, kStatArrays, 8, pass);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename S>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<S>& expSumTensor,
                           const LocalTensor<S>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<S>& inExpSumTensor, const LocalTensor<S>& inMaxTensor,
                           const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& /*tiling*/,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::flash_v2<isUpdate>(
      npusim::ascendc::FlashV2Io<T, S>{dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                       inExpSumTensor, inMaxTensor},
      &sharedTmpBuffer, softmaxShapeInfo, isDataFormatNZ);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename S>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<S>& expSumTensor,
                           const LocalTensor<S>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<S>& inExpSumTensor, const LocalTensor<S>& inMaxTensor,
                           const SoftMaxTiling& /*tiling*/,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::flash_v2<isUpdate>(
      npusim::ascendc::FlashV2Io<T, S>{dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                                       inExpSumTensor, inMaxTensor},
      nullptr, softmaxShapeInfo, isDataFormatNZ);
}

}  // namespace AscendC
