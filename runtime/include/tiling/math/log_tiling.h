/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Log, Log2 and Log10 (lib/math/log.h). Float needs none, half 4
 * bytes per element: the temporary space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_LOG_TILING_H_
#define NPUSIM_TILING_MATH_LOG_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

NPUSIM_MATH_TMP_SIZE(Log, 0, 4)
NPUSIM_MATH_TMP_SIZE(Log2, 0, 4)
NPUSIM_MATH_TMP_SIZE(Log10, 0, 4)

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_LOG_TILING_H_
