/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Axpy (lib/math/axpy.h), typeSize being the source's: a half
 * source may go to a float destination, which needs 4 bytes per element; float none: the temporary
 * space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_AXPY_TILING_H_
#define NPUSIM_TILING_MATH_AXPY_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

NPUSIM_MATH_TMP_SIZE(Axpy, 0, 4)

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_AXPY_TILING_H_
