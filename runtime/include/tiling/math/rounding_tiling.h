/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Ceil, Floor, Trunc, Rint, Round and Frac
 * (lib/math/rounding.h). Float needs 12 bytes per element (Frac 16), half 16 (Frac 20): the
 * temporary space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_ROUNDING_TILING_H_
#define NPUSIM_TILING_MATH_ROUNDING_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

NPUSIM_MATH_TMP_SIZE(Ceil, 12, 16)
NPUSIM_MATH_TMP_SIZE(Floor, 12, 16)
NPUSIM_MATH_TMP_SIZE(Trunc, 12, 16)
NPUSIM_MATH_TMP_SIZE(Rint, 12, 16)
NPUSIM_MATH_TMP_SIZE(Round, 12, 16)
NPUSIM_MATH_TMP_SIZE(Frac, 16, 20)

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_ROUNDING_TILING_H_
