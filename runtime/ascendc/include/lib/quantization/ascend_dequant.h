// SPDX-License-Identifier: Apache-2.0
// The AscendDequant high-level API of the Ascend C twin: src int32 [m, n] (n * 4 bytes a
// multiple of 32), for each row the first calCount elements
//   dst[i][j] = dstT(float(src[i][j]) * deqScale[j])     (deqScale a tensor of >= calCount)
//   dst[i][j] = dstT(float(src[i][j]) * deqScale)        (deqScale a scalar)
// dst rows are n_dst elements apart, n * sizeof(dstT) rounded up to 32 bytes; the rest of each
// dst row is left. DEQUANT_WITH_SINGLE_ROW treats {1, n, calCount} as {n / calCount, calCount,
// calCount} when calCount is a multiple of 32 / sizeof(dstT) and divides n.
// Timing: per row, on the vector pipe, Cast int32 -> float, Mul (Muls), and for half / bfloat16
// dst a Cast float -> dstT (CAST_RINT). Temporary space: float dst none; otherwise one float row
// (calCount floats; GetAscendDequantMaxMinTmpSize). scaleT is float.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

struct DequantParams {
  std::uint32_t m;
  std::uint32_t n;
  std::uint32_t calCount;
};

enum DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

}  // namespace AscendC

namespace npusim::ascendc::quant {

using AscendC::LocalTensor;

template <class D>
AscendC::DequantParams dequant_shape(AscendC::DequantParams p, AscendC::DeQuantMode mode) {
  if (p.n == 0 || p.calCount == 0 || p.calCount > p.n || (p.n * 4) % 32 != 0) {
    fail("AscendDequant",
         "DequantParams {m %u, n %u, calCount %u}: need 1 <= calCount <= n and "
         "n * 4 bytes a multiple of 32",
         p.m, p.n, p.calCount);
  }
  const std::uint32_t block = 32 / sizeof(D);
  if (mode == AscendC::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount % block == 0 &&
      p.n % p.calCount == 0) {
    return {p.n / p.calCount, p.calCount, p.calCount};
  }
  return p;
}

/// The scale: a tensor (per column) or, when it has no buffer, the scalar.
struct DequantScale {
  LocalTensor<float> tensor;
  float scalar = 0;
};

template <class D>
void ascend_dequant(const LocalTensor<D>& dst, const LocalTensor<std::int32_t>& src,
                    const DequantScale& scale, const HighLevelTmp& tmp, AscendC::DequantParams p) {
  static_assert(std::is_same_v<D, float> || std::is_same_v<D, Half> || std::is_same_v<D, BFloat16>,
                "AscendDequant's dst is float, half or bfloat16_t");
  const std::uint32_t dst_pitch = (p.n * sizeof(D) + 31) / 32 * 32 / sizeof(D);
  const auto c = static_cast<std::int32_t>(p.calCount);
  const bool per_column = scale.tensor.twin_data() != nullptr;
  if (per_column && scale.tensor.GetSize() < p.calCount) {
    fail("AscendDequant", "deqScale has %u elements, calCount is %u", scale.tensor.GetSize(),
         p.calCount);
  }
  constexpr bool kDirect = std::is_same_v<D, float>;
  if (!kDirect && tmp.bytes() < p.calCount * 4) {
    fail("AscendDequant",
         "temporary space of %u bytes is below one row of %u floats "
         "(GetAscendDequantMaxMinTmpSize)",
         tmp.bytes(), p.calCount);
  }
  for (std::uint32_t i = 0; i < p.m; ++i) {
    LocalTensor<float> f;
    if constexpr (kDirect) {
      f = dst[i * dst_pitch];
    } else {
      f = tmp.as<float>();
    }
    AscendC::Cast(f, src[i * p.n], AscendC::RoundMode::CAST_NONE, p.calCount);
    if (per_column) {
      AscendC::Mul(f, f, scale.tensor, c);
    } else {
      AscendC::Muls(f, f, scale.scalar, c);
    }
    if constexpr (!kDirect)
      AscendC::Cast(dst[i * dst_pitch], f, AscendC::RoundMode::CAST_RINT, p.calCount);
  }
}

template <class D>
void dequant_framework(const LocalTensor<D>& dst, const LocalTensor<std::int32_t>& src,
                       const DequantScale& scale, AscendC::DequantParams p) {
  const std::uint32_t need = std::is_same_v<D, float> ? 0 : (p.calCount * 4 + 31) / 32 * 32;
  const HighLevelTmp tmp("AscendDequant", "GetAscendDequantMaxMinTmpSize", need, need);
  ascend_dequant(dst, src, scale, tmp, p);
}

}  // namespace npusim::ascendc::quant

namespace AscendC {

template <typename dstT, typename scaleT, DeQuantMode mode = DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor,
                          const LocalTensor<std::int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale,
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer, DequantParams params) {
  static_assert(std::is_same_v<scaleT, float>, "the twin's AscendDequant takes a float deqScale");
  using namespace npusim::ascendc::quant;
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  ascend_dequant(dstTensor, srcTensor, DequantScale{deqScale, 0.0f}, tmp,
                 dequant_shape<dstT>(params, mode));
}

template <typename dstT, typename scaleT, DeQuantMode mode = DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor,
                          const LocalTensor<std::int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, DequantParams params) {
  static_assert(std::is_same_v<scaleT, float>, "the twin's AscendDequant takes a float deqScale");
  using namespace npusim::ascendc::quant;
  dequant_framework(dstTensor, srcTensor, DequantScale{deqScale, 0.0f},
                    dequant_shape<dstT>(params, mode));
}

template <typename dstT, typename scaleT, DeQuantMode mode = DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor,
                          const LocalTensor<std::int32_t>& srcTensor, const scaleT deqScale,
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer, DequantParams params) {
  static_assert(std::is_same_v<scaleT, float>, "the twin's AscendDequant takes a float deqScale");
  using namespace npusim::ascendc::quant;
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  ascend_dequant(dstTensor, srcTensor, DequantScale{LocalTensor<float>(), deqScale}, tmp,
                 dequant_shape<dstT>(params, mode));
}

template <typename dstT, typename scaleT, DeQuantMode mode = DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor,
                          const LocalTensor<std::int32_t>& srcTensor, const scaleT deqScale,
                          DequantParams params) {
  static_assert(std::is_same_v<scaleT, float>, "the twin's AscendDequant takes a float deqScale");
  using namespace npusim::ascendc::quant;
  dequant_framework(dstTensor, srcTensor, DequantScale{LocalTensor<float>(), deqScale},
                    dequant_shape<dstT>(params, mode));
}

}  // namespace AscendC
