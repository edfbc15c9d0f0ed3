// SPDX-License-Identifier: Apache-2.0
// The norm operators (runtime/aclnn/norm.cpp, norm_kernels.cpp) on FakeBackend: aclnnLayerNorm
// (+WithImplMode), aclnnRmsNorm, aclnnAddRmsNorm, aclnnBatchNorm (inference) against
// double-precision host references computed from the values the device reads (inputs rounded to
// their type), on row lengths that are not multiples of 8 / 16 and rows longer than UB, the
// launch plan (kernels, blocks, recorded instructions), repeatable executors, and error codes.
// Softmax and the reductions: aclnn_reduce_test.cpp.
//
// Tolerances (|got - ref| <= atol + rtol * |ref|): FLOAT atol 2e-5 rtol 2e-5, FLOAT16 atol 2e-3
// rtol 2e-3, BFLOAT16 atol 2e-2 rtol 1.6e-2.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "tests/runtime/aclnn/norm_support.h"

namespace npusim::rt::testing::norm_test {
namespace {

// ---- LayerNorm / RmsNorm -----------------------------------------------------------------

TEST_F(NormTest, LayerNormMatchesDoubleReference) {
  struct Case {
    Shape shape, norm;
    aclDataType type, param_type, stat_type;
    bool weight, bias, stats;
  };
  const Case cases[] = {
      {{4, 33}, {33}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, true, true, true},
      {{2, 3, 40}, {3, 40}, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, true, true, true},
      {{5, 77}, {77}, ACL_BF16, ACL_FLOAT, ACL_FLOAT, false, false, false},
      {{6, 19}, {19}, ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT, true, false, true},
      {{300, 16}, {16}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, false, true, true},
      {{2, 50003}, {50003}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, true, true, true},
      {{3, 41000}, {41000}, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT, true, true, true}};
  const double eps = 1e-5;
  double seed = 10;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "numel " << numel(c.shape) << " type " << c.type);
    const int64_t len = numel(c.norm);
    const int64_t rows = numel(c.shape) / len;
    aclTensor* x = make(c.shape, c.type, pattern(numel(c.shape), seed += 1, 2.0));
    aclTensor* w = c.weight ? make(c.norm, c.param_type, pattern(len, seed + 0.5, 1.0)) : nullptr;
    aclTensor* b = c.bias ? make(c.norm, c.param_type, pattern(len, seed + 0.7, 0.5)) : nullptr;
    aclTensor* y = make(c.shape, c.type);
    Shape stat_shape(c.shape.begin(), c.shape.end() - static_cast<long>(c.norm.size()));
    for (std::size_t i = 0; i < c.norm.size(); ++i) stat_shape.push_back(1);
    aclTensor* mean = c.stats ? make(stat_shape, c.stat_type) : nullptr;
    aclTensor* rstd = c.stats ? make(stat_shape, c.stat_type) : nullptr;
    aclIntArray* shape = ints(c.norm);
    layer_norm(x, shape, w, b, eps, y, mean, rstd);
    const Values wv = w ? read(w) : Values(), bv = b ? read(b) : Values();
    const NormRef ref = norm_ref(read(x), len, w ? &wv : nullptr, b ? &bv : nullptr, eps, false);
    expect_close(read(y), ref.y, tol_of(c.type), "out");
    if (c.stats) {
      ASSERT_EQ(ref.mean.size(), static_cast<std::size_t>(rows));
      expect_close(read(mean), ref.mean, tol_of(c.stat_type), "mean");
      expect_close(read(rstd), ref.rstd, tol_of(c.stat_type), "rstd");
    }
  }
}

TEST_F(NormTest, LayerNormErrors) {
  aclTensor* x = make({4, 8}, ACL_FLOAT);
  aclTensor* y = make({4, 8}, ACL_FLOAT);
  aclTensor* w7 = make({7}, ACL_FLOAT);
  aclTensor* wi = make({8}, ACL_INT32);
  aclTensor* bad_mean = make({4, 2}, ACL_FLOAT);
  aclIntArray* s8 = ints({8});
  aclIntArray* s5 = ints({5});
  aclIntArray* s3 = ints({1, 4, 8});
  auto ln = [](const aclTensor* in, const aclIntArray* s, const aclTensor* w, aclTensor* out,
               aclTensor* mean) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnLayerNormGetWorkspaceSize(in, s, w, nullptr, 1e-5, out, mean, nullptr, ws, ex);
    };
  };
  EXPECT_EQ(status(ln(nullptr, s8, nullptr, y, nullptr)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(ln(x, nullptr, nullptr, y, nullptr)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(ln(x, s8, nullptr, nullptr, nullptr)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(ln(x, s5, nullptr, y, nullptr)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s3, nullptr, y, nullptr)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s8, w7, y, nullptr)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s8, wi, y, nullptr)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s8, nullptr, y, bad_mean)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(ln(x, s8, nullptr, y, nullptr)), ACLNN_SUCCESS);
  auto impl = [&](int32_t mode) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnLayerNormWithImplModeGetWorkspaceSize(x, s8, nullptr, nullptr, 1e-5, y, nullptr,
                                                        nullptr, mode, ws, ex);
    };
  };
  EXPECT_EQ(status(impl(3)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(impl(-1)), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(NormTest, LayerNormWithImplModeComputesLayerNorm) {
  aclTensor* x = make({3, 50}, ACL_FLOAT16, pattern(150, 1.0));
  aclTensor* y = make({3, 50}, ACL_FLOAT16);
  aclIntArray* shape = ints({50});
  run(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLayerNormWithImplModeGetWorkspaceSize(x, shape, nullptr, nullptr, 1e-5, y,
                                                          nullptr, nullptr, 1, ws, ex);
      },
      aclnnLayerNormWithImplMode);
  expect_close(read(y), norm_ref(read(x), 50, nullptr, nullptr, 1e-5, false).y, tol_of(ACL_FLOAT16),
               "implMode 1");
}

TEST_F(NormTest, RmsNormMatchesDoubleReference) {
  const RmsCase cases[] = {
      {{3, 100}, {100}, ACL_FLOAT, ACL_FLOAT},     {{4, 1, 77}, {77}, ACL_FLOAT16, ACL_FLOAT16},
      {{6, 2, 9}, {2, 9}, ACL_BF16, ACL_FLOAT},    {{2, 4096}, {4096}, ACL_BF16, ACL_BF16},
      {{2, 60001}, {60001}, ACL_FLOAT, ACL_FLOAT}, {{2, 45000}, {45000}, ACL_FLOAT16, ACL_FLOAT16}};
  double seed = 20;
  for (const RmsCase& c : cases) check_rms_norm(c, seed += 1, false);
}

TEST_F(NormTest, AddRmsNormMatchesDoubleReference) {
  const RmsCase cases[] = {{{3, 100}, {100}, ACL_FLOAT, ACL_FLOAT},
                           {{4, 1, 77}, {77}, ACL_FLOAT16, ACL_FLOAT16},
                           {{40, 24}, {24}, ACL_BF16, ACL_FLOAT},
                           {{2, 60001}, {60001}, ACL_FLOAT, ACL_FLOAT},
                           {{2, 45000}, {45000}, ACL_FLOAT16, ACL_FLOAT}};
  double seed = 70;
  for (const RmsCase& c : cases) check_rms_norm(c, seed += 1, true);
  aclTensor* a = make({2, 8}, ACL_FLOAT);
  aclTensor* h = make({2, 8}, ACL_FLOAT16);
  aclTensor* g = make({8}, ACL_FLOAT);
  aclTensor* r = make({2, 1}, ACL_FLOAT);
  EXPECT_EQ(status([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormGetWorkspaceSize(a, h, g, 1e-6, a, r, a, ws, ex);
            }),
            ACLNN_ERR_PARAM_INVALID);  // x2's type differs
  EXPECT_EQ(status([&](uint64_t* ws, aclOpExecutor** ex) {
              return aclnnAddRmsNormGetWorkspaceSize(a, a, g, 1e-6, a, r, nullptr, ws, ex);
            }),
            ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(NormTest, RmsNormErrors) {
  aclTensor* x = make({2, 8}, ACL_FLOAT16);
  aclTensor* g = make({8}, ACL_FLOAT16);
  aclTensor* g4 = make({4}, ACL_FLOAT16);
  aclTensor* y = make({2, 8}, ACL_FLOAT16);
  aclTensor* rs = make({2, 1}, ACL_FLOAT);
  aclTensor* rs_half = make({2, 1}, ACL_FLOAT16);
  aclTensor* rs_bad = make({3, 1}, ACL_FLOAT);
  auto rms = [](const aclTensor* a, const aclTensor* gg, const aclTensor* yy, const aclTensor* r) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnRmsNormGetWorkspaceSize(a, gg, 1e-6, yy, r, ws, ex);
    };
  };
  EXPECT_EQ(status(rms(x, nullptr, y, rs)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(rms(x, g, y, nullptr)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(rms(x, g4, y, rs)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(rms(x, g, y, rs_half)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(rms(x, g, y, rs_bad)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(rms(x, g, y, rs)), ACLNN_SUCCESS);
  // gamma is FLOAT16: cast to fp32 in the workspace, which the second phase must then get.
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnRmsNormGetWorkspaceSize(x, g, 1e-6, y, rs, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_GE(ws, 8u * 4u);
  EXPECT_EQ(aclnnRmsNorm(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_NULLPTR);
}

// ---- BatchNorm ---------------------------------------------------------------------------

TEST_F(NormTest, BatchNormInferenceMatchesDoubleReference) {
  struct Case {
    Shape shape;
    aclDataType type, param_type;
    bool affine, save;
  };
  const Case cases[] = {{{2, 3, 4, 5}, ACL_FLOAT, ACL_FLOAT, true, true},
                        {{3, 5, 7}, ACL_FLOAT16, ACL_FLOAT16, true, false},
                        {{4, 6}, ACL_BF16, ACL_FLOAT, false, true},
                        {{1, 2, 50000}, ACL_FLOAT, ACL_FLOAT, true, false},
                        // ResNet-50's first BatchNorm: FLOAT16 planes of 12544 elements that just
                        // miss fitting UB whole (a chunk as long as the row was once planned).
                        {{1, 2, 112, 112}, ACL_FLOAT16, ACL_FLOAT, true, false}};
  const double eps = 1e-5;
  double seed = 30;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "numel " << numel(c.shape) << " type " << c.type);
    const int64_t ch = c.shape[1];
    aclTensor* x = make(c.shape, c.type, pattern(numel(c.shape), seed += 1, 2.0));
    aclTensor* w = c.affine ? make({ch}, c.param_type, pattern(ch, seed + 0.1, 1.0)) : nullptr;
    aclTensor* b = c.affine ? make({ch}, c.param_type, pattern(ch, seed + 0.2, 1.0)) : nullptr;
    aclTensor* rm = make({ch}, c.param_type, pattern(ch, seed + 0.3, 0.5));
    Values var = pattern(ch, seed + 0.4, 1.0);
    for (double& v : var) v = v * v + 0.25;
    aclTensor* rv = make({ch}, c.param_type, var);
    aclTensor* y = make(c.shape, c.type);
    aclTensor* sm = c.save ? make({ch}, ACL_FLOAT) : nullptr;
    aclTensor* si = c.save ? make({ch}, ACL_FLOAT) : nullptr;
    run(
        [&](uint64_t* ws, aclOpExecutor** ex) {
          return aclnnBatchNormGetWorkspaceSize(x, w, b, rm, rv, false, 0.1, eps, y, sm, si, ws,
                                                ex);
        },
        aclnnBatchNorm);
    const Values xv = read(x), mv = read(rm), vv = read(rv);
    const Values wv = w ? read(w) : Values(), bv = b ? read(b) : Values();
    const int64_t plane = numel(c.shape) / c.shape[0] / ch;
    Values ref(xv.size());
    for (std::size_t i = 0; i < xv.size(); ++i) {
      const auto k = static_cast<std::size_t>((static_cast<int64_t>(i) / plane) % ch);
      double v = (xv[i] - mv[k]) / std::sqrt(vv[k] + eps);
      if (w) v = v * wv[k] + bv[k];
      ref[i] = v;
    }
    expect_close(read(y), ref, tol_of(c.type), "output");
    if (c.save) {
      Values inv(static_cast<std::size_t>(ch));
      for (std::size_t k = 0; k < inv.size(); ++k) inv[k] = 1.0 / std::sqrt(vv[k] + eps);
      expect_close(read(sm), mv, tol_of(ACL_FLOAT), "saveMean");
      expect_close(read(si), inv, tol_of(ACL_FLOAT), "saveInvstd");
    }
  }
}

TEST_F(NormTest, BatchNormErrors) {
  aclTensor* x = make({2, 3, 4}, ACL_FLOAT);
  aclTensor* y = make({2, 3, 4}, ACL_FLOAT);
  aclTensor* p = make({3}, ACL_FLOAT);
  aclTensor* p4 = make({4}, ACL_FLOAT);
  aclTensor* x1 = make({6}, ACL_FLOAT);
  auto bn = [](const aclTensor* in, const aclTensor* rm, bool training, aclTensor* out) {
    return [=](uint64_t* ws, aclOpExecutor** ex) {
      return aclnnBatchNormGetWorkspaceSize(in, nullptr, nullptr, const_cast<aclTensor*>(rm),
                                            const_cast<aclTensor*>(rm), training, 0.1, 1e-5, out,
                                            nullptr, nullptr, ws, ex);
    };
  };
  EXPECT_EQ(status(bn(x, p, true, y)), ACLNN_ERR_PARAM_INVALID);  // training mode
  EXPECT_EQ(status(bn(x, nullptr, false, y)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(bn(x, p4, false, y)), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(status(bn(x1, p, false, x1)), ACLNN_ERR_PARAM_INVALID);  // 1-D input
  EXPECT_EQ(status(bn(nullptr, p, false, y)), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(status(bn(x, p, false, y)), ACLNN_SUCCESS);
}

// The launches an operator plans: names in order, blocks run on the vector cores, and every
// block records pipe instructions (the simulated time comes from them, not from host loops).
TEST_F(NormTest, LaunchesAreTiledVectorKernels) {
  aclTensor* x = make({96, 512}, ACL_FLOAT16, pattern(96 * 512, 1.0));
  aclTensor* w = make({512}, ACL_FLOAT16, pattern(512, 2.0));
  aclTensor* b = make({512}, ACL_FLOAT16, pattern(512, 3.0));
  aclTensor* y = make({96, 512}, ACL_FLOAT16);
  aclTensor* mean = make({96, 1}, ACL_FLOAT16);
  aclTensor* rstd = make({96, 1}, ACL_FLOAT);
  aclIntArray* shape = ints({512});
  layer_norm(x, shape, w, b, 1e-5, y, mean, rstd);
  std::vector<std::string> names;
  for (const auto& t : fake().tasks()) {
    if (t.kind != TaskKind::kKernel) continue;
    names.push_back(t.name);
    EXPECT_GT(t.instrs, static_cast<std::uint64_t>(t.blocks_run)) << t.name;
    if (t.name == "LayerNorm") {
      EXPECT_EQ(t.blocks_run, 48u);  // 96 rows over 48 vector cores
    }
  }
  // weight and bias cast to fp32, the norm, the FLOAT16 mean cast from fp32 (rstd is FLOAT).
  EXPECT_EQ(names, (std::vector<std::string>{"Cast", "Cast", "LayerNorm", "Cast"}));
  // A sum of 2 rows of 65536 (few long rows): each row split into 16 segments of 4096 (the
  // largest divisor <= 48 cores / 2 rows), reduced by 32 blocks, then the 2 x 16 partials by 2.
  const std::size_t before = fake().tasks().size();
  aclTensor* big = make({2, 65536}, ACL_FLOAT, pattern(2 * 65536, 5.0));
  aclTensor* sum = make({2}, ACL_FLOAT);
  aclIntArray* last = ints({-1});
  run(
      [&](uint64_t* ws, aclOpExecutor** ex) {
        return aclnnReduceSumGetWorkspaceSize(big, last, false, ACL_FLOAT, sum, ws, ex);
      },
      aclnnReduceSum);
  std::vector<std::uint32_t> blocks;
  for (std::size_t i = before; i < fake().tasks().size(); ++i)
    if (fake().tasks()[i].kind == TaskKind::kKernel) blocks.push_back(fake().tasks()[i].blocks_run);
  EXPECT_EQ(blocks, (std::vector<std::uint32_t>{32, 2}));
  const ReduceRef ref = reduce_ref(read(big), {2, 65536}, {false, true}, 0);
  expect_close(read(sum), ref.y, {1e-3, 1e-5}, "split sum");
}

// A repeatable executor runs again on new addresses (aclSetInputTensorAddr /
// aclSetOutputTensorAddr): the kernels take their tensors from the launch's addresses.
TEST_F(NormTest, RepeatableRmsNormFollowsNewAddresses) {
  aclTensor* x1 = make({4, 300}, ACL_FLOAT16, pattern(1200, 1.0));
  aclTensor* x2 = make({4, 300}, ACL_FLOAT16, pattern(1200, 2.0));
  aclTensor* g = make({300}, ACL_FLOAT16, pattern(300, 3.0));
  aclTensor* y1 = make({4, 300}, ACL_FLOAT16);
  aclTensor* y2 = make({4, 300}, ACL_FLOAT16);
  aclTensor* r1 = make({4, 1}, ACL_FLOAT);
  uint64_t ws_size = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnRmsNormGetWorkspaceSize(x1, g, 1e-6, y1, r1, &ws_size, &ex), ACLNN_SUCCESS);
  ASSERT_GT(ws_size, 0u);  // gamma is cast to fp32 in the workspace
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  void* ws = nullptr;
  ASSERT_EQ(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclnnRmsNorm(ws, ws_size, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetInputTensorAddr(ex, 0, x2, x2->data), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(ex, 0, y2, y2->data), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnRmsNorm(ws, ws_size, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
  aclrtFree(ws);
  const Values gv = read(g);
  expect_close(read(y1), norm_ref(read(x1), 300, &gv, nullptr, 1e-6, true).y, tol_of(ACL_FLOAT16),
               "run 1");
  expect_close(read(y2), norm_ref(read(x2), 300, &gv, nullptr, 1e-6, true).y, tol_of(ACL_FLOAT16),
               "run 2");
}

}  // namespace
}  // namespace npusim::rt::testing::norm_test
