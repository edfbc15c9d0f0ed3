// SPDX-License-Identifier: Apache-2.0
// op::fp16_t, the host-side IEEE binary16 type of CANN's operator headers (opdev/fp16_t.h), as
// host programs use it to fill and check half-precision buffers (CATLASS's examples: their
// helper.hpp). It is the Ascend C twin's half (npusim/ascendc/half.h): 16-bit storage, implicit
// conversion from any arithmetic type rounded to nearest even, implicit conversion to float,
// arithmetic in float rounded back. Host code only: no simulated time.
#ifndef NPUSIM_OPDEV_FP16_T_H
#define NPUSIM_OPDEV_FP16_T_H

#include "opdev/small_float.h"

namespace op {
using fp16_t = npusim::ascendc::Half;
}  // namespace op

#endif  // NPUSIM_OPDEV_FP16_T_H
