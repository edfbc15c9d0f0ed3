// SPDX-License-Identifier: Apache-2.0
// The matmul operators (runtime/aclnn/matmul.cpp): aclnnMm / aclnnBatchMatMul / aclnnMatmul on
// the cube kernel, run functionally on the FakeBackend and compared with double-precision host
// references (aclnnConvolution: aclnn_conv_test.cpp).
// Tolerance: |out - ref| <= tol * sum_k |a*b| + 1e-6, tol = 1e-3 for FLOAT16 out (fp32
// accumulation, one rounding to fp16: 2^-11), 1e-2 for BFLOAT16 out (2^-8), 1e-5 for FLOAT out.
#include "aclnnop/aclnn_matmul.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "runtime/core/half_float.h"
#include "tests/runtime/aclnn/matmul_support.h"

namespace npusim::rt::testing::matmul_test {
namespace {

TEST_F(AclnnMatmulTest, MmSmallAndOddShapes) {
  EXPECT_EQ(check_product(0, {}, {}, 1, 1, 1, ACL_FLOAT16, ACL_FLOAT16, false, false), 0);
  EXPECT_EQ(check_product(0, {}, {}, 17, 65, 33, ACL_FLOAT16, ACL_FLOAT16, false, false), 0);
  EXPECT_EQ(check_product(0, {}, {}, 17, 65, 33, ACL_FLOAT16, ACL_FLOAT, false, false), 0);
  EXPECT_EQ(check_product(0, {}, {}, 17, 65, 33, ACL_BF16, ACL_BF16, false, false), 0);
  EXPECT_EQ(check_product(0, {}, {}, 17, 65, 33, ACL_FLOAT, ACL_FLOAT, false, false), 0);
}

TEST_F(AclnnMatmulTest, MmLargerThanOneTileWalksK) {
  // 128 x 256 x 512: several L1 steps over K and several tiles over the cube cores.
  EXPECT_EQ(check_product(0, {}, {}, 128, 512, 256, ACL_FLOAT16, ACL_FLOAT16, false, false), 0);
  EXPECT_EQ(check_product(0, {}, {}, 100, 300, 200, ACL_FLOAT, ACL_FLOAT, false, false), 0);
}

TEST_F(AclnnMatmulTest, TransposedViews) {
  check_every_layout({{33, 70, 45, ACL_FLOAT16, ACL_FLOAT16},
                      {33, 70, 45, ACL_FLOAT, ACL_FLOAT},
                      {20, 40, 24, ACL_BF16, ACL_FLOAT}});
}

TEST_F(AclnnMatmulTest, BatchedAndBroadcast) {
  EXPECT_EQ(check_product(1, {3}, {3}, 20, 30, 40, ACL_FLOAT16, ACL_FLOAT16, false, false), 0);
  EXPECT_EQ(check_product(1, {3}, {1}, 20, 30, 40, ACL_FLOAT16, ACL_FLOAT16, false, true), 0);
  EXPECT_EQ(check_product(1, {1}, {2}, 20, 30, 40, ACL_FLOAT, ACL_FLOAT, true, false), 0);
  EXPECT_EQ(check_product(2, {2, 1}, {1, 3}, 9, 18, 27, ACL_BF16, ACL_BF16, false, false), 0);
}

TEST_F(AclnnMatmulTest, MatmulOneDimensionalOperands) {
  // [k] @ [k, n] -> [n]; [m, k] @ [k] -> [m]; [k] @ [k] -> scalar.
  const int64_t k = 37, n = 21, m = 19;
  std::vector<double> v(k), w(static_cast<std::size_t>(k * n)), a(static_cast<std::size_t>(m * k));
  void* pv = alloc(k * 4);
  void* pw = alloc(k * n * 4);
  void* pa = alloc(m * k * 4);
  void* po = alloc(64 * 4);
  for (int64_t i = 0; i < k; ++i) v[i] = put(ACL_FLOAT, pv, i, next());
  for (int64_t i = 0; i < k * n; ++i) w[i] = put(ACL_FLOAT, pw, i, next());
  for (int64_t i = 0; i < m * k; ++i) a[i] = put(ACL_FLOAT, pa, i, next());
  aclTensor* tv = view({k}, {1}, ACL_FLOAT, pv, k);
  aclTensor* tw = view({k, n}, {n, 1}, ACL_FLOAT, pw, k * n);
  aclTensor* ta = view({m, k}, {k, 1}, ACL_FLOAT, pa, m * k);
  aclTensor* on = view({n}, {1}, ACL_FLOAT, po, 64);
  aclTensor* om = view({m}, {1}, ACL_FLOAT, po, 64);
  aclTensor* o0 = view({}, {}, ACL_FLOAT, po, 64);
  // lhs @ rhs into po, its first `count` elements against ref(j) (sums over k).
  auto check = [&](aclTensor* lhs, aclTensor* rhs, aclTensor* out, int64_t count,
                   const std::function<double(int64_t j, int64_t q)>& term) {
    ASSERT_EQ(run(
                  [&](uint64_t* ws, aclOpExecutor** e) {
                    return aclnnMatmulGetWorkspaceSize(lhs, rhs, out, 0, ws, e);
                  },
                  aclnnMatmul),
              ACLNN_SUCCESS);
    for (int64_t j = 0; j < count; ++j) {
      double ref = 0;
      for (int64_t q = 0; q < k; ++q) ref += term(j, q);
      EXPECT_NEAR(get(ACL_FLOAT, po, j), ref, 1e-4);
    }
  };
  check(tv, tw, on, n, [&](int64_t j, int64_t q) { return v[q] * w[q * n + j]; });
  check(ta, tv, om, m, [&](int64_t i, int64_t q) { return a[i * k + q] * v[q]; });
  check(tv, tv, o0, 1, [&](int64_t, int64_t q) { return v[q] * v[q]; });  // the dot product
}

TEST_F(AclnnMatmulTest, FloatWithUseFp16RoundsTheInputsFirst) {
  // Values exact in FLOAT16: the same products as KEEP_DTYPE, through the FLOAT16 copies
  // (views, transposed and broadcast batches included).
  EXPECT_EQ(check_product(0, {}, {}, 33, 70, 45, ACL_FLOAT, ACL_FLOAT, false, false, 2), 0);
  EXPECT_EQ(check_product(0, {}, {}, 33, 70, 45, ACL_FLOAT, ACL_FLOAT, true, true, 2), 0);
  EXPECT_EQ(check_product(1, {2}, {1}, 20, 30, 40, ACL_FLOAT, ACL_FLOAT, false, true, 2), 0);
  int kernels = 0;
  for (const auto& t : fake().tasks()) kernels += t.kind == TaskKind::kKernel;
  EXPECT_EQ(kernels, 6);  // a cast and a matmul per call
  // 1 + 2^-13 is neither a FLOAT16 nor an HFLOAT32 (11 significant bits): USE_FP16 (2),
  // ALLOW_FP32_DOWN_PRECISION (1, HFLOAT32 on this generation) and USE_HF32 (3) round it to 1;
  // KEEP_DTYPE keeps it. 1 + 2^-10 is an HFLOAT32 and a FLOAT16.
  float* p = static_cast<float*>(alloc(64));
  aclTensor* a = view({1, 2}, {2, 1}, ACL_FLOAT, p, 2);
  aclTensor* b = view({2, 1}, {1, 1}, ACL_FLOAT, p + 2, 2);
  aclTensor* c = view({1, 1}, {1, 1}, ACL_FLOAT, p + 8, 1);
  for (int8_t cube : {0, 1, 2, 3}) {
    SCOPED_TRACE(static_cast<int>(cube));
    p[0] = 1.0f + 1.0f / 8192.0f;
    p[1] = 1.0f + 1.0f / 1024.0f;
    p[2] = p[3] = 1.0f;
    uint64_t ws = 0;
    ASSERT_EQ(run([&](uint64_t* w,
                      aclOpExecutor** e) { return aclnnMmGetWorkspaceSize(a, b, c, cube, w, e); },
                  aclnnMm, &ws),
              ACLNN_SUCCESS);
    const float kept = 1.0f + 1.0f / 8192.0f + 1.0f + 1.0f / 1024.0f;
    const float rounded = 2.0f + 1.0f / 1024.0f;
    EXPECT_EQ(p[8], cube == 0 ? kept : rounded);
    EXPECT_EQ(ws, cube == 0 ? 0u : cube == 2 ? 64u : 64u);  // two 32-byte-aligned copies
  }
}

TEST_F(AclnnMatmulTest, FloatWithHf32RoundsTheInputsToElevenBits) {
  // Values exact in 11 significant bits: the same products through the HFLOAT32 copies.
  EXPECT_EQ(check_product(0, {}, {}, 33, 70, 45, ACL_FLOAT, ACL_FLOAT, true, false, 1), 0);
  EXPECT_EQ(check_product(1, {2}, {2}, 20, 30, 40, ACL_FLOAT, ACL_FLOAT, false, true, 3), 0);
}

TEST_F(AclnnMatmulTest, RowStridesBeyondSixteenBitsCopyRowByRow) {
  // Views into wide buffers: row strides of 70000 elements (ND2NZ's srcDValue is 16-bit).
  const int64_t ld = 70000, m = 20, k = 24, n = 18;
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16}) {
    for (bool trans : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "type " << type << " trans " << trans);
      // self: m x k rows of a (m or k) x ld buffer; mat2 likewise; out FLOAT.
      const int64_t a_rows = trans ? k : m, b_rows = trans ? n : k;
      const std::size_t es = elem_size(type);
      void* pa = alloc(static_cast<std::size_t>(a_rows * ld) * es);
      void* pb = alloc(static_cast<std::size_t>(b_rows * ld) * es);
      float* pc = static_cast<float*>(alloc(static_cast<std::size_t>(m * n) * 4));
      std::vector<double> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < k; ++j)
          a[i * k + j] = put(type, pa, trans ? j * ld + i : i * ld + j, next());
      for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < n; ++j)
          b[i * n + j] = put(type, pb, trans ? j * ld + i : i * ld + j, next());
      const std::vector<int64_t> strides =
          trans ? std::vector<int64_t>{1, ld} : std::vector<int64_t>{ld, 1};
      aclTensor* ta = view({m, k}, strides, type, pa, a_rows * ld);
      aclTensor* tb = view({k, n}, strides, type, pb, b_rows * ld);
      aclTensor* tc = view({m, n}, {n, 1}, ACL_FLOAT, pc, m * n);
      ASSERT_EQ(run([&](uint64_t* w,
                        aclOpExecutor** e) { return aclnnMmGetWorkspaceSize(ta, tb, tc, 0, w, e); },
                    aclnnMm),
                ACLNN_SUCCESS);
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double ref = 0;
          for (int64_t q = 0; q < k; ++q) ref += a[i * k + q] * b[q * n + j];
          EXPECT_NEAR(pc[i * n + j], ref, 1e-4) << i << "," << j;
        }
    }
  }
}

TEST_F(AclnnMatmulTest, RunsOnCubeCoresWithEveryBlockUsed) {
  EXPECT_EQ(check_product(0, {}, {}, 64, 64, 512, ACL_FLOAT16, ACL_FLOAT16, false, true), 0);
  int kernels = 0;
  for (const auto& t : fake().tasks()) kernels += t.kind == TaskKind::kKernel;
  EXPECT_EQ(kernels, 1);
}

TEST_F(AclnnMatmulTest, BadArgumentsAreRefused) {
  void* p = alloc(4096);
  aclTensor* a = view({4, 8}, {8, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* b = view({8, 4}, {4, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* c = view({4, 4}, {4, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* wrong_k = view({6, 4}, {4, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* f32 = view({8, 4}, {4, 1}, ACL_FLOAT, p, 1024);
  aclTensor* i32 = view({8, 4}, {4, 1}, ACL_INT32, p, 1024);
  aclTensor* c_bad = view({4, 5}, {5, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* gapped = view({8, 4}, {8, 2}, ACL_FLOAT16, p, 1024);  // no unit stride
  aclTensor* a3 = view({2, 4, 8}, {32, 8, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* b3 = view({3, 8, 4}, {32, 4, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* c3 = view({3, 4, 4}, {16, 4, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* f32a = view({4, 8}, {8, 1}, ACL_FLOAT, p, 1024);
  aclTensor* f32c = view({4, 4}, {4, 1}, ACL_FLOAT, p, 1024);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnMmGetWorkspaceSize(a, wrong_k, c, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(a, f32, c, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);  // mixed
  EXPECT_EQ(aclnnMmGetWorkspaceSize(a, i32, c, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(a, b, c_bad, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(a, gapped, c, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(a, b, c, 7, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(f32a, f32, f32c, -1, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(a3, b, c, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);  // 3-D
  EXPECT_EQ(aclnnBatchMatMulGetWorkspaceSize(a3, b3, c3, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(nullptr, b, c, 0, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(a, b, nullptr, 0, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnMatmulGetWorkspaceSize(a, b, c, 0, nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnMm(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
  // Empty tensors: an empty out is computed (nothing to do); K = 0 is refused.
  aclTensor* a0 = view({0, 8}, {8, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* c0 = view({0, 4}, {4, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* ak0 = view({4, 0}, {1, 1}, ACL_FLOAT16, p, 1024);
  aclTensor* bk0 = view({0, 4}, {4, 1}, ACL_FLOAT16, p, 1024);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(a0, b, c0, 0, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnMm(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnMmGetWorkspaceSize(ak0, bk0, c, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  // ALLOW_FP32_DOWN_PRECISION with FLOAT needs a workspace (the HFLOAT32 copies): without one the
  // second phase refuses.
  EXPECT_EQ(aclnnMmGetWorkspaceSize(f32a, f32, f32c, 1, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_GT(ws, 0u);
  EXPECT_EQ(aclnnMm(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_NULLPTR);
}

// Two cube cores: blocks get runs of several tiles, and the A panel stays in L1 between the
// tiles of one row (MatmulTiling::aResident) when it fits.
class AclnnMatmulTwoCoresTest : public AclnnMatmulTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override { config.aicore.cube_cores = 2; }
};

TEST_F(AclnnMatmulTwoCoresTest, ResidentPanelsEveryLayout) {
  check_every_layout(
      {{150, 100, 600, ACL_FLOAT16, ACL_FLOAT16}, {40, 72, 530, ACL_FLOAT, ACL_FLOAT}});
  EXPECT_EQ(check_product(1, {3}, {1}, 70, 50, 300, ACL_BF16, ACL_BF16, false, true), 0);
}

}  // namespace
}  // namespace npusim::rt::testing::matmul_test
