/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of Fmod (lib/math/fmod.h). Float needs 16 bytes per element, half
 * 24: the temporary space range (math_tmp_size.h).
 */
#ifndef NPUSIM_TILING_MATH_FMOD_TILING_H_
#define NPUSIM_TILING_MATH_FMOD_TILING_H_

#include <cstdint>

#include "tiling/math/math_tmp_size.h"

namespace AscendC {

NPUSIM_MATH_TMP_SIZE(Fmod, 16, 24)

}  // namespace AscendC

#endif  // NPUSIM_TILING_MATH_FMOD_TILING_H_
