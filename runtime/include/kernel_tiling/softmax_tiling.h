/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's device-side tiling structures of the SoftMax family (lib/activation/softmax*.h,
 * log_softmax.h): SoftMaxTiling and LogSoftMaxTiling, 16 uint32 fields each, filled on the host
 * by the tiling functions of tiling/activation/softmax_tiling.h (or by the kernel itself).
 * src*: the [m, k] input; outMax*: the [m, elements per 32 bytes] max / sum tensors; split*: the
 * rows one pass over the temporary buffer computes (splitM rows of splitK); reduce*: one pass's
 * per-row results; rangeM full passes and a tail of tailM rows. The twin's kernels read only the
 * shape they are given (SoftMaxShapeInfo) and size their passes from the temporary buffer, so a
 * zeroed tiling (as a kernel that declares one without filling it passes) is accepted.
 */
#ifndef NPUSIM_KERNEL_TILING_SOFTMAX_TILING_H_
#define NPUSIM_KERNEL_TILING_SOFTMAX_TILING_H_

#include <cstdint>

#define NPUSIM_SOFTMAX_TILING_FIELDS(X)                                                   \
  X(srcM) X(srcK) X(srcSize) X(outMaxM) X(outMaxK) X(outMaxSize) X(splitM) X(splitK)    \
  X(splitSize) X(reduceM) X(reduceK) X(reduceSize) X(rangeM) X(tailM) X(tailSplitSize) \
  X(tailReduceSize)

namespace AscendC {
namespace tiling {

#define NPUSIM_SOFTMAX_FIELD(f) std::uint32_t f = 0;
struct SoftMaxTiling {
  NPUSIM_SOFTMAX_TILING_FIELDS(NPUSIM_SOFTMAX_FIELD)
};
struct LogSoftMaxTiling {
  NPUSIM_SOFTMAX_TILING_FIELDS(NPUSIM_SOFTMAX_FIELD)
};
#undef NPUSIM_SOFTMAX_FIELD
static_assert(sizeof(SoftMaxTiling) == 64, "SoftMaxTiling is 16 uint32 fields");

}  // namespace tiling
}  // namespace AscendC

using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::SoftMaxTiling;

#endif  // NPUSIM_KERNEL_TILING_SOFTMAX_TILING_H_
