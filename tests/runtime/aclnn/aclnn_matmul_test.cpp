// SPDX-License-Identifier: Apache-2.0
// The matmul family (runtime/aclnn/matmul.cpp, conv.cpp): aclnnMm / aclnnBatchMatMul /
// aclnnMatmul and aclnnConvolution on the cube kernel, run functionally on the FakeBackend and
// compared with double-precision host references.
// Tolerance: |out - ref| <= tol * sum_k |a*b| + 1e-6, tol = 1e-3 for FLOAT16 out (fp32
// accumulation, one rounding to fp16: 2^-11), 1e-2 for BFLOAT16 out (2^-8), 1e-5 for FLOAT out.
#include "aclnnop/aclnn_matmul.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_mm.h"
#include "runtime/core/half_float.h"
#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing {
namespace {

using GetWs = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;
using RunFn = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

std::size_t elem_size(aclDataType t) { return t == ACL_FLOAT ? 4 : 2; }

// Stores v (rounded to t) at p[i]; returns the rounded value.
double put(aclDataType t, void* p, std::size_t i, double v) {
  const auto f = static_cast<float>(v);
  if (t == ACL_FLOAT) {
    static_cast<float*>(p)[i] = f;
    return f;
  }
  if (t == ACL_FLOAT16) {
    static_cast<std::uint16_t*>(p)[i] = float_to_half(f);
    return half_to_float(static_cast<std::uint16_t*>(p)[i]);
  }
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;  // round to nearest even
  static_cast<std::uint16_t*>(p)[i] = static_cast<std::uint16_t>(bits);
  bits <<= 16;
  float r;
  std::memcpy(&r, &bits, 4);
  return r;
}

double get(aclDataType t, const void* p, std::size_t i) {
  if (t == ACL_FLOAT) return static_cast<const float*>(p)[i];
  const std::uint16_t h = static_cast<const std::uint16_t*>(p)[i];
  if (t == ACL_FLOAT16) return half_to_float(h);
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float r;
  std::memcpy(&r, &bits, 4);
  return r;
}

double tolerance(aclDataType out) {
  return out == ACL_FLOAT16 ? 1e-3 : out == ACL_BF16 ? 1e-2 : 1e-5;
}

class AclnnMatmulTest : public OperatorTest {
 protected:
  // A view of `dims` with `strides` over a buffer of storage_elems elements.
  aclTensor* view(std::vector<int64_t> dims, std::vector<int64_t> strides, aclDataType t,
                  void* data, int64_t storage_elems) {
    return keep(aclCreateTensor(dims.data(), dims.size(), t, strides.data(), 0, ACL_FORMAT_ND,
                                &storage_elems, 1, data));
  }
  static std::vector<int64_t> contiguous(const std::vector<int64_t>& dims) {
    std::vector<int64_t> s(dims.size(), 1);
    for (std::size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
    return s;
  }
  static int64_t numel(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
  }
  // Deterministic values in [-1, 1).
  double next() {
    seed_ = seed_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>((seed_ >> 40) % 2048) / 1024.0 - 1.0;
  }
  // Runs a two-phase call; returns the first phase's status.
  aclnnStatus run(const GetWs& get_ws, RunFn run_op, uint64_t* ws_out = nullptr) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    const aclnnStatus st = get_ws(&ws, &ex);
    if (st != ACLNN_SUCCESS) return st;
    if (ws_out != nullptr) *ws_out = ws;
    void* w = ws > 0 ? alloc(ws) : nullptr;
    if (w != nullptr) std::memset(w, 0x55, ws);  // stale data: every byte used must be written
    EXPECT_EQ(run_op(w, ws, ex, stream_), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    return st;
  }

  // A batched product [ab.., m, k] x [bb.., k, n] (batch dims broadcast, ab/bb same length);
  // trans_a / trans_b: the operand is passed as a transposed view of a row-major buffer.
  // Checks out against the double reference; returns the number of mismatches.
  int check_product(int which, std::vector<int64_t> ab, std::vector<int64_t> bb, int64_t m,
                    int64_t k, int64_t n, aclDataType in, aclDataType out, bool trans_a,
                    bool trans_b, int8_t cube = 0) {
    std::vector<int64_t> cb(ab.size());
    for (std::size_t d = 0; d < ab.size(); ++d) cb[d] = std::max(ab[d], bb[d]);
    const int64_t na = numel(ab), nbb = numel(bb), nc = numel(cb);
    const std::size_t es = elem_size(in);
    void* pa = alloc(static_cast<std::size_t>(na * m * k) * es);
    void* pb = alloc(static_cast<std::size_t>(nbb * k * n) * es);
    void* pc = alloc(static_cast<std::size_t>(nc * m * n) * elem_size(out));
    std::vector<double> va(static_cast<std::size_t>(na * m * k)),
        vb(static_cast<std::size_t>(nbb * k * n));
    // Logical element (batch, i, j) of A lives at batch*m*k + (trans ? j*m + i : i*k + j).
    for (int64_t bt = 0; bt < na; ++bt)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < k; ++j) {
          const int64_t at = bt * m * k + (trans_a ? j * m + i : i * k + j);
          va[static_cast<std::size_t>(bt * m * k + i * k + j)] =
              put(in, pa, static_cast<std::size_t>(at), next());
        }
    for (int64_t bt = 0; bt < nbb; ++bt)
      for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < n; ++j) {
          const int64_t at = bt * k * n + (trans_b ? j * k + i : i * n + j);
          vb[static_cast<std::size_t>(bt * k * n + i * n + j)] =
              put(in, pb, static_cast<std::size_t>(at), next());
        }
    auto dims_of = [](std::vector<int64_t> batch, int64_t r, int64_t c) {
      batch.push_back(r);
      batch.push_back(c);
      return batch;
    };
    auto strides_of = [&](const std::vector<int64_t>& batch, int64_t r, int64_t c, bool trans) {
      std::vector<int64_t> s = contiguous(dims_of(batch, r, c));
      if (trans) {
        s[s.size() - 2] = 1;
        s[s.size() - 1] = r;
      }
      return s;
    };
    aclTensor* ta = view(dims_of(ab, m, k), strides_of(ab, m, k, trans_a), in, pa, na * m * k);
    aclTensor* tb = view(dims_of(bb, k, n), strides_of(bb, k, n, trans_b), in, pb, nbb * k * n);
    aclTensor* tc = view(dims_of(cb, m, n), contiguous(dims_of(cb, m, n)), out, pc, nc * m * n);
    aclnnStatus st;
    if (which == 0) {
      st = run([&](uint64_t* w,
                   aclOpExecutor** e) { return aclnnMmGetWorkspaceSize(ta, tb, tc, cube, w, e); },
               aclnnMm);
    } else if (which == 1) {
      st = run(
          [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnBatchMatMulGetWorkspaceSize(ta, tb, tc, cube, w, e);
          },
          aclnnBatchMatMul);
    } else {
      st = run(
          [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnMatmulGetWorkspaceSize(ta, tb, tc, cube, w, e);
          },
          aclnnMatmul);
    }
    EXPECT_EQ(st, ACLNN_SUCCESS);
    if (st != ACLNN_SUCCESS) return -1;
    int bad = 0;
    for (int64_t bt = 0; bt < nc; ++bt) {
      // Batch offsets with broadcasting (row-major batch index).
      int64_t ia = 0, ib = 0, rest = bt, sa = 1, sb = 1;
      for (std::size_t d = cb.size(); d-- > 0;) {
        const int64_t i = rest % cb[d];
        rest /= cb[d];
        ia += (ab[d] == 1 ? 0 : i) * sa;
        ib += (bb[d] == 1 ? 0 : i) * sb;
        sa *= ab[d];
        sb *= bb[d];
      }
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double ref = 0, mag = 0;
          for (int64_t q = 0; q < k; ++q) {
            const double p = va[static_cast<std::size_t>(ia * m * k + i * k + q)] *
                             vb[static_cast<std::size_t>(ib * k * n + q * n + j)];
            ref += p;
            mag += std::fabs(p);
          }
          const double got = get(out, pc, static_cast<std::size_t>(bt * m * n + i * n + j));
          if (!(std::fabs(got - ref) <= tolerance(out) * mag + 1e-6)) {
            if (bad < 5) {
              ADD_FAILURE() << "out[" << bt << "][" << i << "][" << j << "] = " << got
                            << ", reference " << ref << " (magnitude " << mag << ")";
            }
            ++bad;
          }
        }
    }
    return bad;
  }

  std::uint64_t seed_ = 12345;
};

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
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "transA " << ta << " transB " << tb);
      EXPECT_EQ(check_product(0, {}, {}, 33, 70, 45, ACL_FLOAT16, ACL_FLOAT16, ta, tb), 0);
      EXPECT_EQ(check_product(0, {}, {}, 33, 70, 45, ACL_FLOAT, ACL_FLOAT, ta, tb), 0);
      EXPECT_EQ(check_product(0, {}, {}, 20, 40, 24, ACL_BF16, ACL_FLOAT, ta, tb), 0);
    }
  }
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
  ASSERT_EQ(
      run([&](uint64_t* ws,
              aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(tv, tw, on, 0, ws, e); },
          aclnnMatmul),
      ACLNN_SUCCESS);
  for (int64_t j = 0; j < n; ++j) {
    double ref = 0;
    for (int64_t q = 0; q < k; ++q) ref += v[q] * w[static_cast<std::size_t>(q * n + j)];
    EXPECT_NEAR(get(ACL_FLOAT, po, j), ref, 1e-4);
  }
  ASSERT_EQ(
      run([&](uint64_t* ws,
              aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(ta, tv, om, 0, ws, e); },
          aclnnMatmul),
      ACLNN_SUCCESS);
  for (int64_t i = 0; i < m; ++i) {
    double ref = 0;
    for (int64_t q = 0; q < k; ++q) ref += a[static_cast<std::size_t>(i * k + q)] * v[q];
    EXPECT_NEAR(get(ACL_FLOAT, po, i), ref, 1e-4);
  }
  ASSERT_EQ(
      run([&](uint64_t* ws,
              aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(tv, tv, o0, 0, ws, e); },
          aclnnMatmul),
      ACLNN_SUCCESS);
  double dot = 0;
  for (int64_t q = 0; q < k; ++q) dot += v[q] * v[q];
  EXPECT_NEAR(get(ACL_FLOAT, po, 0), dot, 1e-4);
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
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "transA " << ta << " transB " << tb);
      EXPECT_EQ(check_product(0, {}, {}, 150, 100, 600, ACL_FLOAT16, ACL_FLOAT16, ta, tb), 0);
      EXPECT_EQ(check_product(0, {}, {}, 40, 72, 530, ACL_FLOAT, ACL_FLOAT, ta, tb), 0);
    }
  }
  EXPECT_EQ(check_product(1, {3}, {1}, 70, 50, 300, ACL_BF16, ACL_BF16, false, true), 0);
}

// ---- Convolution ----

struct ConvCase {
  int64_t n, cin, h, w, cout, kh, kw, sh, sw, ph, pw, dh, dw;
  bool bias;
  aclDataType type;
  int64_t groups = 1;
  bool one_d = false;  // 3-D tensors (h = kh = 1, sh = dh = 1, ph = 0)
  int8_t cube = 0;
};

class AclnnConvTest : public AclnnMatmulTest {
 protected:
  int check_conv(const ConvCase& cc, uint64_t* ws_out = nullptr) {
    const int64_t oh = (cc.h + 2 * cc.ph - cc.dh * (cc.kh - 1) - 1) / cc.sh + 1;
    const int64_t ow = (cc.w + 2 * cc.pw - cc.dw * (cc.kw - 1) - 1) / cc.sw + 1;
    const std::size_t es = elem_size(cc.type);
    const int64_t cin_g = cc.cin / cc.groups, cout_g = cc.cout / cc.groups;
    const int64_t nx = cc.n * cc.cin * cc.h * cc.w, nw = cc.cout * cin_g * cc.kh * cc.kw;
    const int64_t ny = cc.n * cc.cout * oh * ow;
    void* px = alloc(static_cast<std::size_t>(nx) * es);
    void* pw = alloc(static_cast<std::size_t>(nw) * es);
    void* pb = alloc(static_cast<std::size_t>(cc.cout) * es);
    void* py = alloc(static_cast<std::size_t>(ny) * es);
    std::vector<double> x(static_cast<std::size_t>(nx)), w(static_cast<std::size_t>(nw)),
        b(static_cast<std::size_t>(cc.cout), 0.0);
    for (int64_t i = 0; i < nx; ++i) x[i] = put(cc.type, px, i, next());
    for (int64_t i = 0; i < nw; ++i) w[i] = put(cc.type, pw, i, next());
    if (cc.bias)
      for (int64_t i = 0; i < cc.cout; ++i) b[i] = put(cc.type, pb, i, next());
    auto dims4 = [&](int64_t a, int64_t c, int64_t hh, int64_t ww) {
      return cc.one_d ? std::vector<int64_t>{a, c, ww} : std::vector<int64_t>{a, c, hh, ww};
    };
    aclTensor* tx = view(dims4(cc.n, cc.cin, cc.h, cc.w),
                         contiguous(dims4(cc.n, cc.cin, cc.h, cc.w)), cc.type, px, nx);
    aclTensor* tw = view(dims4(cc.cout, cin_g, cc.kh, cc.kw),
                         contiguous(dims4(cc.cout, cin_g, cc.kh, cc.kw)), cc.type, pw, nw);
    aclTensor* tb = cc.bias ? view({cc.cout}, {1}, cc.type, pb, cc.cout) : nullptr;
    aclTensor* ty = view(dims4(cc.n, cc.cout, oh, ow), contiguous(dims4(cc.n, cc.cout, oh, ow)),
                         cc.type, py, ny);
    std::vector<int64_t> s{cc.sh, cc.sw}, pd{cc.ph, cc.pw}, dl{cc.dh, cc.dw}, op{0, 0};
    if (cc.one_d) {
      s = {cc.sw};
      pd = {cc.pw};
      dl = {cc.dw};
      op = {0};
    }
    aclIntArray* stride = aclCreateIntArray(s.data(), s.size());
    aclIntArray* padding = aclCreateIntArray(pd.data(), pd.size());
    aclIntArray* dilation = aclCreateIntArray(dl.data(), dl.size());
    aclIntArray* out_pad = aclCreateIntArray(op.data(), op.size());
    const aclnnStatus st = run(
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnConvolutionGetWorkspaceSize(tx, tw, tb, stride, padding, dilation, false,
                                                  out_pad, cc.groups, ty, cc.cube, ws, e);
        },
        aclnnConvolution, ws_out);
    aclDestroyIntArray(stride);
    aclDestroyIntArray(padding);
    aclDestroyIntArray(dilation);
    aclDestroyIntArray(out_pad);
    EXPECT_EQ(st, ACLNN_SUCCESS);
    if (st != ACLNN_SUCCESS) return -1;
    int bad = 0;
    for (int64_t nn = 0; nn < cc.n; ++nn)
      for (int64_t co = 0; co < cc.cout; ++co)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t xx = 0; xx < ow; ++xx) {
            double ref = b[co], mag = std::fabs(b[co]);
            const int64_t g = co / cout_g;
            for (int64_t ci = g * cin_g; ci < (g + 1) * cin_g; ++ci)
              for (int64_t i = 0; i < cc.kh; ++i)
                for (int64_t j = 0; j < cc.kw; ++j) {
                  const int64_t ih = y * cc.sh - cc.ph + i * cc.dh;
                  const int64_t iw = xx * cc.sw - cc.pw + j * cc.dw;
                  if (ih < 0 || ih >= cc.h || iw < 0 || iw >= cc.w) continue;
                  const double p =
                      x[static_cast<std::size_t>(((nn * cc.cin + ci) * cc.h + ih) * cc.w + iw)] *
                      w[static_cast<std::size_t>(
                          ((co * cin_g + ci - g * cin_g) * cc.kh + i) * cc.kw + j)];
                  ref += p;
                  mag += std::fabs(p);
                }
            const double got = get(
                cc.type, py, static_cast<std::size_t>(((nn * cc.cout + co) * oh + y) * ow + xx));
            if (!(std::fabs(got - ref) <= tolerance(cc.type) * mag + 1e-6)) {
              if (bad < 5)
                ADD_FAILURE() << "y[" << nn << "][" << co << "][" << y << "][" << xx
                              << "] = " << got << ", reference " << ref;
              ++bad;
            }
          }
    return bad;
  }
};

TEST_F(AclnnConvTest, ResNetShapedConvolutions) {
  // 1x1 stride 1, 3x3 stride 1 pad 1, 3x3 stride 2 pad 1, 7x7 stride 2 pad 3, 1x1 stride 2
  // (downsample), scaled down in channels and size.
  EXPECT_EQ(check_conv({1, 16, 8, 8, 32, 1, 1, 1, 1, 0, 0, 1, 1, false, ACL_FLOAT16}), 0);
  EXPECT_EQ(check_conv({2, 8, 9, 9, 16, 3, 3, 1, 1, 1, 1, 1, 1, true, ACL_FLOAT16}), 0);
  EXPECT_EQ(check_conv({1, 8, 10, 10, 24, 3, 3, 2, 2, 1, 1, 1, 1, true, ACL_FLOAT16}), 0);
  EXPECT_EQ(check_conv({1, 3, 20, 20, 16, 7, 7, 2, 2, 3, 3, 1, 1, true, ACL_FLOAT16}), 0);
  EXPECT_EQ(check_conv({1, 16, 8, 8, 32, 1, 1, 2, 2, 0, 0, 1, 1, false, ACL_FLOAT16}), 0);
}

TEST_F(AclnnConvTest, OtherTypesDilationAndAsymmetricShapes) {
  EXPECT_EQ(check_conv({1, 4, 11, 7, 5, 3, 2, 1, 2, 2, 1, 2, 1, true, ACL_FLOAT}), 0);
  EXPECT_EQ(check_conv({2, 5, 6, 9, 7, 3, 3, 2, 1, 0, 1, 1, 1, true, ACL_BF16}), 0);
}

TEST_F(AclnnConvTest, TwoLaunchesAndAWorkspace) {
  uint64_t ws = 0;
  EXPECT_EQ(check_conv({1, 2, 4, 4, 3, 3, 3, 1, 1, 1, 1, 1, 1, true, ACL_FLOAT16}, &ws), 0);
  // col: 2*3*3 rows x 16 pixels (fp16) + the row of ones (baseN = 16 elements).
  EXPECT_EQ(ws, (18u * 16u + 16u) * 2u);
  int kernels = 0;
  for (const auto& t : fake().tasks()) kernels += t.kind == TaskKind::kKernel;
  EXPECT_EQ(kernels, 2);
}

TEST_F(AclnnConvTest, GroupedDepthwiseAndOneDimensional) {
  // groups = 2; depthwise (groups = channels) with stride 2 and a bias; grouped 1x1 (direct).
  EXPECT_EQ(check_conv({1, 8, 7, 7, 12, 3, 3, 1, 1, 1, 1, 1, 1, true, ACL_FLOAT16, 2}), 0);
  EXPECT_EQ(check_conv({2, 6, 9, 9, 6, 3, 3, 2, 2, 1, 1, 1, 1, true, ACL_FLOAT16, 6}), 0);
  EXPECT_EQ(check_conv({1, 8, 4, 5, 4, 1, 1, 1, 1, 0, 0, 1, 1, true, ACL_FLOAT, 4}), 0);
  // 1-D (NCL): h = kh = 1.
  EXPECT_EQ(check_conv({2, 5, 1, 30, 7, 1, 5, 1, 2, 0, 2, 1, 2, true, ACL_FLOAT16, 1, true}), 0);
  EXPECT_EQ(check_conv({1, 4, 1, 16, 8, 1, 1, 1, 1, 0, 0, 1, 1, false, ACL_BF16, 2, true}), 0);
}

TEST_F(AclnnConvTest, FloatWithHf32RoundsInputAndWeight) {
  // Values exact in 11 significant bits: HFLOAT32 (cubeMathType 1) gives the FLOAT products.
  EXPECT_EQ(check_conv({1, 4, 9, 9, 6, 3, 3, 2, 2, 1, 1, 1, 1, true, ACL_FLOAT, 1, false, 1}), 0);
  EXPECT_EQ(check_conv({2, 6, 5, 5, 4, 1, 1, 1, 1, 0, 0, 1, 1, false, ACL_FLOAT, 2, false, 3}), 0);
  // 1 + 2^-13 rounds to 1 in HFLOAT32; KEEP_DTYPE keeps it.
  float* p = static_cast<float*>(alloc(64));
  aclTensor* x = view({1, 1, 1, 1}, {1, 1, 1, 1}, ACL_FLOAT, p, 1);
  aclTensor* w = view({1, 1, 1, 1}, {1, 1, 1, 1}, ACL_FLOAT, p + 1, 1);
  aclTensor* y = view({1, 1, 1, 1}, {1, 1, 1, 1}, ACL_FLOAT, p + 8, 1);
  std::vector<int64_t> one{1, 1}, zero{0, 0};
  aclIntArray* s = aclCreateIntArray(one.data(), 2);
  aclIntArray* pd = aclCreateIntArray(zero.data(), 2);
  for (int8_t cube : {0, 1, 2}) {
    p[0] = 1.0f + 1.0f / 8192.0f;
    p[1] = 1.0f;
    const aclnnStatus st = run(
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnConvolutionGetWorkspaceSize(x, w, nullptr, s, pd, s, false, pd, 1, y, cube,
                                                  ws, e);
        },
        aclnnConvolution);
    if (cube == 2) {  // USE_FP16 with FLOAT convolutions: not supported
      EXPECT_EQ(st, ACLNN_ERR_PARAM_INVALID);
      continue;
    }
    ASSERT_EQ(st, ACLNN_SUCCESS);
    EXPECT_EQ(p[8], cube == 0 ? 1.0f + 1.0f / 8192.0f : 1.0f);
  }
  aclDestroyIntArray(s);
  aclDestroyIntArray(pd);
}

TEST_F(AclnnConvTest, PointwiseConvolutionNeedsNoIm2col) {
  uint64_t ws = 1;
  EXPECT_EQ(check_conv({2, 20, 5, 7, 12, 1, 1, 1, 1, 0, 0, 1, 1, false, ACL_FLOAT16}, &ws), 0);
  EXPECT_EQ(ws, 0u);
  int kernels = 0;
  for (const auto& t : fake().tasks()) kernels += t.kind == TaskKind::kKernel;
  EXPECT_EQ(kernels, 1);  // the matmul alone
  // With a bias: the vector kernel writes only the ones: baseN elements (fp32), baseN = 16 here
  // (2 images x 3 tiles of 16 pixels spread over the cube cores).
  EXPECT_EQ(check_conv({2, 20, 5, 7, 12, 1, 1, 1, 1, 0, 0, 1, 1, true, ACL_FLOAT}, &ws), 0);
  EXPECT_EQ(ws, 16u * 4u);
}

// Two cube cores: runs of several tiles per block with resident weight panels, with bias and
// groups.
class AclnnConvTwoCoresTest : public AclnnConvTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override { config.aicore.cube_cores = 2; }
};

TEST_F(AclnnConvTwoCoresTest, ResidentWeightPanelsWithBiasAndGroups) {
  EXPECT_EQ(check_conv({2, 8, 20, 20, 40, 3, 3, 1, 1, 1, 1, 1, 1, true, ACL_FLOAT16}), 0);
  EXPECT_EQ(check_conv({1, 8, 40, 40, 16, 3, 3, 2, 2, 1, 1, 1, 1, true, ACL_FLOAT, 2}), 0);
  EXPECT_EQ(check_conv({2, 16, 30, 30, 24, 1, 1, 1, 1, 0, 0, 1, 1, true, ACL_BF16, 4}), 0);
}

TEST_F(AclnnConvTest, UnsupportedConvolutionsAreRefused) {
  void* p = alloc(1 << 16);
  aclTensor* x = view({1, 4, 8, 8}, contiguous({1, 4, 8, 8}), ACL_FLOAT16, p, 4096);
  aclTensor* w = view({8, 4, 3, 3}, contiguous({8, 4, 3, 3}), ACL_FLOAT16, p, 4096);
  aclTensor* w2 = view({8, 2, 3, 3}, contiguous({8, 2, 3, 3}), ACL_FLOAT16, p, 4096);
  aclTensor* y = view({1, 8, 6, 6}, contiguous({1, 8, 6, 6}), ACL_FLOAT16, p, 4096);
  aclTensor* y_bad = view({1, 8, 8, 8}, contiguous({1, 8, 8, 8}), ACL_FLOAT16, p, 4096);
  std::vector<int64_t> one{1, 1}, zero{0, 0}, three{1, 1, 1};
  aclIntArray* s = aclCreateIntArray(one.data(), 2);
  aclIntArray* pd = aclCreateIntArray(zero.data(), 2);
  aclIntArray* bad3 = aclCreateIntArray(three.data(), 3);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnConvolutionGetWorkspaceSize(x, w, nullptr, s, pd, s, false, pd, 1, y, 0, &ws, &ex),
            ACLNN_SUCCESS);
  EXPECT_EQ(aclnnConvolutionGetWorkspaceSize(x, w, nullptr, s, pd, s, true, pd, 1, y, 0, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // transposed
  EXPECT_EQ(
      aclnnConvolutionGetWorkspaceSize(x, w2, nullptr, s, pd, s, false, pd, 3, y, 0, &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);  // groups not dividing the channels
  EXPECT_EQ(
      aclnnConvolutionGetWorkspaceSize(x, w2, nullptr, s, pd, s, false, pd, 1, y, 0, &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);  // weight channels != input channels / groups
  EXPECT_EQ(
      aclnnConvolutionGetWorkspaceSize(x, w, nullptr, s, pd, s, false, pd, 1, y_bad, 0, &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);  // output shape
  EXPECT_EQ(
      aclnnConvolutionGetWorkspaceSize(x, w, nullptr, bad3, pd, s, false, pd, 1, y, 0, &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);  // 3 strides
  EXPECT_EQ(
      aclnnConvolutionGetWorkspaceSize(x, w, nullptr, nullptr, pd, s, false, pd, 1, y, 0, &ws, &ex),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnConvolutionGetWorkspaceSize(nullptr, w, nullptr, s, pd, s, false, pd, 1, y, 0, &ws, &ex),
      ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyIntArray(s);
  aclDestroyIntArray(pd);
  aclDestroyIntArray(bad3);
}

}  // namespace
}  // namespace npusim::rt::testing
