// SPDX-License-Identifier: Apache-2.0
// Half-float conversions (round to nearest even, ACL's saturation of special values) and
// aclDataTypeSize.
#include <cmath>
#include <limits>

#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

TEST(HalfFloat, SampleValueRoundTrips) {
  EXPECT_EQ(aclFloatToFloat16(1.625f), 0x3e80);
  EXPECT_EQ(aclFloat16ToFloat(0x3e80), 1.625f);
}

TEST(HalfFloat, SpecialValuesSaturate) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(aclFloatToFloat16(std::numeric_limits<float>::quiet_NaN()), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(-std::numeric_limits<float>::quiet_NaN()), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(inf), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(-inf), 0xFBFF);
  EXPECT_EQ(aclFloatToFloat16(65504.0f), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(65519.0f), 0x7BFF);  // rounds down to the maximum
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7BFF);  // would round to Inf: saturates
  EXPECT_EQ(aclFloatToFloat16(-1e9f), 0xFBFF);
  // Half → float reads exponent 31 as an ordinary exponent (documented).
  EXPECT_EQ(aclFloat16ToFloat(0x7C00), 65536.0f);
  EXPECT_EQ(aclFloat16ToFloat(0xFC00), -65536.0f);
  EXPECT_EQ(aclFloat16ToFloat(0x7E00), 98304.0f);
}

TEST(HalfFloat, RoundsToNearestEven) {
  EXPECT_EQ(aclFloatToFloat16(1.0f + std::ldexp(1.0f, -11)), 0x3C00);      // tie → even
  EXPECT_EQ(aclFloatToFloat16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);  // tie → even
  EXPECT_EQ(aclFloatToFloat16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3C01);
  EXPECT_EQ(aclFloatToFloat16(0.1f), 0x2E66);
  EXPECT_EQ(aclFloatToFloat16(-2.0f), 0xC000);
  EXPECT_EQ(aclFloatToFloat16(-0.0f), 0x8000);
  EXPECT_EQ(aclFloatToFloat16(2047.0f + 0.5f), 0x67FF + 1);  // 2048: carry into the exponent
}

TEST(HalfFloat, Subnormals) {
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -25)), 0x0000);  // tie → even (0)
  EXPECT_EQ(aclFloatToFloat16(3 * std::ldexp(1.0f, -26)), 0x0001);
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1.0f, -30)), 0x0000);
  EXPECT_EQ(aclFloatToFloat16(std::ldexp(1023.0f, -24)), 0x03FF);
  EXPECT_EQ(aclFloat16ToFloat(0x0001), std::ldexp(1.0f, -24));
}

TEST(HalfFloat, EveryFiniteHalfRoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if (((h >> 10) & 0x1F) == 0x1F) continue;  // exponent 31 has no float meaning here
    ASSERT_EQ(aclFloatToFloat16(aclFloat16ToFloat(static_cast<aclFloat16>(h))), h) << h;
  }
}

TEST(DataTypeSize, Sizes) {
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_BOOL), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT4), 0u);
  EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(999)), 0u);
}

}  // namespace
}  // namespace npusim::rt::testing
