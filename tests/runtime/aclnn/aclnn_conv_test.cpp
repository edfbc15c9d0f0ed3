// SPDX-License-Identifier: Apache-2.0
// aclnnConvolution (runtime/aclnn/conv.cpp) on the cube kernel, run functionally on the
// FakeBackend and compared with double-precision host references; tolerances as for the matmul
// family (matmul_support.h).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "runtime/core/half_float.h"
#include "tests/runtime/aclnn/matmul_support.h"

namespace npusim::rt::testing::matmul_test {
namespace {

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
}  // namespace npusim::rt::testing::matmul_test
