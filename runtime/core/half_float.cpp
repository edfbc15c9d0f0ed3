// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/half_float.h"

#include <cmath>
#include <cstring>

namespace npusim::rt {
namespace {

constexpr std::uint16_t kHalfMax = 0x7BFF;

// Shifts `mantissa` right by `shift` bits, rounding to nearest even.
std::uint32_t shift_round_even(std::uint32_t mantissa, int shift) {
  std::uint32_t kept = mantissa >> shift;
  std::uint32_t rest = mantissa & ((1u << shift) - 1);
  std::uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (kept & 1u) != 0)) ++kept;
  return kept;
}

}  // namespace

std::uint16_t float_to_half(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  int exponent = static_cast<int>((bits >> 23) & 0xFFu);
  std::uint32_t mantissa = bits & 0x7FFFFFu;
  if (exponent == 0xFF)
    return mantissa != 0 ? kHalfMax : static_cast<std::uint16_t>(sign | kHalfMax);
  int e = exponent - 127 + 15;  // biased half exponent
  if (e >= 31) return static_cast<std::uint16_t>(sign | kHalfMax);
  if (e <= 0) {  // half subnormal (or zero): units of 2^-24
    if (e < -10) return sign;
    std::uint32_t m = shift_round_even(mantissa | 0x800000u, 14 - e);
    return static_cast<std::uint16_t>(sign | m);  // a carry lands in the exponent field
  }
  std::uint32_t magnitude = (static_cast<std::uint32_t>(e) << 10) + shift_round_even(mantissa, 13);
  if (magnitude >= 0x7C00u) return static_cast<std::uint16_t>(sign | kHalfMax);
  return static_cast<std::uint16_t>(sign | magnitude);
}

float half_to_float(std::uint16_t value) {
  int exponent = (value >> 10) & 0x1F;
  int mantissa = value & 0x3FF;
  double magnitude =
      exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
  return static_cast<float>((value & 0x8000u) != 0 ? -magnitude : magnitude);
}

}  // namespace npusim::rt
