// SPDX-License-Identifier: Apache-2.0
// Ascend C kernel of 2-D pooling over NCHW planes (pool_kernels.cpp), tiling filled by pool.cpp:
// aclnnMaxPool2dWithIndices, aclnnMaxPool, aclnnAvgPool2d, aclnnAdaptiveAvgPool2d.
//
// Work unit = one band of output rows; units are split evenly over the vector cores. A band's
// input rows move GM -> UB with one DataCopyPad whose right padding puts the pad value (-inf for
// max, 0 for average) after every row; rows above / below the plane (padding) are filled with
// Duplicate. For every window element (i, j) one Gather (offset table j over the whole band,
// built once per block; out-of-range columns point at the pad element) pulls the band's inputs
// into place, then Max (and Compare + Adds + Select of the candidate flat index ih * W + iw for
// the indices) or Add (in float) accumulates: kh * kw tap steps per band, whatever its size.
// When the planes have no vertical padding or leftover rows (stride * Ho == H, no indices), the
// bands run across plane boundaries ("flat": global pooling of many small planes in one band).
// Averages are scaled by the separable divisor (1 / row factor by Muls, 1 / column factors by
// Mul with a table) or 1 / divisorOverride. Adaptive pooling whose windows are uniform (H % Ho ==
// 0 and W % Wo == 0) is this regular pooling; other adaptive windows go row by row (rowwise).
#pragma once

#include <cstdint>

namespace npusim::aclnn::kernels {

struct PoolTiling {
  std::int32_t dtype = 0;  // 0 float, 1 half, 2 bfloat16
  bool max = true;         // max pooling; else average
  bool indices = false;    // max: also write INT32 indices
  bool adaptive = false;   // adaptive average windows
  bool count_include_pad = true;
  std::int64_t divisor = 0;  // divisorOverride (0: none)
  std::int64_t planes = 0;   // N * C
  std::int64_t h = 0, w = 0, ho = 0, wo = 0;
  std::int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  bool rowwise = false;      // adaptive windows of varying size: one output row at a time
  bool flat = false;         // bands run across planes (see above)
  std::int64_t band = 1;     // output rows per unit
  std::int64_t band_in = 1;  // input rows a band needs at most
  std::int64_t bands = 1;    // per plane (flat: in all)
  std::int64_t units = 0;
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
