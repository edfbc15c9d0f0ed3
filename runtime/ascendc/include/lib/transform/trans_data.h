// SPDX-License-Identifier: Apache-2.0
// The TransData high-level API of the Ascend C twin (2-byte types):
//   TransData<config>(dst, src, [sharedTmpBuffer,] TransDataParams{srcLayout, dstLayout})
// with config {NCDHW, FRACTAL_Z_3D}: src [N, C, D, H, W] in UB with each (n, c, d) row of H * W
// elements padded to 32 bytes (hwPad); dst [D, C1, H, W, N1, N0, C0] (C0 = N0 = 16, C1 / N1
// rounded up; the C and N padding is zero):
//   dst[d][c1][hw][n1][n0][c0] = src[n1 * 16 + n0][c1 * 16 + c0][d][hw].
// The other format pairs fail the kernel naming TransData.
// Timing (vector pipe): one Duplicate (a zero block), per (n, d, c1) one TransDataTo5HD of
// hwPad / 16 repeats (16 x 16 transposes: c0 rows, hw columns) into the temporary buffer laid out
// as dst with hwPad positions, then one Copy run per (d, c1) moving its H * W valid positions to
// dst. Temporary space: (the dst size with hwPad for H * W) + 32 bytes
// (GetTransDataMaxMinTmpSize, tiling/transform/trans_data_tiling.h).
#pragma once

#include <cstdint>
#include <tuple>

#include "kernel_tiling/transform_tiling.h"
#include "lib/layout/layout.h"
#include "npusim/ascendc/high_level_copy.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"
#include "npusim/ascendc/vector_select.h"

namespace AscendC {

template <class U, class S>
struct TransDataParams {
  U srcLayout;
  S dstLayout;
};

}  // namespace AscendC

namespace npusim::ascendc {

/// The NCDHW -> FRACTAL_Z_3D sizes (elements) of an [N, C, D, H, W] shape.
struct Fz3dDims {
  std::uint32_t n, c, d, hw, hw_pad, n1, c1;
  std::uint32_t tmp_elems() const { return d * c1 * hw_pad * n1 * 16 * 16 + 16; }
};

template <class Shape>
Fz3dDims fz3d_dims(const Shape& s) {
  static_assert(Shape::kRank == 5, "TransData: an NCDHW layout has five extents");
  Fz3dDims f{};
  f.n = static_cast<std::uint32_t>(AscendC::Get<0>(s));
  f.c = static_cast<std::uint32_t>(AscendC::Get<1>(s));
  f.d = static_cast<std::uint32_t>(AscendC::Get<2>(s));
  f.hw = static_cast<std::uint32_t>(AscendC::Get<3>(s)) *
         static_cast<std::uint32_t>(AscendC::Get<4>(s));
  f.hw_pad = (f.hw + 15) / 16 * 16;
  f.n1 = (f.n + 15) / 16;
  f.c1 = (f.c + 15) / 16;
  return f;
}

/// NCDHW -> FRACTAL_Z_3D through `tmp` (tmp_elems() elements).
template <class T>
void ncdhw_to_fz3d(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const AscendC::LocalTensor<T>& tmp, const Fz3dDims& f) {
  const std::uint32_t np = f.n1 * 16, zero_at = f.d * f.c1 * f.hw_pad * np * 16;
  const AscendC::LocalTensor<T> zero = tmp[zero_at];
  AscendC::Duplicate(zero, static_cast<T>(0), 16);
  const std::uint64_t src_base = src.GetPhyAddr(), tmp_base = tmp.GetPhyAddr();
  const std::uint64_t zero_addr = zero.GetPhyAddr();
  AscendC::TransDataTo5HDParams p;
  p.repeatTimes = static_cast<std::uint8_t>(f.hw_pad / 16);
  p.srcRepStride = 1;                                    // the next 16 hw positions of a row
  p.dstRepStride = static_cast<std::uint16_t>(16 * np);  // 16 hw positions of dst further
  for (std::uint32_t n = 0; n < np; ++n) {
    for (std::uint32_t d = 0; d < f.d; ++d) {
      for (std::uint32_t c1 = 0; c1 < f.c1; ++c1) {
        std::uint64_t from[16], to[16];
        for (std::uint32_t i = 0; i < 16; ++i) {
          const std::uint32_t c = c1 * 16 + i;
          from[i] = n < f.n && c < f.c
                        ? src_base + ((static_cast<std::uint64_t>(n) * f.c + c) * f.d + d) *
                                         f.hw_pad * sizeof(T)
                        : zero_addr;
          to[i] = tmp_base + ((static_cast<std::uint64_t>(d * f.c1 + c1) * f.hw_pad + i) * np + n) *
                                 16 * sizeof(T);
        }
        AscendC::TransDataTo5HD<T>(to, from, p);
      }
    }
  }
  const std::uint32_t run = f.hw * np * 16;  // the valid positions of one (d, c1)
  for (std::uint32_t dc = 0; dc < f.d * f.c1; ++dc)
    ub_copy(dst[dc * run], tmp[dc * f.hw_pad * np * 16], run);
}

template <const AscendC::TransDataConfig& kConfig, class T, class U, class S>
void trans_data(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                const HighLevelTmp& tmp, const AscendC::TransDataParams<U, S>& params) {
  static_assert(sizeof(T) == 2, "TransData: 2-byte types");
  if constexpr (kConfig.srcFormat == AscendC::DataFormat::NCDHW &&
                kConfig.dstFormat == AscendC::DataFormat::FRACTAL_Z_3D) {
    const Fz3dDims f = fz3d_dims(params.srcLayout.GetShape());
    if (f.hw_pad / 16 > 255 || 16 * f.n1 * 16 > 0xFFFF)
      fail("TransData", "H * W %u or N %u too large for one transpose run", f.hw, f.n);
    if (tmp.bytes() < f.tmp_elems() * sizeof(T))
      fail("TransData", "sharedTmpBuffer of %u bytes is below the %u bytes needed "
           "(GetTransDataMaxMinTmpSize)", tmp.bytes(),
           static_cast<unsigned>(f.tmp_elems() * sizeof(T)));
    ncdhw_to_fz3d(dst, src, tmp.as<T>(), f);
  } else {
    fail("TransData", "the format pair %u -> %u is not supported by the simulator (NCDHW -> "
         "FRACTAL_Z_3D is)", static_cast<unsigned>(kConfig.srcFormat),
         static_cast<unsigned>(kConfig.dstFormat));
  }
}

}  // namespace npusim::ascendc

namespace AscendC {

template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                      const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                      const TransDataParams<U, S>& params) {
  const npusim::ascendc::HighLevelTmp tmp(sharedTmpBuffer);
  npusim::ascendc::trans_data<config>(dstTensor, srcTensor, tmp, params);
}

template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                      const TransDataParams<U, S>& params) {
  using namespace npusim::ascendc;
  std::uint32_t bytes = 32;  // an unsupported pair fails in trans_data
  if constexpr (config.srcFormat == DataFormat::NCDHW &&
                config.dstFormat == DataFormat::FRACTAL_Z_3D) {
    bytes = fz3d_dims(params.srcLayout.GetShape()).tmp_elems() * sizeof(T);
  }
  const HighLevelTmp tmp("TransData", "GetTransDataMaxMinTmpSize", bytes, bytes);
  trans_data<config>(dstTensor, srcTensor, tmp, params);
}

}  // namespace AscendC
