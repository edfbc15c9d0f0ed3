// SPDX-License-Identifier: Apache-2.0
// BEGIN_TILING_DATA_DEF (tiling/tiling_data_def.h): the bytes SaveToBuffer writes are the layout
// of the kernel's plain struct of the same members (padding, nested classes, arrays), copies keep
// their own values, and a short buffer is refused without writing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NpusimTestInner)
TILING_DATA_FIELD_DEF(uint32_t, a);
TILING_DATA_FIELD_DEF(uint16_t, b);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(NpusimTestOuter)
TILING_DATA_FIELD_DEF(uint8_t, c);
TILING_DATA_FIELD_DEF_STRUCT(NpusimTestInner, inner);
TILING_DATA_FIELD_DEF_ARR(int64_t, 2, arr);
TILING_DATA_FIELD_DEF(float, f);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NpusimTestOp, NpusimTestOuter)
}  // namespace optiling

namespace {

struct Inner {
  std::uint32_t a;
  std::uint16_t b;
};
struct Outer {
  std::uint8_t c;
  Inner inner;
  std::int64_t arr[2];
  float f;
};

optiling::NpusimTestOuter filled() {
  optiling::NpusimTestOuter t;
  t.set_c(7);
  t.inner.set_a(0x11223344u);
  t.inner.set_b(5);
  const std::int64_t arr[2] = {-1, 1LL << 40};
  t.set_arr(arr);
  t.set_f(2.5f);
  return t;
}

TEST(TilingDataDef, LayoutIsTheKernelStructs) {
  const optiling::NpusimTestOuter t = filled();
  EXPECT_EQ(t.GetDataSize(), sizeof(Outer));
  EXPECT_EQ(t.inner.GetDataSize(), sizeof(Inner));
  Outer s;
  std::memset(&s, 0xff, sizeof s);
  t.SaveToBuffer(&s, sizeof s);
  EXPECT_EQ(s.c, 7);
  EXPECT_EQ(s.inner.a, 0x11223344u);
  EXPECT_EQ(s.inner.b, 5);
  EXPECT_EQ(s.arr[0], -1);
  EXPECT_EQ(s.arr[1], 1LL << 40);
  EXPECT_EQ(s.f, 2.5f);
  EXPECT_EQ(t.get_c(), 7);
  EXPECT_EQ(t.inner.get_a(), 0x11223344u);
}

TEST(TilingDataDef, CopiesAreIndependent) {
  optiling::NpusimTestOuter a = filled();
  optiling::NpusimTestOuter b = a;
  b.set_f(3.5f);
  b.inner.set_b(9);
  Outer sa, sb;
  a.SaveToBuffer(&sa, sizeof sa);
  b.SaveToBuffer(&sb, sizeof sb);
  EXPECT_EQ(sa.f, 2.5f);
  EXPECT_EQ(sb.f, 3.5f);
  EXPECT_EQ(sa.inner.b, 5);
  EXPECT_EQ(sb.inner.b, 9);
  EXPECT_EQ(sb.arr[1], 1LL << 40);
}

TEST(TilingDataDef, ShortBufferIsRefused) {
  const optiling::NpusimTestOuter t = filled();
  std::uint8_t buf[8];
  std::memset(buf, 0xab, sizeof buf);
  testing::internal::CaptureStderr();
  t.SaveToBuffer(buf, sizeof buf);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("NpusimTestOuter"), std::string::npos) << err;
  for (std::uint8_t byte : buf) EXPECT_EQ(byte, 0xab);
  EXPECT_EQ(optiling::tiling_data_classes().at("NpusimTestOp"), "NpusimTestOuter");
}

}  // namespace
