/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of the Exp high-level API (lib/math/exp.h), for its Taylor forms
 * (taylorExpandLevel > 0; level 0 needs none for float, 4 bytes per element for half): float needs
 * 20 bytes per element, half 24: the temporary space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_EXP_TILING_H_
#define NPUSIM_TILING_MATH_EXP_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

NPUSIM_MATH_TMP_SIZE(Exp, 20, 24)

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_EXP_TILING_H_
