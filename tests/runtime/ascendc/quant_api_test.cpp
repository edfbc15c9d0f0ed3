// SPDX-License-Identifier: Apache-2.0
// The quantization high-level APIs of the twin (lib/quantization: AscendQuant, AscendDequant,
// AscendAntiQuant) and their host temporary-space functions: values against references
// computed here with the same roundings (bit-exact), the vector instructions they record and
// how they grow with the data, and the errors naming the API.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hl_harness.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using namespace AscendC;
using hl_test::as;
using hl_test::bytes_of;
using hl_test::Io;
using hl_test::Tensors;
using hl_test::values_of;
using npusim::ascendc::Op;

float h(float v) { return static_cast<float>(half(v)); }

// ---- AscendQuant ----

struct QuantParams {
  float scale, offset;
  std::uint32_t count;
  bool half_src;
};

// buffers: dst int8, src
void call_quant(const Tensors& t, const LocalTensor<std::uint8_t>& tmp, const void* p) {
  const auto& qp = *static_cast<const QuantParams*>(p);
  if (qp.half_src) {
    AscendQuant<half>(as<std::int8_t>(t, 0), as<half>(t, 1), qp.scale, qp.offset, qp.count);
  } else if (tmp.GetSize() != 0) {
    AscendQuant<float>(as<std::int8_t>(t, 0), as<float>(t, 1), tmp, qp.scale, qp.offset, qp.count);
  } else {
    AscendQuant<float>(as<std::int8_t>(t, 0), as<float>(t, 1), qp.scale, qp.offset, qp.count);
  }
}

std::int8_t quant_ref(float x, float scale, float offset) {
  const float v = h(h(h(x) * h(scale)) + h(offset));
  const float r = std::nearbyint(v);  // ties to even (the default rounding mode)
  return static_cast<std::int8_t>(r > 127 ? 127 : (r < -128 ? -128 : r));
}

TEST(QuantApi, AscendQuantRoundsThroughHalfToNearestEven) {
  const std::uint32_t n = 1000;
  std::vector<float> x(n);
  for (std::uint32_t i = 0; i < n; ++i) x[i] = 0.25f * static_cast<float>(i % 97) - 12.0f;
  x[0] = 500.0f;  // saturates
  x[1] = 0.3f;    // 0.6 + 0.9 near a tie
  QuantParams p{2.0f, 0.9f, n, false};
  uint32_t max = 0, min = 0;
  GetAscendQuantMaxMinTmpSize(TensorShape({n}), 4, max, min);
  EXPECT_EQ(max, 2016u);  // 2000 bytes rounded up to 32
  EXPECT_EQ(min, 128u);
  Io io{{std::vector<std::uint8_t>(n), bytes_of(x)}, max, &call_quant, &p};
  const auto r = hl_test::run(io);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const auto q = values_of<std::int8_t>(io.bufs[0]);
  for (std::uint32_t i = 0; i < n; ++i) ASSERT_EQ(q[i], quant_ref(x[i], 2.0f, 0.9f)) << i;
  EXPECT_EQ(q[0], 127);
  EXPECT_EQ(hl_test::vector_ops(r), (std::vector<Op>{Op::kCast, Op::kMuls, Op::kAdds, Op::kCast}));
  // The minimum space: passes of 64 elements, the same values.
  Io least = io;
  least.tmp_bytes = min;
  const auto rl = hl_test::run(least);
  ASSERT_TRUE(rl.ok()) << rl.first_error();
  EXPECT_EQ(least.bufs[0], io.bufs[0]);
  EXPECT_EQ(hl_test::vector_ops(rl).size(), 4u * 16);  // 15 passes of 64, one of 40
  EXPECT_GT(hl_test::block_time(rl), hl_test::block_time(r));
  // Half source, framework space: no first Cast.
  std::vector<half> xh(n);
  for (std::uint32_t i = 0; i < n; ++i) xh[i] = half(x[i]);
  QuantParams ph{2.0f, 0.9f, n, true};
  Io hio{{std::vector<std::uint8_t>(n), bytes_of(xh)}, 0, &call_quant, &ph};
  const auto rh = hl_test::run(hio);
  ASSERT_TRUE(rh.ok()) << rh.first_error();
  EXPECT_EQ(hio.bufs[0], io.bufs[0]);
  EXPECT_EQ(hl_test::vector_ops(rh), (std::vector<Op>{Op::kMuls, Op::kAdds, Op::kCast}));
  // Below the minimum fails naming the API.
  Io bad = io;
  bad.tmp_bytes = 64;
  const auto rb = hl_test::run(bad);
  ASSERT_FALSE(rb.ok());
  EXPECT_NE(rb.first_error().find("AscendQuant: sharedTmpBuffer of 64 bytes is below the "
                                  "minimum of 128 bytes"),
            std::string::npos)
      << rb.first_error();
}

// ---- AscendDequant ----

struct DequantCall {
  DequantParams params;
  bool scalar;
  bool half_dst;
  float scale;
};

// buffers: dst, src int32, deqScale
void call_dequant(const Tensors& t, const LocalTensor<std::uint8_t>& tmp, const void* p) {
  const auto& d = *static_cast<const DequantCall*>(p);
  if (d.half_dst) {
    AscendDequant<half, float>(as<half>(t, 0), as<std::int32_t>(t, 1), as<float>(t, 2), tmp,
                               d.params);
  } else if (d.scalar) {
    AscendDequant<float, float>(as<float>(t, 0), as<std::int32_t>(t, 1), d.scale, d.params);
  } else {
    AscendDequant(as<float>(t, 0), as<std::int32_t>(t, 1), as<float>(t, 2), d.params);
  }
}

TEST(QuantApi, AscendDequantScalesTheFirstCalCountOfEachRow) {
  const std::uint32_t m = 4, n = 16, cal = 12;
  std::vector<std::int32_t> src(m * n);
  for (std::uint32_t i = 0; i < m * n; ++i) src[i] = static_cast<std::int32_t>(i * 37 % 201) - 100;
  std::vector<float> scale(16);
  for (std::uint32_t j = 0; j < 16; ++j) scale[j] = 0.013f * static_cast<float>(j + 1) - 0.05f;
  DequantCall p{{m, n, cal}, false, false, 0.0f};
  Io io{{bytes_of(std::vector<float>(m * n, -1.0f)), bytes_of(src), bytes_of(scale)},
        0,
        &call_dequant,
        &p};
  const auto r = hl_test::run(io);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const auto y = values_of<float>(io.bufs[0]);
  for (std::uint32_t i = 0; i < m; ++i) {
    for (std::uint32_t j = 0; j < n; ++j) {
      const float want = j < cal ? static_cast<float>(src[i * n + j]) * scale[j] : -1.0f;
      ASSERT_EQ(y[i * n + j], want) << i << ", " << j;
    }
  }
  const auto ops = hl_test::vector_ops(r);
  EXPECT_EQ(ops.size(), 2u * m);  // per row: Cast, Mul
  // A scalar scale.
  DequantCall ps{{m, n, n}, true, false, 0.5f};
  Io sio{
      {bytes_of(std::vector<float>(m * n)), bytes_of(src), bytes_of(scale)}, 0, &call_dequant, &ps};
  ASSERT_TRUE(hl_test::run(sio).ok());
  EXPECT_EQ(values_of<float>(sio.bufs[0])[17], static_cast<float>(src[17]) * 0.5f);
  // Half dst through one float row of temporary space; the rows are 16 halves (32 bytes) apart.
  uint32_t max = 0, min = 0;
  GetAscendDequantMaxMinTmpSize(TensorShape({m, n}), 4, max, min);
  EXPECT_EQ(min, 64u);
  DequantCall ph{{m, n, cal}, false, true, 0.0f};
  Io hio{{bytes_of(std::vector<half>(m * n)), bytes_of(src), bytes_of(scale)},
         min,
         &call_dequant,
         &ph};
  const auto rh = hl_test::run(hio);
  ASSERT_TRUE(rh.ok()) << rh.first_error();
  const auto yh = values_of<half>(hio.bufs[0]);
  EXPECT_EQ(static_cast<float>(yh[n + 3]), h(static_cast<float>(src[n + 3]) * scale[3]));
  EXPECT_EQ(hl_test::vector_ops(rh).size(), 3u * m);  // Cast, Mul, Cast per row
}

TEST(QuantApi, AscendDequantSingleRowModeSplitsOneLongRow) {
  // {1, 32, 8}: calCount a multiple of 8 floats dividing n -> 4 rows of 8.
  std::vector<std::int32_t> src(32);
  for (std::uint32_t i = 0; i < 32; ++i) src[i] = static_cast<std::int32_t>(i) - 7;
  std::vector<float> scale(8);
  for (std::uint32_t j = 0; j < 8; ++j) scale[j] = 1.0f + 0.5f * static_cast<float>(j);
  DequantCall p{{1, 32, 8}, false, false, 0.0f};
  Io io{{bytes_of(std::vector<float>(32)), bytes_of(src), bytes_of(scale)}, 0, &call_dequant, &p};
  const auto r = hl_test::run(io);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const auto y = values_of<float>(io.bufs[0]);
  for (std::uint32_t i = 0; i < 32; ++i) {
    ASSERT_EQ(y[i], static_cast<float>(src[i]) * scale[i % 8]) << i;
  }
  EXPECT_EQ(hl_test::vector_ops(r).size(), 8u);
}

// ---- AscendAntiQuant ----

struct AntiCall {
  std::uint32_t k, groups, cols;
  bool shape_info;
};

// buffers: dst half, src int8, offset half, scale half
void call_antiquant(const Tensors& t, const LocalTensor<std::uint8_t>& tmp, const void* p) {
  const auto& a = *static_cast<const AntiCall*>(p);
  LocalTensor<half> offset = as<half>(t, 2);
  if (a.shape_info) {
    const std::uint32_t shape[2] = {a.groups, a.cols};
    offset.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
  }
  AscendAntiQuant<std::int8_t, half, false>(as<half>(t, 0), as<std::int8_t>(t, 1), offset,
                                            as<half>(t, 3), tmp, a.k);
}

TEST(QuantApi, AscendAntiQuantAppliesEachGroupsOffsetAndScaleInHalf) {
  const std::uint32_t k = 8, cols = 64, groups = 2;
  std::vector<std::int8_t> src(k * cols);
  for (std::uint32_t i = 0; i < k * cols; ++i) src[i] = static_cast<std::int8_t>(i * 7 % 255 - 127);
  std::vector<half> offset(groups * cols), scale(groups * cols);
  for (std::uint32_t i = 0; i < groups * cols; ++i) {
    offset[i] = half(0.37f * static_cast<float>(i % 29) - 5.0f);
    scale[i] = half(0.011f * static_cast<float>(i % 13) + 0.1f);
  }
  uint32_t max = 0, min = 0;
  GetAscendAntiQuantMaxMinTmpSize(TensorShape({k * cols}), TensorShape({cols}), false,
                                  TensorDataType::DT_INT8, TensorDataType::DT_FLOAT16, max, min);
  EXPECT_EQ(max, k * cols * 2);
  EXPECT_EQ(min, cols * 2);
  AntiCall p{k, groups, cols, true};
  Io io{{bytes_of(std::vector<half>(k * cols)), bytes_of(src), bytes_of(offset), bytes_of(scale)},
        min * 2,
        &call_antiquant,
        &p};
  const auto r = hl_test::run(io);
  ASSERT_TRUE(r.ok()) << r.first_error();
  const auto y = values_of<half>(io.bufs[0]);
  for (std::uint32_t i = 0; i < k; ++i) {
    const std::uint32_t g = i / (k / groups);
    for (std::uint32_t j = 0; j < cols; ++j) {
      const float sum =
          h(static_cast<float>(src[i * cols + j]) + static_cast<float>(offset[g * cols + j]));
      const float want = h(sum * static_cast<float>(scale[g * cols + j]));
      ASSERT_EQ(static_cast<float>(y[i * cols + j]), want) << i << ", " << j;
    }
  }
  // One Cast, then per pass of two rows (within a group): Broadcast + Add, Broadcast + Mul.
  EXPECT_EQ(hl_test::vector_ops(r).size(), 1u + 4u * 4);
  // Without a shape the offset's groups are unknown.
  p.shape_info = false;
  const auto bad = hl_test::run(io);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.first_error().find("AscendAntiQuant: the offset / scale shape is unknown"),
            std::string::npos)
      << bad.first_error();
}

}  // namespace
