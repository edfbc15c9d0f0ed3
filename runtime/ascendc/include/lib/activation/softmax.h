// SPDX-License-Identifier: Apache-2.0
// SoftMax, SimpleSoftMax and AdjustSoftMaxRes of the Ascend C twin, on the last axis of an
// [m, k] source (SoftMaxShapeInfo; lib/activation/softmax_common.h has the layout, the
// temporary space and the instructions):
//   SoftMax:        max = rowmax(x); e = exp(x - max); sum = rowsum(e); dst = e / sum
//                   (max and sum written to their [m, 32 bytes] tensors when given);
//   SimpleSoftMax:  dst = exp(x - inMax) / inSum, with the statistics a SoftMax computed;
//   AdjustSoftMaxRes: every row whose max (first element of its block, compared as bits with
//                   `from`) matches is set to `to`; returns whether one did.
// Per pass of r rows: SoftMax is ReduceMax, Broadcast, Sub, Exp, ReduceSum, Broadcast, Div (and
// two Broadcasts into the max / sum blocks); SimpleSoftMax reads the statistics (two ReduceMax
// over their blocks) then Broadcast, Sub, Exp, Broadcast, Div; half adds a Cast in and out.
// AdjustSoftMaxRes reads one max per row on the scalar unit (GetValue) and fills a matching row
// with one Duplicate. Half sources take float statistics (the CANN overloads) or half ones.
// isReuseSource and isBasicBlock are accepted (the computation is the same); the NZ format
// fails. The tiling is not read (the passes follow the temporary buffer), so a SoftMaxTiling
// from SoftMaxTilingFunc or a zeroed one both work. Host side: tiling/activation/softmax_tiling.h.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lib/activation/softmax_common.h"

namespace npusim::ascendc {

constexpr const char* kSoftMaxTiling = "GetSoftMaxMinTmpSize";

/// e = exp(x - max) into `e` for a pass, max already in `mx` (r values).
inline void exp_shifted(const AscendC::LocalTensor<float>& e, const AscendC::LocalTensor<float>& x,
                        const AscendC::LocalTensor<float>& mx, std::uint32_t r, std::uint32_t k) {
  const auto n = static_cast<std::int32_t>(r * k);
  spread(e, mx, r, k);
  AscendC::Sub(e, x, e, n);
  AscendC::Exp(e, e, n);
}

/// dst = e / sum for a pass, through `bc` (a float row buffer, or dst itself when T is float).
template <class T>
void divide_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<float>& e,
                 const AscendC::LocalTensor<float>& sum, const AscendC::LocalTensor<float>& bc,
                 std::uint32_t r, std::uint32_t k) {
  const auto n = static_cast<std::int32_t>(r * k);
  if constexpr (std::is_same_v<T, float>) {
    spread(dst, sum, r, k);
    AscendC::Div(dst, e, dst, n);
  } else {
    spread(bc, sum, r, k);
    AscendC::Div(e, e, bc, n);
    store_rows(dst, e, r * k);
  }
}

/// One SoftMax pass: rows [row0, row0 + r).
template <class T, class S>
void softmax_pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<S>& sum,
                  const AscendC::LocalTensor<S>& max, const AscendC::LocalTensor<T>& src,
                  const SoftmaxRows& rows, std::uint32_t row0, std::uint32_t r,
                  const SoftmaxScratch& s) {
  constexpr std::uint32_t kBlk = 32 / sizeof(S);
  const std::uint32_t at = row0 * rows.k;
  const auto x = float_rows(src[at], s.row_buf(1), r * rows.k);
  const auto e = s.row_buf(0);
  row_reduce<Reduce2d::kMax>(s.stat(0), x, r, rows.valid, rows.k);
  if (given(max)) store_blocks(max[row0 * kBlk], s.stat(0), s.stat(2), r);
  exp_shifted(e, x, s.stat(0), r, rows.k);
  row_reduce<Reduce2d::kSum>(s.stat(1), e, r, rows.valid, rows.k);
  if (given(sum)) store_blocks(sum[row0 * kBlk], s.stat(1), s.stat(2), r);
  divide_rows(dst[at], e, s.stat(1), s.row_buf(1), r, rows.k);
}

/// One SimpleSoftMax pass.
template <class T, class S>
void simple_softmax_pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<S>& sum,
                         const AscendC::LocalTensor<S>& max, const AscendC::LocalTensor<T>& src,
                         const SoftmaxRows& rows, std::uint32_t row0, std::uint32_t r,
                         const SoftmaxScratch& s) {
  constexpr std::uint32_t kBlk = 32 / sizeof(S);
  const std::uint32_t at = row0 * rows.k;
  const auto x = float_rows(src[at], s.row_buf(1), r * rows.k);
  load_blocks(s.stat(0), max[row0 * kBlk], s.stat(2), r);
  load_blocks(s.stat(1), sum[row0 * kBlk], s.stat(2), r);
  exp_shifted(s.row_buf(0), x, s.stat(0), r, rows.k);
  divide_rows(dst[at], s.row_buf(0), s.stat(1), s.row_buf(1), r, rows.k);
}

template <class T, class S>
void check_stats(const char* api, const AscendC::LocalTensor<S>& stat, const SoftmaxRows& rows) {
  static_assert(std::is_same_v<S, float> || std::is_same_v<S, T>,
                "the statistics are float or the source's type");
  if (given(stat) && stat.GetSize() < rows.m * (32 / sizeof(S))) {
    fail(api, "a max / sum tensor of %u elements is below the %u rows x 32 bytes", stat.GetSize(),
         rows.m);
  }
}

enum class SoftmaxKind { kSoftMax, kSimple };

template <class T, class S, SoftmaxKind kKind>
void softmax_call(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<S>& sum,
                  const AscendC::LocalTensor<S>& max, const AscendC::LocalTensor<T>& src,
                  const AscendC::LocalTensor<std::uint8_t>* shared,
                  const AscendC::SoftMaxShapeInfo& shape, bool nz) {
  const char* api = kKind == SoftmaxKind::kSoftMax ? "SoftMax" : "SimpleSoftMax";
  softmax_nd_only(api, nz);
  const SoftmaxRows rows = softmax_rows<T>(api, shape);
  check_stats<T>(api, sum, rows);
  check_stats<T>(api, max, rows);
  const auto pass = [&](std::uint32_t row0, std::uint32_t r, const SoftmaxScratch& s) {
    if constexpr (kKind == SoftmaxKind::kSoftMax) {
      softmax_pass(dst, sum, max, src, rows, row0, r, s);
    } else {
      simple_softmax_pass(dst, sum, max, src, rows, row0, r, s);
    }
  };
  constexpr std::uint32_t kRows = kSoftmaxFloatRows<T>;
  if (shared != nullptr) {
    softmax_passes(api, kSoftMaxTiling, HighLevelTmp(*shared), rows, kRows, kStatArrays, pass);
  } else {
    softmax_framework(api, kSoftMaxTiling, rows, kRows, kStatArrays, 8, pass);
  }
}

template <class T1, class T2>
bool adjust_softmax_res(const AscendC::LocalTensor<T1>& res, const AscendC::LocalTensor<T2>& max,
                        std::uint32_t from, T1 to, const AscendC::SoftMaxShapeInfo& shape) {
  const SoftmaxRows rows = softmax_rows<T1>("AdjustSoftMaxRes", shape);
  constexpr std::uint32_t kBlk = 32 / sizeof(T2);
  using Bits = std::conditional_t<sizeof(T2) == 4, std::uint32_t, std::uint16_t>;
  bool found = false;
  for (std::uint32_t i = 0; i < rows.m; ++i) {
    const T2 v = max.GetValue(i * kBlk);
    Bits bits;
    std::memcpy(&bits, &v, sizeof(bits));
    if (bits != static_cast<Bits>(from)) continue;
    AscendC::Duplicate(res[i * rows.k], to, static_cast<std::int32_t>(rows.k));
    found = true;
  }
  return found;
}

}  // namespace npusim::ascendc

namespace AscendC {

#define NPUSIM_SOFTMAX_TEMPLATE                                                       \
  template <typename T, bool isReuseSource = false, bool isBasicBlock = false,        \
            bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, \
            typename S>

NPUSIM_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<S>& sumTensor,
                    const LocalTensor<S>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& /*tiling*/,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_call<T, S, npusim::ascendc::SoftmaxKind::kSoftMax>(
      dstTensor, sumTensor, maxTensor, srcTensor, &sharedTmpBuffer, softmaxShapeInfo,
      isDataFormatNZ);
}

NPUSIM_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<S>& sumTensor,
                    const LocalTensor<S>& maxTensor, const LocalTensor<T>& srcTensor,
                    const SoftMaxTiling& /*tiling*/, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_call<T, S, npusim::ascendc::SoftmaxKind::kSoftMax>(
      dstTensor, sumTensor, maxTensor, srcTensor, nullptr, softmaxShapeInfo, isDataFormatNZ);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& /*tiling*/,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_call<T, T, npusim::ascendc::SoftmaxKind::kSoftMax>(
      dstTensor, LocalTensor<T>(), LocalTensor<T>(), srcTensor, &sharedTmpBuffer,
      softmaxShapeInfo, false);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                    const SoftMaxTiling& /*tiling*/, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_call<T, T, npusim::ascendc::SoftmaxKind::kSoftMax>(
      dstTensor, LocalTensor<T>(), LocalTensor<T>(), srcTensor, nullptr, softmaxShapeInfo, false);
}

NPUSIM_SOFTMAX_TEMPLATE
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<S>& inSumTensor,
                          const LocalTensor<S>& inMaxTensor, const LocalTensor<T>& srcTensor,
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                          const SoftMaxTiling& /*tiling*/,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_call<T, S, npusim::ascendc::SoftmaxKind::kSimple>(
      dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer, softmaxShapeInfo,
      isDataFormatNZ);
}

NPUSIM_SOFTMAX_TEMPLATE
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<S>& inSumTensor,
                          const LocalTensor<S>& inMaxTensor, const LocalTensor<T>& srcTensor,
                          const SoftMaxTiling& /*tiling*/,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  npusim::ascendc::softmax_call<T, S, npusim::ascendc::SoftmaxKind::kSimple>(
      dstTensor, inSumTensor, inMaxTensor, srcTensor, nullptr, softmaxShapeInfo, isDataFormatNZ);
}

#undef NPUSIM_SOFTMAX_TEMPLATE

template <typename T1, typename T2, bool isDataFormatNZ = false, std::uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                             const std::uint32_t from, const T1 to,
                             const SoftMaxShapeInfo& softmaxShapeInfo) {
  npusim::ascendc::softmax_nd_only("AdjustSoftMaxRes", isDataFormatNZ);
  if (stepSizeMode != 0) {
    npusim::ascendc::fail("AdjustSoftMaxRes", "stepSizeMode %u is not implemented by the twin",
                          static_cast<unsigned>(stepSizeMode));
  }
  return npusim::ascendc::adjust_softmax_res(softMaxRes, maxTensor, from, to, softmaxShapeInfo);
}

}  // namespace AscendC
