// SPDX-License-Identifier: Apache-2.0
// Ascend C kernel of 2-D pooling over NCHW planes (pool_kernels.cpp), tiling filled by pool.cpp:
// aclnnMaxPool2dWithIndices, aclnnAvgPool2d, aclnnAdaptiveAvgPool2d.
//
// Work unit = one band of output rows of one (n, c) plane; units are split evenly over the
// vector cores. A band's input rows move GM -> UB with one DataCopyPad whose right padding puts
// the pad value (-inf for max, 0 for average) after every row. For every output row and window
// element (i, j) one Gather (column offset table j, built once per block; out-of-range columns
// point at the pad element) pulls the Wo inputs into a row, then Max (and Compare + Select of the
// candidate flat index ih * W + iw for the indices) or Add (in float) accumulates. Averages are
// scaled by the separable divisor (1 / row factor by Muls, 1 / column factors by Mul) or
// 1 / divisorOverride.
#pragma once

#include <cstdint>

namespace npusim::aclnn::kernels {

struct PoolTiling {
  std::int32_t dtype = 0;      // 0 float, 1 half, 2 bfloat16
  bool max = true;             // max pooling; else average
  bool indices = false;        // max: also write INT32 indices
  bool adaptive = false;       // adaptive average windows
  bool count_include_pad = true;
  std::int64_t divisor = 0;    // divisorOverride (0: none)
  std::int64_t planes = 0;     // N * C
  std::int64_t h = 0, w = 0, ho = 0, wo = 0;
  std::int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  std::int64_t band = 1;       // output rows per unit
  std::int64_t band_in = 1;    // input rows a band needs at most
  std::int64_t bands = 1;      // per plane
  std::int64_t units_per_block = 0;
};

void pool_kernel_f32(std::uint8_t* x, std::uint8_t* y, std::uint8_t* idx, const PoolTiling& t);
void pool_kernel_f16(std::uint8_t* x, std::uint8_t* y, std::uint8_t* idx, const PoolTiling& t);
void pool_kernel_bf16(std::uint8_t* x, std::uint8_t* y, std::uint8_t* idx, const PoolTiling& t);

/// The window of output position o along one axis: first input position, number of window
/// elements (kernel taps), and the row/column factor of the average's divisor.
struct AxisWindow {
  std::int64_t start = 0;   // input position of tap 0
  std::int64_t taps = 0;    // kernel taps (regular: k; adaptive: end - start)
  std::int64_t factor = 1;  // divisor factor (count_include_pad: clipped to the padded extent)
};
AxisWindow axis_window(const PoolTiling& t, bool rows, std::int64_t o);

}  // namespace npusim::aclnn::kernels
