// SPDX-License-Identifier: Apache-2.0
// The element-wise activations (runtime/aclnn/elementwise.cpp) on FakeBackend against a
// double-precision host reference, in-place forms, empty tensors, non-contiguous views and the
// documented error codes.
//
// Tolerances (|got - ref| <= rtol * |ref| + atol): FLOAT 1e-5 with atol 1e-6, FLOAT16 2e-3 with
// atol 1e-3 (the float result rounded to half), BF16 1e-2 with atol 1e-2.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "tests/runtime/aclnn/elementwise_support.h"

namespace npusim::rt::testing::ew_test {
namespace {

enum class Act { kRelu, kGelu, kSilu, kSigmoid, kTanh, kExp };

double act_ref(Act a, double x) {
  switch (a) {
    case Act::kRelu:
      return x > 0 ? x : 0;
    case Act::kGelu:
      return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
    case Act::kSilu:
      return x / (1 + std::exp(-x));
    case Act::kSigmoid:
      return 1 / (1 + std::exp(-x));
    case Act::kTanh:
      return std::tanh(x);
    default:
      return std::exp(x);
  }
}

aclnnStatus act_plan(Act a, const aclTensor* x, aclTensor* y, uint64_t* ws, aclOpExecutor** ex) {
  switch (a) {
    case Act::kRelu:
      return aclnnReluGetWorkspaceSize(x, y, ws, ex);
    case Act::kGelu:
      return aclnnGeluGetWorkspaceSize(x, y, ws, ex);
    case Act::kSilu:
      return aclnnSiluGetWorkspaceSize(x, y, ws, ex);
    case Act::kSigmoid:
      return aclnnSigmoidGetWorkspaceSize(x, y, ws, ex);
    case Act::kTanh:
      return aclnnTanhGetWorkspaceSize(x, y, ws, ex);
    default:
      return aclnnExpGetWorkspaceSize(x, y, ws, ex);
  }
}

Phase2 act_run(Act a) {
  switch (a) {
    case Act::kRelu:
      return aclnnRelu;
    case Act::kGelu:
      return aclnnGelu;
    case Act::kSilu:
      return aclnnSilu;
    case Act::kSigmoid:
      return aclnnSigmoid;
    case Act::kTanh:
      return aclnnTanh;
    default:
      return aclnnExp;
  }
}

TEST_F(ElementwiseTest, ActivationsMatchTheReference) {
  const char* names[] = {"Relu", "Gelu", "Silu", "Sigmoid", "Tanh", "Exp"};
  for (Act a : {Act::kRelu, Act::kGelu, Act::kSilu, Act::kSigmoid, Act::kTanh, Act::kExp}) {
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      for (Shape s : {Shape{1}, Shape{31}, Shape{7, 129}, Shape{300007}}) {
        SCOPED_TRACE(std::string(names[static_cast<int>(a)]) + " " + nn::dtype_name(type) + " " +
                     std::to_string(count(s)));
        const double lo = a == Act::kExp ? -10 : -12, hi = a == Act::kExp ? 10 : 12;
        Buf x = tensor(s, type, [&](std::int64_t i) { return value(i, lo, hi, 3); });
        Buf y = tensor(s, type);
        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        ASSERT_EQ(act_plan(a, x.t, y.t, &ws, &ex), ACLNN_SUCCESS);
        EXPECT_EQ(ws, 0u);
        run(act_run(a), ws, ex);
        const double rtol = type == ACL_FLOAT ? 1e-5 : type == ACL_FLOAT16 ? 2e-3 : 1e-2;
        const double atol = type == ACL_FLOAT ? 1e-6 : type == ACL_FLOAT16 ? 1e-3 : 1e-2;
        expect_near(
            y, [&](std::int64_t i) { return act_ref(a, x.at(i)); },
            [&](std::int64_t i) { return std::fabs(act_ref(a, x.at(i))); }, rtol, atol,
            names[static_cast<int>(a)]);
      }
    }
  }
  const auto& k = last_kernel();  // Exp BF16 on 300007 elements
  EXPECT_EQ(k.name, "Exp");
  EXPECT_EQ(k.blocks_run, 48u);
}

TEST_F(ElementwiseTest, GeluV2ExactAndTanhForms) {
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int64_t approximate : {0, 1}) {
      SCOPED_TRACE(nn::dtype_name(type) + " approximate " + std::to_string(approximate));
      Buf x = tensor({3, 10007}, type, [](std::int64_t i) { return value(i, -9, 9, 4); });
      Buf y = tensor({3, 10007}, type);
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      ASSERT_EQ(aclnnGeluV2GetWorkspaceSize(x.t, approximate, y.t, &ws, &ex), ACLNN_SUCCESS);
      run(aclnnGeluV2, ws, ex);
      const auto ref = [&](std::int64_t i) {
        const double v = x.at(i);
        return approximate == 0 ? 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)))
                                : act_ref(Act::kGelu, v);
      };
      const double rtol = type == ACL_FLOAT ? 1e-5 : type == ACL_FLOAT16 ? 2e-3 : 1e-2;
      const double atol = type == ACL_FLOAT ? 1e-6 : type == ACL_FLOAT16 ? 1e-3 : 1e-2;
      expect_near(
          y, ref, [&](std::int64_t i) { return std::fabs(ref(i)); }, rtol, atol, "GeluV2");
    }
  }
  Buf x = tensor({4}, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(x.t, 2, x.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(nullptr, 0, x.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(ElementwiseTest, InPlaceAndEmptyTensors) {
  Buf x = tensor({1000}, ACL_FLOAT, [](std::int64_t i) { return static_cast<double>(i); });
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnReluGetWorkspaceSize(x.t, x.t, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnRelu, ws, ex);
  EXPECT_EQ(x.at(999), 999.0);
  Buf e = tensor({0, 4}, ACL_FLOAT);
  Buf eo = tensor({0, 4}, ACL_FLOAT);
  ASSERT_EQ(aclnnExpGetWorkspaceSize(e.t, eo.t, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnExp, ws, ex);
}

TEST_F(ElementwiseTest, InplaceFormsWriteIntoSelfRef) {
  const auto init = [](std::int64_t i) { return value(i, -5, 5); };
  Buf a = tensor({50, 40}, ACL_FLOAT, init);
  Buf bias = tensor({40}, ACL_FLOAT, [](std::int64_t i) { return value(i, 1, 2, 9); });
  aclScalar* two = scalar(2.0, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnInplaceAddGetWorkspaceSize(a.t, bias.t, two, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnInplaceAdd, ws, ex);  // a += 2 * bias
  ASSERT_EQ(aclnnInplaceSubsGetWorkspaceSize(a.t, two, two, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnInplaceSubs, ws, ex);  // a -= 4
  ASSERT_EQ(aclnnInplaceMulsGetWorkspaceSize(a.t, two, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnInplaceMuls, ws, ex);  // a *= 2
  ASSERT_EQ(aclnnInplaceDivGetWorkspaceSize(a.t, bias.t, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnInplaceDiv, ws, ex);  // a /= bias
  ASSERT_EQ(aclnnInplaceSigmoidGetWorkspaceSize(a.t, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnInplaceSigmoid, ws, ex);
  const auto ref = [&](std::int64_t i) {
    const double x = static_cast<float>(init(i));
    const double b = bias.at(i % 40);
    return 1 / (1 + std::exp(-((x + 2 * b - 4) * 2 / b)));
  };
  expect_near(
      a, ref, [&](std::int64_t i) { return ref(i); }, 1e-5, 1e-6, "inplace chain");
  Buf row = tensor({1, 40}, ACL_FLOAT);
  EXPECT_EQ(aclnnInplaceAddGetWorkspaceSize(row.t, a.t, two, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // the broadcast shape is not selfRef's
  EXPECT_EQ(aclnnInplaceExpGetWorkspaceSize(nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyScalar(two);
}

// A view of `base` (its storage) with the given shape, strides and element offset.
aclTensor* view(const Buf& base, Shape dims, Shape strides, std::int64_t offset) {
  return aclCreateTensor(dims.data(), dims.size(), base.type, strides.data(), offset, ACL_FORMAT_ND,
                         base.shape.data(), base.shape.size(), base.dev);
}

TEST_F(ElementwiseTest, NonContiguousViews) {
  // self: columns 5..34 of an [8, 50] storage; other: a [40]-row expanded to [6, 40] by stride 0
  // ... each against contiguous partners, results into a column slice of another storage.
  Buf a = tensor({8, 50}, ACL_FLOAT, [](std::int64_t i) { return value(i, -3, 3); });
  Buf b = tensor({8, 30}, ACL_FLOAT, [](std::int64_t i) { return value(i, -3, 3, 5); });
  Buf o = tensor({8, 50}, ACL_FLOAT, [](std::int64_t) { return 7.0; });  // sentinel
  aclTensor* av = view(a, {8, 30}, {50, 1}, 5);
  aclTensor* ov = view(o, {8, 30}, {50, 1}, 10);
  aclScalar* one = scalar(1.0, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(av, b.t, one, ov, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_EQ(ws, 0u);
  run(aclnnAdd, ws, ex);
  for (std::int64_t r = 0; r < 8; ++r) {
    for (std::int64_t c = 0; c < 50; ++c) {
      const double want = c >= 10 && c < 40 ? a.at(r * 50 + c - 5) + b.at(r * 30 + c - 10) : 7.0;
      EXPECT_NEAR(o.at(r * 50 + c), want, 1e-6 * (std::fabs(want) + 3)) << r << "," << c;
    }
  }
  // Expanded input (stride 0) and a sliced input through a unary op and a Cast.
  Buf row = tensor({40}, ACL_FLOAT16, [](std::int64_t i) { return value(i, -2, 2, 11); });
  aclTensor* rv = view(row, {6, 40}, {0, 1}, 0);
  Buf wide = tensor({6, 40}, ACL_FLOAT);
  ASSERT_EQ(aclnnCastGetWorkspaceSize(rv, ACL_FLOAT, wide.t, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnCast, ws, ex);
  for (std::int64_t i = 0; i < 240; ++i) EXPECT_EQ(wide.at(i), row.at(i % 40)) << i;
  Buf e = tensor({8, 30}, ACL_FLOAT);
  ASSERT_EQ(aclnnExpGetWorkspaceSize(av, e.t, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnExp, ws, ex);
  for (std::int64_t i = 0; i < 240; ++i) {
    const double want = std::exp(a.at(i / 30 * 50 + i % 30 + 5));
    EXPECT_NEAR(e.at(i), want, 1e-6 * want) << i;
  }
  // A transposed view (innermost stride 8) and an out that overlaps itself are refused.
  aclTensor* tv = view(a, {50, 8}, {1, 50}, 0);
  Buf t = tensor({50, 8}, ACL_FLOAT);
  EXPECT_EQ(aclnnReluGetWorkspaceSize(tv, t.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  aclTensor* overlap = view(o, {8, 30}, {0, 1}, 0);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(b.t, b.t, one, overlap, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  for (aclTensor* v : {av, ov, rv, tv, overlap}) EXPECT_EQ(aclDestroyTensor(v), ACLNN_SUCCESS);
  aclDestroyScalar(one);
}

TEST_F(ElementwiseTest, MisuseIsRefusedWithTheDocumentedCodes) {
  Buf f = tensor({4, 4}, ACL_FLOAT);
  Buf f2 = tensor({4, 4}, ACL_FLOAT);
  Buf g = tensor({3}, ACL_FLOAT);
  Buf i32 = tensor({4, 4}, ACL_INT32);
  Buf h = tensor({4, 4}, ACL_FLOAT16);
  Buf d = tensor({4, 4}, ACL_DOUBLE);
  Buf wrong = tensor({4, 5}, ACL_FLOAT);
  aclScalar* one = scalar(1.0, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAddGetWorkspaceSize(nullptr, f.t, one, f2.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(f.t, f.t, nullptr, f2.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnSubGetWorkspaceSize(f.t, f.t, one, nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnMulsGetWorkspaceSize(f.t, nullptr, f2.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnDivGetWorkspaceSize(f.t, f.t, f2.t, nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnCastGetWorkspaceSize(nullptr, ACL_FLOAT, f2.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnGeluGetWorkspaceSize(f.t, nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnTanh(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);

  EXPECT_EQ(aclnnAddGetWorkspaceSize(f.t, g.t, one, f2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMulGetWorkspaceSize(f.t, f.t, wrong.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnMulGetWorkspaceSize(f.t, d.t, f2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnDivGetWorkspaceSize(f.t, f.t, i32.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnReluGetWorkspaceSize(i32.t, i32.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnSigmoidGetWorkspaceSize(f.t, h.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnExpGetWorkspaceSize(f.t, wrong.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnCastGetWorkspaceSize(f.t, ACL_FLOAT16, i32.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnCastGetWorkspaceSize(d.t, ACL_FLOAT, f2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  aclScalar* half_alpha = scalar(1.0, ACL_FLOAT);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(i32.t, i32.t, half_alpha, i32.t, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // a FLOAT alpha does not cast to an INT32 result
  aclDestroyScalar(half_alpha);
  aclDestroyScalar(one);
}

}  // namespace
}  // namespace npusim::rt::testing::ew_test
