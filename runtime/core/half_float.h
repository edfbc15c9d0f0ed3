// SPDX-License-Identifier: Apache-2.0
// IEEE half-precision conversions with ACL's documented special-value rules:
//  - float → half rounds to nearest even; NaN and +Inf become 65504 (0x7BFF), -Inf and finite
//    values beyond the half range saturate to ±65504;
//  - half → float is exact for finite values and reads exponent 31 as an ordinary exponent
//    (+Inf 0x7C00 → 65536.0, NaN 0x7E00 → 98304.0).
#pragma once

#include <cstdint>

namespace npusim::rt {

std::uint16_t float_to_half(float value);
float half_to_float(std::uint16_t value);

}  // namespace npusim::rt
