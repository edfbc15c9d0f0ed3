/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Erf (lib/math/erf.h). Float needs 12 bytes per element, half
 * 16: the temporary space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_ERF_TILING_H_
#define NPUSIM_TILING_MATH_ERF_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

NPUSIM_MATH_TMP_SIZE(Erf, 12, 16)

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_ERF_TILING_H_
