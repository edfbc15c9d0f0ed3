/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Acosh (lib/math/acosh.h). Float needs 8 bytes per element,
 * half 12: the temporary space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_ACOSH_TILING_H_
#define NPUSIM_TILING_MATH_ACOSH_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

NPUSIM_MATH_TMP_SIZE(Acosh, 8, 12)

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_ACOSH_TILING_H_
