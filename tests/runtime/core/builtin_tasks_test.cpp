// SPDX-License-Identifier: Apache-2.0
// The functional side of the built-in tasks (runtime/core/builtin_tasks.h): exact reduction results
// per operation and type (wrap-around, fp16/bf16 rounding, NaN and signed zeros), the Philox
// known answers, and the random distributions: exact first values for a seed, determinism, the
// counter stream, ranges, and mean/variance of large draws.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "npusim/ascendc/half.h"
#include "runtime/core/builtin_tasks.h"

namespace npusim::rt::builtin {
namespace {

using ascendc::Bf16Format;
using ascendc::Fp16Format;

template <class T>
std::vector<T> reduced(ReduceOp op, ElemType type, std::vector<T> dst, const std::vector<T>& src) {
  reduce(op, type, dst.data(), src.data(), dst.size());
  return dst;
}

TEST(BuiltinReduce, Int8WrapsAndCompares) {
  const std::vector<std::int8_t> d = {100, -128, 5, -1}, s = {100, -1, -10, 1};
  EXPECT_EQ(reduced(ReduceOp::kSum, ElemType::kInt8, d, s),
            (std::vector<std::int8_t>{-56, 127, -5, 0}));
  EXPECT_EQ(reduced(ReduceOp::kMax, ElemType::kInt8, d, s),
            (std::vector<std::int8_t>{100, -1, 5, 1}));
  EXPECT_EQ(reduced(ReduceOp::kMin, ElemType::kInt8, d, s),
            (std::vector<std::int8_t>{100, -128, -10, -1}));
}

// HCCL's PROD: integers wrap (16-bit products past INT_MAX included), fp16 is multiplied in
// float and rounded to nearest even, fp32 is IEEE.
TEST(BuiltinReduce, ProdWrapsIntegersAndRoundsHalves) {
  EXPECT_EQ(reduced<std::uint16_t>(ReduceOp::kProd, ElemType::kUint16, {65535, 300}, {65535, 300}),
            (std::vector<std::uint16_t>{1, 24464}));  // 65535^2 mod 2^16, 90000 mod 65536
  EXPECT_EQ(reduced<std::int8_t>(ReduceOp::kProd, ElemType::kInt8, {-128, 16}, {-1, 8}),
            (std::vector<std::int8_t>{-128, -128}));
  EXPECT_EQ(reduced<std::uint64_t>(ReduceOp::kProd, ElemType::kUint64, {1ULL << 63}, {2}),
            (std::vector<std::uint64_t>{0}));
  // 1.0009765625 (1 + 2^-10) squared = 1 + 2^-9 + 2^-20: rounds to 1 + 2^-9 in fp16.
  const std::uint16_t a = Fp16Format::from_float(1.0009765625f);
  EXPECT_EQ(reduced<std::uint16_t>(ReduceOp::kProd, ElemType::kFp16, {a}, {a}),
            (std::vector<std::uint16_t>{Fp16Format::from_float(1.001953125f)}));
  EXPECT_EQ(reduced<float>(ReduceOp::kProd, ElemType::kFp32, {1.5f, -0.0f}, {-4.0f, 3.0f}),
            (std::vector<float>{-6.0f, -0.0f}));
}

TEST(BuiltinReduce, Int16AndInt32Wrap) {
  EXPECT_EQ(reduced<std::int16_t>(ReduceOp::kSum, ElemType::kInt16, {32767, -5}, {1, 3}),
            (std::vector<std::int16_t>{-32768, -2}));
  EXPECT_EQ(reduced<std::int16_t>(ReduceOp::kMin, ElemType::kInt16, {32767, -5}, {1, 3}),
            (std::vector<std::int16_t>{1, -5}));
  const std::int32_t big = std::numeric_limits<std::int32_t>::max();
  EXPECT_EQ(reduced<std::int32_t>(ReduceOp::kSum, ElemType::kInt32, {big, 7}, {1, -9}),
            (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), -2}));
  EXPECT_EQ(reduced<std::int32_t>(ReduceOp::kMax, ElemType::kInt32, {big, 7}, {1, -9}),
            (std::vector<std::int32_t>{big, 7}));
}

TEST(BuiltinReduce, UnsignedCompareUnsigned) {
  EXPECT_EQ(reduced<std::uint32_t>(ReduceOp::kSum, ElemType::kUint32, {0xFFFFFFFFu, 3}, {2, 4}),
            (std::vector<std::uint32_t>{1, 7}));
  EXPECT_EQ(reduced<std::uint32_t>(ReduceOp::kMax, ElemType::kUint32, {0xFFFFFFFFu, 3}, {1, 4}),
            (std::vector<std::uint32_t>{0xFFFFFFFFu, 4}));
  EXPECT_EQ(reduced<std::uint8_t>(ReduceOp::kMin, ElemType::kUint8, {200, 3}, {100, 4}),
            (std::vector<std::uint8_t>{100, 3}));
  EXPECT_EQ(reduced<std::uint16_t>(ReduceOp::kSum, ElemType::kUint16, {65535}, {2}),
            (std::vector<std::uint16_t>{1}));
}

TEST(BuiltinReduce, Fp32IsIeee) {
  const float big = std::numeric_limits<float>::max();
  const std::vector<float> r =
      reduced<float>(ReduceOp::kSum, ElemType::kFp32, {1.5f, 1.0f, big}, {2.25f, 0x1p-24f, big});
  EXPECT_EQ(r[0], 3.75f);
  EXPECT_EQ(r[1], 1.0f);  // 1 + 2^-24 is a tie: to even
  EXPECT_TRUE(std::isinf(r[2]) && r[2] > 0);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> m = reduced<float>(ReduceOp::kMax, ElemType::kFp32,
                                              {nan, 1.0f, -0.0f, 2.0f}, {1.0f, nan, 0.0f, 3.0f});
  EXPECT_TRUE(std::isnan(m[0]));
  EXPECT_TRUE(std::isnan(m[1]));
  EXPECT_TRUE(m[2] == 0.0f && std::signbit(m[2]));  // equal: dst stays
  EXPECT_EQ(m[3], 3.0f);
}

TEST(BuiltinReduce, Fp16RoundsToNearestEven) {
  // 1 + 2^-11 ties to 1.0; 1 + 1.5 * 2^-11 rounds up to 1 + 2^-10; (1 + 2^-10) + 2^-11 ties to
  // the even 1 + 2^-9; 65504 + 65504 overflows to +inf.
  const std::vector<std::uint16_t> r =
      reduced<std::uint16_t>(ReduceOp::kSum, ElemType::kFp16, {0x3C00, 0x3C00, 0x3C01, 0x7BFF},
                             {0x1000, 0x1200, 0x1000, 0x7BFF});
  EXPECT_EQ(r, (std::vector<std::uint16_t>{0x3C00, 0x3C01, 0x3C02, 0x7C00}));
}

TEST(BuiltinReduce, Fp16MaxMinPropagateNaN) {
  const std::vector<std::uint16_t> d = {0x7E00, 0x3C00, 0x8000, 0x4000};
  const std::vector<std::uint16_t> s = {0x3C00, 0x7E01, 0x0000, 0xC000};
  EXPECT_EQ(reduced(ReduceOp::kMax, ElemType::kFp16, d, s),
            (std::vector<std::uint16_t>{0x7E00, 0x7E01, 0x8000, 0x4000}));
  EXPECT_EQ(reduced(ReduceOp::kMin, ElemType::kFp16, d, s),
            (std::vector<std::uint16_t>{0x7E00, 0x7E01, 0x8000, 0xC000}));
}

TEST(BuiltinReduce, Bf16RoundsToNearestEven) {
  // 1 + 2^-8 ties to 1.0; (1 + 2^-7) + 2^-8 ties to the even 1 + 2^-6; max(1, -inf) = 1.
  EXPECT_EQ(
      reduced<std::uint16_t>(ReduceOp::kSum, ElemType::kBf16, {0x3F80, 0x3F81}, {0x3B80, 0x3B80}),
      (std::vector<std::uint16_t>{0x3F80, 0x3F82}));
  EXPECT_EQ(
      reduced<std::uint16_t>(ReduceOp::kMax, ElemType::kBf16, {0x3F80, 0xFF80}, {0xFF80, 0x3F80}),
      (std::vector<std::uint16_t>{0x3F80, 0x3F80}));
}

TEST(BuiltinReduce, SrcMayBeDst) {
  std::vector<float> v = {1.0f, -2.5f};
  reduce(ReduceOp::kSum, ElemType::kFp32, v.data(), v.data(), v.size());
  EXPECT_EQ(v, (std::vector<float>{2.0f, -5.0f}));
}

TEST(BuiltinRandom, PhiloxKnownAnswers) {
  // Random123's known-answer vectors for Philox4x32-10.
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}),
            (std::array<std::uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
  EXPECT_EQ(philox4x32_10({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}),
            (std::array<std::uint32_t, 4>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
  EXPECT_EQ(philox4x32_10({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
                          {0xa4093822u, 0x299f31d0u}),
            (std::array<std::uint32_t, 4>{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

std::uint64_t fbits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

RandomSpec spec(RandomFunc func, ElemType type, std::uint64_t first, std::uint64_t second,
                std::uint64_t count, std::uint64_t seed = 0) {
  RandomSpec s;
  s.func = func;
  s.type = type;
  s.first = first;
  s.second = second;
  s.count = count;
  s.seed = seed;
  return s;
}

template <class T>
std::vector<T> draw(const RandomSpec& s, unsigned char* counter) {
  std::vector<T> out(random_output_bytes(s.func, s.type, s.count) / sizeof(T) + 1);
  generate(s, counter, out.data());
  out.resize(random_output_bytes(s.func, s.type, s.count) / sizeof(T));
  return out;
}

TEST(BuiltinRandom, UniformUint32IsThePhiloxStreamScaled) {
  // [0, 2^32 - 1): floor(w * (2^32 - 1) / 2^32) = w - 1 for every nonzero word w.
  unsigned char counter[16] = {};
  const auto v = draw<std::uint32_t>(
      spec(RandomFunc::kUniform, ElemType::kUint32, 0, 0xFFFFFFFFu, 6), counter);
  const auto b0 = philox4x32_10({0, 0, 0, 0}, {0, 0});
  const auto b1 = philox4x32_10({1, 0, 0, 0}, {0, 0});
  EXPECT_EQ(v, (std::vector<std::uint32_t>{b0[0] - 1, b0[1] - 1, b0[2] - 1, b0[3] - 1, b1[0] - 1,
                                           b1[1] - 1}));
  // Two blocks used: the counter now reads 2.
  const unsigned char two[16] = {2};
  EXPECT_EQ(std::memcmp(counter, two, 16), 0);
}

TEST(BuiltinRandom, SeedIsTheKeyAndTheCounterCarries) {
  unsigned char counter[16];
  std::memset(counter, 0xFF, 8);  // low 64 bits all ones
  std::memset(counter + 8, 0, 8);
  const std::uint64_t seed = 0x299f31d0a4093822ull;
  const auto v = draw<std::uint32_t>(
      spec(RandomFunc::kUniform, ElemType::kUint32, 0, 0xFFFFFFFFu, 1, seed), counter);
  const auto b = philox4x32_10({~0u, ~0u, 0, 0}, {0xa4093822u, 0x299f31d0u});
  EXPECT_EQ(v[0], b[0] - 1);
  const unsigned char carried[16] = {0, 0, 0, 0, 0, 0, 0, 0, 1};  // 2^64
  EXPECT_EQ(std::memcmp(counter, carried, 16), 0);
}

TEST(BuiltinRandom, DeterministicForSeedAndCounter) {
  const RandomSpec s =
      spec(RandomFunc::kNormal, ElemType::kFp32, fbits(3.0f), fbits(2.0f), 257, 42);
  unsigned char c1[16] = {}, c2[16] = {}, c3[16] = {};
  const auto a = draw<float>(s, c1);
  const auto b = draw<float>(s, c2);
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::memcmp(c1, c2, 16), 0);
  // The advanced counter continues the stream: a second task gives new numbers.
  const auto next = draw<float>(s, c1);
  EXPECT_NE(next, a);
  // Another seed, another stream.
  RandomSpec other = s;
  other.seed = 43;
  EXPECT_NE(draw<float>(other, c3), a);
}

struct Moments {
  double mean = 0, var = 0;
};

Moments moments(const std::vector<double>& v) {
  Moments m;
  for (double x : v) m.mean += x;
  m.mean /= static_cast<double>(v.size());
  for (double x : v) m.var += (x - m.mean) * (x - m.mean);
  m.var /= static_cast<double>(v.size() - 1);
  return m;
}

constexpr std::uint64_t kDraw = 200000;

TEST(BuiltinRandom, NormalFp32HasItsMeanAndVariance) {
  unsigned char counter[16] = {};
  const auto v = draw<float>(
      spec(RandomFunc::kNormal, ElemType::kFp32, fbits(3.0f), fbits(2.0f), kDraw, 7), counter);
  const Moments m = moments(std::vector<double>(v.begin(), v.end()));
  // Standard errors: of the mean 2 / sqrt(2e5) = 0.0045, of the variance ~4 * sqrt(1e-5) = 0.013.
  EXPECT_NEAR(m.mean, 3.0, 0.03);
  EXPECT_NEAR(m.var, 4.0, 0.08);
}

TEST(BuiltinRandom, TruncatedNormalBf16StaysWithinTwoSigma) {
  unsigned char counter[16] = {};
  const auto v = draw<std::uint16_t>(
      spec(RandomFunc::kTruncatedNormal, ElemType::kBf16, 0x3F80, 0x4000, kDraw), counter);
  std::vector<double> x;
  for (std::uint16_t b : v) x.push_back(Bf16Format::to_float(b));
  for (double d : x) ASSERT_TRUE(d >= -3.0 && d <= 5.0) << d;
  const Moments m = moments(x);
  // Standard normal truncated to [-2, 2]: mean 0, variance 0.7737; scaled by 2 around 1.
  EXPECT_NEAR(m.mean, 1.0, 0.03);
  EXPECT_NEAR(m.var, 4 * 0.7737, 0.08);
}

TEST(BuiltinRandom, UniformFp16IsHalfOpen) {
  unsigned char counter[16] = {};
  const auto v = draw<std::uint16_t>(
      spec(RandomFunc::kUniform, ElemType::kFp16, 0x3C00, 0x4000, kDraw), counter);  // [1, 2)
  std::vector<double> x;
  for (std::uint16_t b : v) {
    ASSERT_GE(b, 0x3C00);
    ASSERT_LE(b, 0x3FFF);  // never 2.0, even though 1 + u rounds up near the top
    x.push_back(Fp16Format::to_float(b));
  }
  const Moments m = moments(x);
  EXPECT_NEAR(m.mean, 1.5, 0.005);
  EXPECT_NEAR(m.var, 1.0 / 12, 0.003);
}

TEST(BuiltinRandom, UniformIntegersCoverTheirRange) {
  unsigned char counter[16] = {};
  const auto v = draw<std::int32_t>(
      spec(RandomFunc::kUniform, ElemType::kInt32, static_cast<std::uint32_t>(-5), 5, kDraw),
      counter);
  std::vector<int> hist(10, 0);
  for (std::int32_t x : v) {
    ASSERT_TRUE(x >= -5 && x < 5) << x;
    ++hist[static_cast<std::size_t>(x + 5)];
  }
  for (int h : hist) EXPECT_NEAR(h, kDraw / 10, 1000);  // sd ~134
  const auto w =
      draw<std::int64_t>(spec(RandomFunc::kUniform, ElemType::kInt64,
                              static_cast<std::uint64_t>(-(1LL << 40)), 1ULL << 40, 1000),
                         counter);
  for (std::int64_t x : w) ASSERT_TRUE(x >= -(1LL << 40) && x < (1LL << 40));
  // An empty range gives min.
  const auto e =
      draw<std::uint64_t>(spec(RandomFunc::kUniform, ElemType::kUint64, 9, 9, 3), counter);
  EXPECT_EQ(e, (std::vector<std::uint64_t>{9, 9, 9}));
}

TEST(BuiltinRandom, DropoutBitmaskKeepsOneMinusRatio) {
  unsigned char counter[16] = {};
  const RandomSpec s =
      spec(RandomFunc::kDropoutBitmask, ElemType::kFp32, fbits(0.4f), 0, kDraw + 3);
  EXPECT_EQ(random_output_bytes(s.func, s.type, s.count), kDraw / 8 + 1);
  const auto v = draw<std::uint8_t>(s, counter);
  std::uint64_t ones = 0;
  for (std::uint8_t b : v) ones += static_cast<std::uint64_t>(__builtin_popcount(b));
  EXPECT_NEAR(static_cast<double>(ones) / static_cast<double>(s.count), 0.6, 0.005);
  EXPECT_EQ(v.back() & 0xF8, 0);  // bits past the count are 0
  // Bit i is word i compared with the ratio.
  const auto b0 = philox4x32_10({0, 0, 0, 0}, {0, 0});
  for (int i = 0; i < 4; ++i) {
    const bool keep = static_cast<float>(b0[i] >> 8) * 0x1p-24f >= 0.4f;
    EXPECT_EQ((v[0] >> i) & 1, keep ? 1 : 0);
  }
  // Ratio 0 keeps everything, 1 drops everything.
  unsigned char c2[16] = {};
  EXPECT_EQ(
      draw<std::uint8_t>(spec(RandomFunc::kDropoutBitmask, ElemType::kFp16, 0x0000, 0, 16), c2),
      (std::vector<std::uint8_t>{0xFF, 0xFF}));
  EXPECT_EQ(
      draw<std::uint8_t>(spec(RandomFunc::kDropoutBitmask, ElemType::kBf16, 0x3F80, 0, 16), c2),
      (std::vector<std::uint8_t>{0x00, 0x00}));
}

}  // namespace
}  // namespace npusim::rt::builtin
