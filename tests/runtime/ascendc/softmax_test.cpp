// SPDX-License-Identifier: Apache-2.0
// Row softmax (ReduceMax, Duplicate, Sub, Exp, ReduceSum, Div, scalar GetValue) on 1..48 blocks:
// bit-exact against the same float computation, and close to a double-precision softmax.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "npusim/ascendc/block_runner.h"
#include "test_kernels.h"

namespace {

constexpr std::uint32_t kRows = 96;
constexpr std::uint32_t kCols = 200;

std::vector<float> make_input() {
  std::vector<float> x(kRows * kCols);
  for (std::uint32_t i = 0; i < x.size(); ++i)
    x[i] = std::sin(0.37f * static_cast<float>(i)) * 6.0f;
  return x;
}

// The twin's documented float algorithm: max, x - max, exp, pairwise sum, divide.
std::vector<float> float_softmax(const std::vector<float>& x) {
  std::vector<float> y(x.size());
  for (std::uint32_t r = 0; r < kRows; ++r) {
    const float* row = &x[r * kCols];
    float max = row[0];
    for (std::uint32_t c = 1; c < kCols; ++c) max = row[c] > max ? row[c] : max;
    std::vector<float> e(kCols);
    for (std::uint32_t c = 0; c < kCols; ++c) e[c] = std::exp(row[c] - max);
    const float sum = npusim::ascendc::pairwise_sum(e.data(), kCols);
    for (std::uint32_t c = 0; c < kCols; ++c) y[r * kCols + c] = e[c] / sum;
  }
  return y;
}

TEST(Softmax, OneToFortyEightBlocks) {
  const std::vector<float> x = make_input();
  const std::vector<float> expect = float_softmax(x);
  for (std::uint32_t blocks = 1; blocks <= 48; ++blocks) {
    std::vector<float> y(x.size(), -1.0f);
    auto r = npusim::ascendc::run_blocks(&test_kernels::row_softmax, blocks,
                                        reinterpret_cast<GM_ADDR>(const_cast<float*>(x.data())),
                                        reinterpret_cast<GM_ADDR>(y.data()), kRows, kCols);
    ASSERT_TRUE(r.ok()) << r.first_error();
    ASSERT_EQ(r.blocks.size(), blocks);
    for (std::size_t i = 0; i < y.size(); ++i)
      ASSERT_EQ(y[i], expect[i]) << "blocks " << blocks << " i " << i;
  }
}

TEST(Softmax, CloseToDoublePrecision) {
  const std::vector<float> x = make_input();
  std::vector<float> y(x.size());
  auto r = npusim::ascendc::run_blocks(&test_kernels::row_softmax, 7,
                                      reinterpret_cast<GM_ADDR>(const_cast<float*>(x.data())),
                                      reinterpret_cast<GM_ADDR>(y.data()), kRows, kCols);
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t row = 0; row < kRows; ++row) {
    double max = -1e300, sum = 0;
    for (std::uint32_t c = 0; c < kCols; ++c) max = std::max<double>(max, x[row * kCols + c]);
    for (std::uint32_t c = 0; c < kCols; ++c) sum += std::exp(x[row * kCols + c] - max);
    double total = 0;
    for (std::uint32_t c = 0; c < kCols; ++c) {
      const double ref = std::exp(x[row * kCols + c] - max) / sum;
      ASSERT_NEAR(y[row * kCols + c], ref, 1e-6 * ref + 1e-12);
      total += y[row * kCols + c];
    }
    ASSERT_NEAR(total, 1.0, 1e-5);
  }
}

}  // namespace
