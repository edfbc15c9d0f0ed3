// SPDX-License-Identifier: Apache-2.0
// op::bfloat16, the host-side bfloat16 type of CANN's operator headers (opdev/bfloat16.h), as
// host programs use it to fill and check bfloat16 buffers (CATLASS's examples: their
// helper.hpp). It is the Ascend C twin's bfloat16_t (npusim/ascendc/half.h): 16-bit storage
// (the high half of a float), conversions rounded to nearest even, arithmetic in float rounded
// back. Host code only: no simulated time.
#ifndef NPUSIM_OPDEV_BFLOAT16_H
#define NPUSIM_OPDEV_BFLOAT16_H

#include "opdev/small_float.h"

namespace op {
using bfloat16 = npusim::ascendc::BFloat16;
}  // namespace op

#endif  // NPUSIM_OPDEV_BFLOAT16_H
