// SPDX-License-Identifier: Apache-2.0
// SoftmaxFlashV3 of the Ascend C twin (the PASA form of the flash softmax): the softmax of a row
// split over column blocks, with each row first shifted by a running mean. For an [m, k] source
// (SoftMaxParams: k >= 512 and a multiple of 64, splitMeanCnt 8, baseK = k / 8), a = alpha /
// (1 - alpha), per row:
//   G[c] (c < 64) = sum of block c (8 elements) of the first 512, plus element c of every
//        following 64-element repeat;  L[j] = (G[8j] + ... + G[8j + 7]) / baseK (j < 8);
//   mean = (L[0] + ... + L[7]) / 8;  x -= (mean - L[j]) * a over columns [j baseK, (j+1) baseK);
//   isUpdate false: outMean = mean; shiftCurr = 0;
//   isUpdate true:  outMean = (mean + inMean (loopCnt - 1)) / loopCnt;
//                   shiftCurr = (mean - outMean) a;  shiftPrev = (inMean - outMean) a;
//   outMax = rowmax(x) + shiftCurr (update: the larger of that and inMax + shiftPrev);
//   dst = exp(x - (outMax - shiftCurr));  outSum = rowsum(dst)
//   (update: expMax = exp(inMax - outMax + shiftPrev); outSum += expMax inSum).
// The mean, max and sum tensors are [m, 32 bytes] of U (float), expMax [m, 32 bytes] of T;
// outputs may be their inputs (the inputs are read first), dst may be src.
// Per pass of r rows: per row a column ReduceSum over the repeats after the first 512 elements
// and a ReduceSum of the 64 blocks (2 instructions per row), then over the pass Add, ReduceSum
// and Muls (L), ReduceSum and Muls (mean), Broadcast, Sub, Muls, Broadcast, Sub (the shift),
// ReduceMax, the r-value steps, Broadcast, Sub, Exp, ReduceSum, the block Broadcasts, and Casts
// for half. Temporary space: two float row buffers and 156 r-float arrays per pass
// (GetSoftMaxFlashV3MaxMinTmpSize; the minimum is one row). The tiling is not read;
// isReuseSource and isBasicBlock are accepted; the NZ format fails.
#pragma once

#include <cstdint>
#include <type_traits>

#include "lib/activation/softmax_common.h"

namespace npusim::ascendc {

constexpr const char* kFlashV3 = "SoftmaxFlashV3";
constexpr const char* kFlashV3Tiling = "GetSoftMaxFlashV3MaxMinTmpSize";
constexpr std::uint32_t kFlashV3Stats = 156;

template <class T, class U>
struct FlashV3Io {
  AscendC::LocalTensor<T> dst;
  AscendC::LocalTensor<U> mean, exp_sum, max;
  AscendC::LocalTensor<T> src, exp_max;
  AscendC::LocalTensor<U> in_mean, in_exp_sum, in_max;
};

/// The pass's arrays: [r, 64] column sums (two), [r, 8] local means and shifts, r-value rows.
struct FlashV3Scratch {
  explicit FlashV3Scratch(const SoftmaxScratch& s)
      : g(s.stat(0)), g2(s.stat(64)), local(s.stat(128)), shift(s.stat(136)), mean(s.stat(144)),
        in_mean(s.stat(145)), in_max(s.stat(146)), in_sum(s.stat(147)), out_mean(s.stat(148)),
        acc(s.stat(149)), cur(s.stat(150)), prev(s.stat(151)), out_max(s.stat(152)),
        tmp(s.stat(153)), exp_max(s.stat(154)), half(s.stat(155)) {}
  AscendC::LocalTensor<float> g, g2, local, shift, mean, in_mean, in_max, in_sum, out_mean, acc,
      cur, prev, out_max, tmp, exp_max, half;
};

/// L (the 8 local means of each row, [r, 8]) and the row means, from x (r rows of k).
inline void flash_v3_means(const AscendC::LocalTensor<float>& x, const FlashV3Scratch& a,
                           std::uint32_t r, std::uint32_t k) {
  auto& ctx = block();
  const std::uint32_t extra = k / 64 - 8;  // repeats after the first 512 elements
  for (std::uint32_t i = 0; i < r; ++i) {
    ScalarPause pause(ctx);
    const auto row = x[i * k];
    reduce2d_body<float, Reduce2d::kSum>(ctx, operand(a.g2[i * 64]), operand(row), -1, 64, 8, 8,
                                         true, "ReduceSum");
    if (extra > 0) {
      reduce2d_body<float, Reduce2d::kSum>(ctx, operand(a.g[i * 64]), operand(row[512]), -1,
                                           extra, 64, 64, false, "ReduceSum");
    }
  }
  const auto n64 = static_cast<std::int32_t>(r * 64);
  if (extra > 0) {
    AscendC::Add(a.g, a.g, a.g2, n64);
  } else {
    AscendC::Adds(a.g, a.g2, 0.0f, n64);
  }
  row_reduce<Reduce2d::kSum>(a.local, a.g, r * 8, 8, 8);
  AscendC::Muls(a.local, a.local, 8.0f / static_cast<float>(k), static_cast<std::int32_t>(r * 8));
  row_reduce<Reduce2d::kSum>(a.mean, a.local, r, 8, 8);
  AscendC::Muls(a.mean, a.mean, 0.125f, static_cast<std::int32_t>(r));
}

/// x -= (mean - L[j]) * scale over each eighth of the row: into `out` through `buf`.
inline void flash_v3_shift(const AscendC::LocalTensor<float>& out,
                           const AscendC::LocalTensor<float>& x,
                           const AscendC::LocalTensor<float>& buf, const FlashV3Scratch& a,
                           float scale, std::uint32_t r, std::uint32_t k) {
  const auto n8 = static_cast<std::int32_t>(r * 8);
  spread(a.shift, a.mean, r, 8);
  AscendC::Sub(a.shift, a.shift, a.local, n8);
  AscendC::Muls(a.shift, a.shift, scale, n8);
  spread(buf, a.shift, r * 8, k / 8);
  AscendC::Sub(out, x, buf, static_cast<std::int32_t>(r * k));
}

/// The row statistics: outMean, shiftCurr (cur), shiftPrev (prev), outMax.
template <bool kUpdate>
void flash_v3_stats(const FlashV3Scratch& a, const AscendC::SoftMaxParams& p, float scale,
                    std::uint32_t r) {
  const auto n = static_cast<std::int32_t>(r);
  if constexpr (kUpdate) {
    const float cnt = static_cast<float>(p.loopCnt);
    AscendC::Muls(a.out_mean, a.in_mean, cnt - 1.0f, n);
    AscendC::Add(a.out_mean, a.out_mean, a.mean, n);
    AscendC::Muls(a.out_mean, a.out_mean, 1.0f / cnt, n);
  } else {
    AscendC::Adds(a.out_mean, a.mean, 0.0f, n);
  }
  AscendC::Sub(a.cur, a.mean, a.out_mean, n);
  AscendC::Muls(a.cur, a.cur, scale, n);
  AscendC::Add(a.out_max, a.cur, a.acc, n);  // acc: the row max of the shifted x
  if constexpr (kUpdate) {
    AscendC::Sub(a.prev, a.in_mean, a.out_mean, n);
    AscendC::Muls(a.prev, a.prev, scale, n);
    AscendC::Add(a.tmp, a.prev, a.in_max, n);
    AscendC::Max(a.out_max, a.out_max, a.tmp, n);
  }
}

template <bool kUpdate, class T, class U>
void flash_v3_pass(const FlashV3Io<T, U>& io, const AscendC::SoftMaxParams& p,
                   std::uint32_t row0, std::uint32_t r, const SoftmaxScratch& s) {
  constexpr std::uint32_t kBlkU = 32 / sizeof(U);
  constexpr std::uint32_t kBlkT = 32 / sizeof(T);
  const std::uint32_t k = p.srcK;
  const auto n = static_cast<std::int32_t>(r * k);
  const float scale = p.alpha / (1.0f - p.alpha);
  const FlashV3Scratch a(s);
  const auto x = s.row_buf(0), buf = s.row_buf(1);
  const std::uint32_t at = row0 * k;
  if constexpr (kUpdate) {  // read every input before an output that may share it is written
    load_blocks(a.in_mean, io.in_mean[row0 * kBlkU], a.half, r);
    load_blocks(a.in_max, io.in_max[row0 * kBlkU], a.half, r);
    load_blocks(a.in_sum, io.in_exp_sum[row0 * kBlkU], a.half, r);
  }
  const auto xs = float_rows(io.src[at], x, r * k);
  flash_v3_means(xs, a, r, k);
  flash_v3_shift(x, xs, buf, a, scale, r, k);
  row_reduce<Reduce2d::kMax>(a.acc, x, r, k, k);
  flash_v3_stats<kUpdate>(a, p, scale, r);
  AscendC::Sub(a.tmp, a.out_max, a.cur, static_cast<std::int32_t>(r));
  spread(buf, a.tmp, r, k);
  AscendC::Sub(x, x, buf, n);
  AscendC::Exp(x, x, n);
  row_reduce<Reduce2d::kSum>(a.acc, x, r, k, k);
  if constexpr (kUpdate) {
    const auto rn = static_cast<std::int32_t>(r);
    AscendC::Sub(a.exp_max, a.in_max, a.out_max, rn);
    AscendC::Add(a.exp_max, a.exp_max, a.prev, rn);
    AscendC::Exp(a.exp_max, a.exp_max, rn);
    store_blocks(io.exp_max[row0 * kBlkT], a.exp_max, a.half, r);
    AscendC::Mul(a.in_sum, a.in_sum, a.exp_max, rn);
    AscendC::Add(a.acc, a.acc, a.in_sum, rn);
  }
  store_blocks(io.mean[row0 * kBlkU], a.out_mean, a.half, r);
  store_blocks(io.max[row0 * kBlkU], a.out_max, a.half, r);
  store_blocks(io.exp_sum[row0 * kBlkU], a.acc, a.half, r);
  store_rows(io.dst[at], x, r * k);
}

template <bool kUpdate, class T, class U>
void flash_v3(const FlashV3Io<T, U>& io, const AscendC::LocalTensor<std::uint8_t>* shared,
              const AscendC::SoftMaxParams& p, bool nz) {
  static_assert(std::is_same_v<U, float>, "SoftmaxFlashV3's statistics are float");
  softmax_nd_only(kFlashV3, nz);
  const SoftmaxRows rows = softmax_rows<T>(kFlashV3, p.srcM, p.srcK, p.oriSrcK);
  if (p.srcK < 512 || p.srcK % 64 != 0 || rows.valid != p.srcK) {
    fail(kFlashV3, "needs k >= 512, a multiple of 64, all valid (srcK %u, oriSrcK %u)", p.srcK,
         p.oriSrcK);
  }
  if (p.splitMeanCnt != 8 || p.loopCnt == 0 || !(p.alpha < 1.0f)) {
    fail(kFlashV3, "needs splitMeanCnt 8, loopCnt >= 1 and alpha < 1 (%u, %u, %f)", p.splitMeanCnt,
         p.loopCnt, static_cast<double>(p.alpha));
  }
  const auto pass = [&](std::uint32_t row0, std::uint32_t r, const SoftmaxScratch& s) {
    flash_v3_pass<kUpdate>(io, p, row0, r, s);
  };
  if (shared != nullptr) {
    softmax_passes(kFlashV3, kFlashV3Tiling, HighLevelTmp(*shared), rows, 2, kFlashV3Stats, pass);
  } else {
    softmax_framework(kFlashV3, kFlashV3Tiling, rows, 2, kFlashV3Stats, 1, pass);
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                           const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& /*tiling*/,
                           const SoftMaxParams& params) {
  npusim::ascendc::flash_v3<isUpdate>(
      npusim::ascendc::FlashV3Io<T, U>{dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor,
                                       expMaxTensor, inMeanTensor, inExpSumTensor, inMaxTensor},
      nullptr, params, isDataFormatNZ);
}

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false,
          bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                           const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor,
                           const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& /*tiling*/, const SoftMaxParams& params) {
  npusim::ascendc::flash_v3<isUpdate>(
      npusim::ascendc::FlashV3Io<T, U>{dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor,
                                       expMaxTensor, inMeanTensor, inExpSumTensor, inMaxTensor},
      &sharedTmpBuffer, params, isDataFormatNZ);
}

}  // namespace AscendC
