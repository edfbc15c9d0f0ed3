/*
 * SPDX-License-Identifier: Apache-2.0
 * The enumerations that Ascend C's kernel APIs and host tiling functions share (kernel and host
 * sources both see kernel_tiling/): a tensor's data format (ShapeInfo, TransData), the element
 * types as the graph engine numbers them (the tiling functions' dtype arguments), and which axes a
 * reduction reduces (R) and keeps (A).
 */
#ifndef NPUSIM_KERNEL_TILING_ASCENDC_TYPES_H_
#define NPUSIM_KERNEL_TILING_ASCENDC_TYPES_H_

#include <cstdint>

namespace AscendC {

enum class DataFormat : std::uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

enum class TensorDataType : std::int32_t {
  DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6,
  DT_UINT16 = 7, DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12,
  DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29
};

/// The twin's reductions and Normalize take AR and RA; the other patterns are named for the
/// tiling functions, which refuse them.
enum class ReducePattern : std::uint32_t { AR = 0, RA = 1, R, ARA, ARAR, ARARA, ARARAR, ARARARA };

}  // namespace AscendC

#endif  // NPUSIM_KERNEL_TILING_ASCENDC_TYPES_H_
