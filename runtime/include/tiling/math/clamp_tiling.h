/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of ClampMin and ClampMax (lib/math/clamp.h): none: the temporary
 * space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_CLAMP_TILING_H_
#define NPUSIM_TILING_MATH_CLAMP_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

NPUSIM_MATH_TMP_SIZE(Clamp, 0, 0)

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_CLAMP_TILING_H_
