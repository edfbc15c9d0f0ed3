// SPDX-License-Identifier: Apache-2.0
// Where opdev/fp16_t.h and opdev/bfloat16.h find the twin's 16-bit float types: in the install
// tree include/opdev/ sits beside include/ascendc/ (the twin's headers); in npusim's source tree
// the twin's include directory (runtime/ascendc/include) is on the include path.
#ifndef NPUSIM_OPDEV_SMALL_FLOAT_H
#define NPUSIM_OPDEV_SMALL_FLOAT_H

#if __has_include("../ascendc/npusim/ascendc/half.h")
#include "../ascendc/npusim/ascendc/half.h"
#else
#include "npusim/ascendc/half.h"
#endif

#endif  // NPUSIM_OPDEV_SMALL_FLOAT_H
