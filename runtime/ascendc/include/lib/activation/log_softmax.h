// SPDX-License-Identifier: Apache-2.0
// LogSoftMax of the Ascend C twin, on the last axis of an [m, k] source (SoftMaxShapeInfo):
//   max = rowmax(x); sum = rowsum(exp(x - max)); dst = log10(exp(x - max) / sum), computed as
//   (x - max - ln(sum)) / ln(10); max and sum go to their [m, 32 bytes] tensors.
// Per pass of r rows (lib/activation/softmax_common.h): ReduceMax, Broadcast (max blocks),
// Broadcast, Sub, Exp, ReduceSum, Broadcast (sum blocks), Ln over the r sums, Broadcast, Sub,
// Muls; half adds a Cast in and out. The temporary space is SoftMax's
// (GetLogSoftMaxMinTmpSize / GetLogSoftMaxMaxTmpSize). The tiling is not read, so the zeroed
// LogSoftMaxTiling a kernel may pass works. isReuseSource is accepted; the NZ format fails.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/activation/softmax_common.h"

namespace npusim::ascendc {

template <class T>
void log_softmax_pass(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& sum,
                      const AscendC::LocalTensor<T>& max, const AscendC::LocalTensor<T>& src,
                      const SoftmaxRows& rows, std::uint32_t row0, std::uint32_t r,
                      const SoftmaxScratch& s) {
  constexpr std::uint32_t kBlk = 32 / sizeof(T);
  constexpr float kInvLn10 = 0.434294481903251827651f;
  const std::uint32_t at = row0 * rows.k;
  const auto n = static_cast<std::int32_t>(r * rows.k);
  const auto x = float_rows(src[at], s.row_buf(1), r * rows.k);
  const auto d = s.row_buf(0);
  row_reduce<Reduce2d::kMax>(s.stat(0), x, r, rows.valid, rows.k);
  store_blocks(max[row0 * kBlk], s.stat(0), s.stat(3), r);
  spread(d, s.stat(0), r, rows.k);
  AscendC::Sub(d, x, d, n);  // x - max; x is not read again
  AscendC::LocalTensor<float> work;
  if constexpr (std::is_same_v<T, float>) {
    work = dst[at];
  } else {
    work = s.row_buf(1);
  }
  AscendC::Exp(work, d, n);
  row_reduce<Reduce2d::kSum>(s.stat(1), work, r, rows.valid, rows.k);
  store_blocks(sum[row0 * kBlk], s.stat(1), s.stat(3), r);
  AscendC::Ln(s.stat(2), s.stat(1), static_cast<std::int32_t>(r));
  spread(work, s.stat(2), r, rows.k);
  AscendC::Sub(d, d, work, n);
  if constexpr (std::is_same_v<T, float>) {
    AscendC::Muls(dst[at], d, kInvLn10, n);
  } else {
    AscendC::Muls(d, d, kInvLn10, n);
    store_rows(dst[at], d, r * rows.k);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum,
                       const LocalTensor<T>& max, const LocalTensor<T>& src,
                       const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                       const LogSoftMaxTiling& /*tiling*/,
                       const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  using namespace npusim::ascendc;
  softmax_nd_only("LogSoftMax", isDataFormatNZ);
  const SoftmaxRows rows = softmax_rows<T>("LogSoftMax", softmaxShapeInfo);
  const auto pass = [&](std::uint32_t row0, std::uint32_t r, const SoftmaxScratch& s) {
    log_softmax_pass(dst, sum, max, src, rows, row0, r, s);
  };
  constexpr std::uint32_t kRows = kSoftmaxFloatRows<T>;
  if (sharedTmpBuffer.twin_data() != nullptr) {
    softmax_passes("LogSoftMax", "GetLogSoftMaxMinTmpSize", HighLevelTmp(sharedTmpBuffer), rows,
                   kRows, kStatArrays, pass);
  } else {  // an empty sharedTmpBuffer: the framework's space
    softmax_framework("LogSoftMax", "GetLogSoftMaxMinTmpSize", rows, kRows, kStatArrays, 8, pass);
  }
}

}  // namespace AscendC
