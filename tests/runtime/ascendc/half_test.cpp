// SPDX-License-Identifier: Apache-2.0
// half / bfloat16_t: conversions round to nearest even (also from double, without double
// rounding), overflow to inf, subnormals, mixed-type arithmetic, explicit rounding modes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernel_operator.h"

namespace {

using npusim::ascendc::Fp16Format;
using npusim::ascendc::round_to_format;
using npusim::ascendc::Rounding;

std::uint16_t bits(half h) { return h.bits(); }
std::uint16_t bits(bfloat16_t h) { return h.bits(); }
float from_bits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

TEST(Half, OnePlusTwoIs0x4200) {
  EXPECT_EQ(bits(half(1.0f) + half(2.0f)), 0x4200);
  EXPECT_EQ(bits(half(1.0f)), 0x3c00);
  EXPECT_EQ(static_cast<float>(half::from_bits(0x4200)), 3.0f);
}

TEST(Half, RoundsToNearestEven) {
  EXPECT_EQ(bits(half(2049.0f)), 0x6800);                           // tie -> even (2048)
  EXPECT_EQ(bits(half(2051.0f)), 0x6802);                           // tie -> even (2052)
  EXPECT_EQ(bits(half(1.0f + std::ldexp(1.0f, -11))), 0x3c00);      // 1 + ulp/2 -> 1
  EXPECT_EQ(bits(half(1.0f + 3 * std::ldexp(1.0f, -11))), 0x3c02);  // 1 + 3ulp/2 -> 1 + 2ulp
  EXPECT_EQ(bits(half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20))), 0x3c01);
  EXPECT_EQ(bits(half(-2049.0f)), 0xe800);
}

TEST(Half, FromDoubleHasNoDoubleRounding) {
  // Through float this would become the tie 1 + 2^-11 and round down to 1.0.
  const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(bits(half(x)), 0x3c01);
  EXPECT_EQ(bits(half(3)), 0x4200);
  EXPECT_EQ(bits(half(65504)), 0x7bff);
}

TEST(Half, OverflowAndSpecials) {
  EXPECT_EQ(bits(half(65504.0f)), 0x7bff);
  EXPECT_EQ(bits(half(65519.0f)), 0x7bff);
  EXPECT_EQ(bits(half(65520.0f)), 0x7c00);
  EXPECT_EQ(bits(half(1e6f)), 0x7c00);
  EXPECT_EQ(bits(half(-1e6f)), 0xfc00);
  EXPECT_EQ(bits(half(60000.0f) + half(10000.0f)), 0x7c00);
  EXPECT_EQ(bits(half(INFINITY)), 0x7c00);
  EXPECT_TRUE(std::isnan(static_cast<float>(half(NAN))));
  EXPECT_EQ(bits(half(-0.0f)), 0x8000);
}

TEST(Half, Subnormals) {
  EXPECT_EQ(bits(half(std::ldexp(1.0f, -24))), 0x0001);
  EXPECT_EQ(bits(half(std::ldexp(1.0f, -25))), 0x0000);      // tie -> even (0)
  EXPECT_EQ(bits(half(3 * std::ldexp(1.0f, -26))), 0x0001);  // 0.75 ulp -> 1 ulp
  EXPECT_EQ(bits(half(3 * std::ldexp(1.0f, -25))), 0x0002);  // 1.5 ulp -> 2 ulp
  EXPECT_EQ(bits(half(std::ldexp(1.0f, -14))), 0x0400);
  EXPECT_EQ(static_cast<float>(half::from_bits(0x0001)), std::ldexp(1.0f, -24));
}

TEST(Half, EveryHalfRoundTripsThroughFloat) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const half h = half::from_bits(static_cast<std::uint16_t>(b));
    const float f = static_cast<float>(h);
    if (std::isnan(f)) continue;
    ASSERT_EQ(bits(half(f)), b);
    ASSERT_EQ(static_cast<double>(f), npusim::ascendc::format_to_double(b, 10, 5));
  }
}

TEST(Half, FastFloatConversionMatchesReference) {
  // A spread of float bit patterns (stride coprime with 2^32) plus the binade edges.
  for (std::uint64_t b = 0; b < (1ull << 32); b += 10007) {
    const float f = from_bits(static_cast<std::uint32_t>(b));
    if (std::isnan(f)) continue;
    ASSERT_EQ(Fp16Format::from_float(f), round_to_format(f, 10, 5, Rounding::kNearestEven)) << b;
  }
  for (std::uint32_t e = 100; e < 145; ++e) {
    for (std::uint32_t m : {0u, 1u, 0xfffu, 0x1000u, 0x1001u, 0x2000u, 0x3000u, 0x7fffffu}) {
      const float f = from_bits((e << 23) | m);
      ASSERT_EQ(Fp16Format::from_float(f), round_to_format(f, 10, 5, Rounding::kNearestEven));
    }
  }
}

TEST(Half, MixedArithmeticTypes) {
  static_assert(std::is_same_v<decltype(half(1) * 2.0f), float>);
  static_assert(std::is_same_v<decltype(half(1) * 2.0), double>);
  static_assert(std::is_same_v<decltype(half(1) * 2), half>);
  static_assert(std::is_same_v<decltype(half(1) * half(2)), half>);
  half h = 1.5f;
  h += 1;
  EXPECT_EQ(static_cast<float>(h), 2.5f);
  EXPECT_TRUE(half(1.0f) < half(2.0f));
  EXPECT_TRUE(half(2.0f) == 2);
  EXPECT_EQ(bits(-half(1.0f)), 0xbc00);
}

TEST(BFloat16, RoundsToNearestEven) {
  EXPECT_EQ(bits(bfloat16_t(1.0f)), 0x3f80);
  EXPECT_EQ(bits(bfloat16_t(1.0f + std::ldexp(1.0f, -8))), 0x3f80);  // tie -> even
  EXPECT_EQ(bits(bfloat16_t(1.0f + 3 * std::ldexp(1.0f, -8))), 0x3f82);
  EXPECT_EQ(bits(bfloat16_t(3.0e38f) * bfloat16_t(10.0f)), 0x7f80);  // overflow -> inf
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16_t(NAN))));
  EXPECT_EQ(bits(bfloat16_t(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30))), 0x3f81);
}

TEST(RoundToFormat, DirectedModes) {
  const double x = 1.0 + std::ldexp(1.0, -11);  // halfway between two halfs
  EXPECT_EQ(round_to_format(x, 10, 5, Rounding::kNearestEven), 0x3c00u);
  EXPECT_EQ(round_to_format(x, 10, 5, Rounding::kNearestAway), 0x3c01u);
  EXPECT_EQ(round_to_format(x, 10, 5, Rounding::kCeil), 0x3c01u);
  EXPECT_EQ(round_to_format(x, 10, 5, Rounding::kFloor), 0x3c00u);
  EXPECT_EQ(round_to_format(x, 10, 5, Rounding::kTrunc), 0x3c00u);
  EXPECT_EQ(round_to_format(x, 10, 5, Rounding::kOdd), 0x3c01u);
  EXPECT_EQ(round_to_format(-x, 10, 5, Rounding::kCeil), 0xbc00u);
  EXPECT_EQ(round_to_format(-x, 10, 5, Rounding::kFloor), 0xbc01u);
  EXPECT_EQ(round_to_format(1e6, 10, 5, Rounding::kTrunc), 0x7bffu);  // overflow toward zero
  EXPECT_EQ(round_to_format(-1e6, 10, 5, Rounding::kCeil), 0xfbffu);
  EXPECT_EQ(round_to_format(1e6, 10, 5, Rounding::kCeil), 0x7c00u);
  EXPECT_EQ(round_to_format(16777217.0, 23, 8, Rounding::kNearestEven), 0x4b800000u);  // float
}

}  // namespace
