// SPDX-License-Identifier: Apache-2.0
// Welford's online mean and variance, the twin's WelfordUpdate and WelfordFinalize high-level
// APIs (float):
//
//   WelfordUpdate (one more chunk x of the reduce axis, nRec = 1 / chunks so far), on the first
//     abComputeLength elements:
//       delta = x - inputMean,  outputMean = inputMean + delta * nRec,
//       outputVariance = inputVariance + delta * (x - outputMean)
//     each step one instruction rounded to float (Sub, Muls, Add, Sub, Mul, Add). With
//     WelfordUpdateConfig::isInplace the rest of the abLength elements of the outputs are the
//     inputs' (copied by Muls with 1 when the outputs are other tensors); without, they are left.
//   WelfordFinalize (combining the abLength partial results; counts_i the elements behind
//     partial i: the counts tensor, or headCount for the first headCountLength and tailCount
//     for the next tailCountLength):
//       outputMean = rRec * sum(counts_i * Mean_i)
//       outputVariance = rRec * (sum(Var_i) + sum(counts_i * (Mean_i - outputMean)^2))
//     written to element 0 of each output: Cast (or Duplicate) of the counts, Mul, ReduceSum,
//     Muls; a scalar read of the mean; Adds, Mul, Mul, Add, ReduceSum, Muls.
// All instructions on the vector pipe. Temporary space: WelfordUpdate two floats per element
// (GetWelfordUpdateMaxMinTmpSize), WelfordFinalize two floats per partial plus 32 bytes
// (GetWelfordFinalizeMaxMinTmpSize); less fails naming the API. rnLength must be 1.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

struct WelfordUpdateConfig {
  bool isInplace = false;
};
inline constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordUpdateParam {
  std::uint32_t rnLength;
  std::uint32_t abLength;
  std::uint32_t abComputeLength;
  float nRec;
};

struct WelfordFinalizeConfig {
  bool isCorrection = false;
};

struct WelfordFinalizePara {
  std::uint32_t rnLength;
  std::uint32_t abLength;
  std::uint32_t headCount;
  std::uint32_t headCountLength;
  std::uint32_t tailCount;
  std::uint32_t tailCountLength;
  float abRec;
  float rRec;
  float rRecWithCorrection;
};

}  // namespace AscendC

namespace npusim::ascendc::welford {

using AscendC::LocalTensor;

inline std::uint32_t align8(std::uint32_t n) { return (n + 7) / 8 * 8; }
/// Two float vectors of `ab` elements, each 32-byte aligned.
inline std::uint32_t update_tmp_bytes(std::uint32_t ab) { return 2 * align8(ab) * 4; }
/// The same plus ReduceSum's 32-byte work area.
inline std::uint32_t finalize_tmp_bytes(std::uint32_t ab) { return 2 * align8(ab) * 4 + 32; }

inline void need_tmp(const char* api, const char* tiling, std::uint32_t have, std::uint32_t need) {
  if (have < need) {
    fail(api, "temporary space of %u bytes is below the %u bytes it needs (%s)", have, need,
         tiling);
  }
}

template <bool kInplace>
void update(const LocalTensor<float>& out_mean, const LocalTensor<float>& out_var,
            const LocalTensor<float>& in_mean, const LocalTensor<float>& in_var,
            const LocalTensor<float>& x, const HighLevelTmp& tmp,
            const AscendC::WelfordUpdateParam& p) {
  if (p.rnLength != 1 || p.abComputeLength == 0 || p.abComputeLength > p.abLength) {
    fail("WelfordUpdate", "needs rnLength 1 and 0 < abComputeLength <= abLength (got %u, %u, %u)",
         p.rnLength, p.abComputeLength, p.abLength);
  }
  need_tmp("WelfordUpdate", "GetWelfordUpdateMaxMinTmpSize", tmp.bytes(),
           update_tmp_bytes(p.abComputeLength));
  const auto n = static_cast<std::int32_t>(p.abComputeLength);
  const LocalTensor<float> delta = tmp.as<float>();
  const LocalTensor<float> t = tmp.as<float>(align8(p.abComputeLength));
  AscendC::Sub(delta, x, in_mean, n);
  AscendC::Muls(t, delta, p.nRec, n);
  AscendC::Add(out_mean, in_mean, t, n);
  AscendC::Sub(t, x, out_mean, n);
  AscendC::Mul(t, delta, t, n);
  AscendC::Add(out_var, in_var, t, n);
  if constexpr (kInplace) {
    const auto rest = static_cast<std::int32_t>(p.abLength - p.abComputeLength);
    if (rest > 0 && out_mean.twin_data() != in_mean.twin_data()) {
      AscendC::Muls(out_mean[p.abComputeLength], in_mean[p.abComputeLength], 1.0f, rest);
    }
    if (rest > 0 && out_var.twin_data() != in_var.twin_data()) {
      AscendC::Muls(out_var[p.abComputeLength], in_var[p.abComputeLength], 1.0f, rest);
    }
  }
}

/// counts as float in `c` (from the tensor, or head/tail counts when it has no buffer).
inline void counts_as_float(const LocalTensor<float>& c, const LocalTensor<std::int32_t>& counts,
                            const AscendC::WelfordFinalizePara& p) {
  if (counts.twin_data() != nullptr) {
    AscendC::Cast(c, counts, AscendC::RoundMode::CAST_NONE, p.abLength);
    return;
  }
  if (p.headCountLength + p.tailCountLength != p.abLength) {
    fail("WelfordFinalize", "headCountLength %u + tailCountLength %u must be abLength %u",
         p.headCountLength, p.tailCountLength, p.abLength);
  }
  if (p.headCountLength != 0) {
    AscendC::Duplicate(c, static_cast<float>(p.headCount),
                       static_cast<std::int32_t>(p.headCountLength));
  }
  if (p.tailCountLength != 0) {
    AscendC::Duplicate(c[p.headCountLength], static_cast<float>(p.tailCount),
                       static_cast<std::int32_t>(p.tailCountLength));
  }
}

inline void finalize(const LocalTensor<float>& out_mean, const LocalTensor<float>& out_var,
                     const LocalTensor<float>& in_mean, const LocalTensor<float>& in_var,
                     const LocalTensor<std::int32_t>& counts, const HighLevelTmp& tmp,
                     const AscendC::WelfordFinalizePara& p) {
  if (p.abLength == 0) fail("WelfordFinalize", "abLength must be positive");
  need_tmp("WelfordFinalize", "GetWelfordFinalizeMaxMinTmpSize", tmp.bytes(),
           finalize_tmp_bytes(p.abLength));
  const auto n = static_cast<std::int32_t>(p.abLength);
  const std::uint32_t ab8 = align8(p.abLength);
  const LocalTensor<float> c = tmp.as<float>();
  const LocalTensor<float> t = tmp.as<float>(ab8);
  const LocalTensor<float> work = tmp.as<float>(2 * ab8);
  counts_as_float(c, counts, p);
  AscendC::Mul(t, in_mean, c, n);
  AscendC::ReduceSum(out_mean, t, work, n);
  AscendC::Muls(out_mean, out_mean, p.rRec, 1);
  const float mean = out_mean.GetValue(0);
  AscendC::Adds(t, in_mean, -mean, n);
  AscendC::Mul(t, t, t, n);
  AscendC::Mul(t, t, c, n);
  AscendC::Add(t, t, in_var, n);
  AscendC::ReduceSum(out_var, t, work, n);
  AscendC::Muls(out_var, out_var, p.rRec, 1);
}

}  // namespace npusim::ascendc::welford

namespace AscendC {

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX,
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                          const WelfordUpdateParam& para) {
  static_assert(std::is_same_v<T, float> && std::is_same_v<U, float>,
                "the twin's WelfordUpdate supports float");
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::welford::update<config.isInplace>(outputMean, outputVariance, inputMean,
                                                     inputVariance, inputX, tmp, para);
}

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
  static_assert(std::is_same_v<T, float> && std::is_same_v<U, float>,
                "the twin's WelfordUpdate supports float");
  const std::uint32_t need = npusim::ascendc::welford::update_tmp_bytes(para.abComputeLength);
  const npusim::ascendc::HighLevelTmp tmp("WelfordUpdate", "GetWelfordUpdateMaxMinTmpSize", need,
                                          need);
  npusim::ascendc::welford::update<config.isInplace>(outputMean, outputVariance, inputMean,
                                                     inputVariance, inputX, tmp, para);
}

template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean,
                            const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean,
                            const LocalTensor<float>& inputVariance,
                            const LocalTensor<std::int32_t>& counts,
                            const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                            const WelfordFinalizePara& para) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::welford::finalize(outputMean, outputVariance, inputMean, inputVariance, counts,
                                     tmp, para);
}

template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean,
                            const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean,
                            const LocalTensor<float>& inputVariance,
                            const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                            const WelfordFinalizePara& para) {
  WelfordFinalize<isReuseSource>(outputMean, outputVariance, inputMean, inputVariance,
                                 LocalTensor<std::int32_t>(), sharedTmpBuffer, para);
}

template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean,
                            const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean,
                            const LocalTensor<float>& inputVariance,
                            const LocalTensor<std::int32_t>& counts,
                            const WelfordFinalizePara& para) {
  const std::uint32_t need = npusim::ascendc::welford::finalize_tmp_bytes(para.abLength);
  const npusim::ascendc::HighLevelTmp tmp("WelfordFinalize", "GetWelfordFinalizeMaxMinTmpSize",
                                          need, need);
  npusim::ascendc::welford::finalize(outputMean, outputVariance, inputMean, inputVariance, counts,
                                     tmp, para);
}

template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean,
                            const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean,
                            const LocalTensor<float>& inputVariance,
                            const WelfordFinalizePara& para) {
  WelfordFinalize<isReuseSource>(outputMean, outputVariance, inputMean, inputVariance,
                                 LocalTensor<std::int32_t>(), para);
}

}  // namespace AscendC
