// SPDX-License-Identifier: Apache-2.0
// The element-wise arithmetic operators (runtime/aclnn/elementwise.cpp) on FakeBackend: results
// against a double-precision host reference, broadcasting, scalar variants, type promotion, Cast,
// the kernels' tiling across the vector cores. Activations, in-place forms, views and the error
// codes: aclnn_activation_test.cpp.
//
// Tolerances (|got - ref| <= rtol * scale + atol, scale = |ref| or, for + and -, the operands'
// magnitudes): FLOAT 1e-6, FLOAT16 1e-3, BF16 1e-2 (one rounding in the compute type plus the
// final one). Cast is exact (same conversion rules as the host's).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "tests/runtime/aclnn/elementwise_support.h"

namespace npusim::rt::testing::ew_test {
namespace {

enum class Bin { kAdd, kSub, kMul, kDiv };

// self op alpha*other over the broadcast of two shapes, checked against the reference.
class EwBinaryTest : public ElementwiseTest {
 protected:
  void check(Bin op, const Shape& as, const Shape& bs, const Shape& os, aclDataType type,
             double alpha = 1.0) {
    const bool is_int = type == ACL_INT32;
    const double lo = is_int ? -1000 : -10, hi = is_int ? 1000 : 10;
    Buf a = tensor(as, type, [&](std::int64_t i) {
      const double v = value(i, lo, hi, 1);
      return is_int ? std::round(v) : v;
    });
    Buf b = tensor(bs, type, [&](std::int64_t i) {
      double v = value(i, lo, hi, 2);
      if (op == Bin::kDiv) v = (v < 0 ? -0.5 : 0.5) + v / 2;  // away from 0
      return is_int ? std::round(v) : v;
    });
    Buf out = tensor(os, type);
    aclScalar* al = scalar(alpha, is_int ? ACL_INT32 : ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    Phase2 fn = nullptr;
    switch (op) {
      case Bin::kAdd:
        ASSERT_EQ(aclnnAddGetWorkspaceSize(a.t, b.t, al, out.t, &ws, &ex), ACLNN_SUCCESS);
        fn = aclnnAdd;
        break;
      case Bin::kSub:
        ASSERT_EQ(aclnnSubGetWorkspaceSize(a.t, b.t, al, out.t, &ws, &ex), ACLNN_SUCCESS);
        fn = aclnnSub;
        break;
      case Bin::kMul:
        ASSERT_EQ(aclnnMulGetWorkspaceSize(a.t, b.t, out.t, &ws, &ex), ACLNN_SUCCESS);
        fn = aclnnMul;
        break;
      case Bin::kDiv:
        ASSERT_EQ(aclnnDivGetWorkspaceSize(a.t, b.t, out.t, &ws, &ex), ACLNN_SUCCESS);
        fn = aclnnDiv;
        break;
    }
    EXPECT_EQ(ws, 0u);  // same types: no conversion
    run(fn, ws, ex);
    aclDestroyScalar(al);
    const auto x = [&](std::int64_t i) { return a.at(source(os, as, i)); };
    const auto y = [&](std::int64_t i) { return b.at(source(os, bs, i)); };
    const auto ref = [&](std::int64_t i) {
      switch (op) {
        case Bin::kAdd:
          return x(i) + alpha * y(i);
        case Bin::kSub:
          return x(i) - alpha * y(i);
        case Bin::kMul:
          return x(i) * y(i);
        default:
          return x(i) / y(i);
      }
    };
    const auto scale = [&](std::int64_t i) {
      return op == Bin::kAdd || op == Bin::kSub ? std::fabs(x(i)) + std::fabs(alpha * y(i))
                                                : std::fabs(ref(i));
    };
    expect_near(out, ref, scale, rtol_arith(type), 0, "binary");
  }
};

TEST_F(EwBinaryTest, SameShapeAllTypes) {
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
    SCOPED_TRACE(nn::dtype_name(type));
    check(Bin::kAdd, {1}, {1}, {1}, type);
    check(Bin::kAdd, {31}, {31}, {31}, type, 2.0);  // not a multiple of a 32-byte block
    check(Bin::kSub, {4, 1000}, {4, 1000}, {4, 1000}, type, 3.0);
    check(Bin::kMul, {257, 3}, {257, 3}, {257, 3}, type);
    if (type != ACL_INT32) check(Bin::kDiv, {5, 7, 9}, {5, 7, 9}, {5, 7, 9}, type);
  }
}

TEST_F(EwBinaryTest, LargeTensorsCrossTilesOnEveryCore) {
  // fp16 binary: 12 bytes of UB per element -> 16K-element tiles; 1M elements over 48 cores
  // need two tiles each.
  check(Bin::kAdd, {1 << 20 | 3}, {1 << 20 | 3}, {1 << 20 | 3}, ACL_FLOAT16, 0.5);
  const auto& k = last_kernel();
  EXPECT_EQ(k.name, "Add");
  EXPECT_EQ(k.blocks_run, 48u);
  EXPECT_GE(k.instrs, 48u * 2 * 4);  // per tile: 2 copies in, Muls + Add, 1 copy out
  check(Bin::kDiv, {300001}, {300001}, {300001}, ACL_FLOAT);
}

TEST_F(EwBinaryTest, Broadcasting) {
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
    SCOPED_TRACE(nn::dtype_name(type));
    check(Bin::kAdd, {100, 37}, {37}, {100, 37}, type, 3.0);  // bias, rows grouped per unit
    check(Bin::kAdd, {37}, {100, 37}, {100, 37}, type, 2.0);  // bias as self
    check(Bin::kMul, {3, 5000}, {5000}, {3, 5000}, type);     // bias, rows chunked
    check(Bin::kSub, {64, 48}, {64, 1}, {64, 48}, type);      // column broadcast
    check(Bin::kMul, {1}, {4, 33}, {4, 33}, type);            // one element
    check(Bin::kAdd, {2, 1, 3}, {1, 4, 1}, {2, 4, 3}, type);  // both broadcast
    check(Bin::kSub, {2, 3, 4, 5}, {3, 1, 5}, {2, 3, 4, 5}, type, -1.0);
    check(Bin::kMul, {1, 1}, {1}, {1, 1}, type);
    if (type != ACL_INT32) check(Bin::kDiv, {200, 1}, {300}, {200, 300}, type);
  }
}

TEST_F(EwBinaryTest, BroadcastOperandsAreFetchedOnceNotPerElement) {
  // [100, 37] + [37] on 48 cores: units of 3 whole rows (UB pitch 64), 34 units, one per block.
  // Each block loads the bias once (1 copy in) and replicates it for its 3 rows (2 doubling UB
  // copies), then per unit: 1 copy in, Add, 1 copy out = 6 instructions.
  check(Bin::kAdd, {100, 37}, {37}, {100, 37}, ACL_FLOAT);
  const auto& k = last_kernel();
  EXPECT_EQ(k.blocks_run, 34u);
  EXPECT_EQ(k.instrs, 34u * 6);
  // A column ([96, 1] on [96, 64]): 48 units of 2 rows; per unit the two values come in with one
  // strided copy and each row is a UB scalar read + Duplicate: self in, 1 + 2 x 2, Mul, out = 8.
  check(Bin::kMul, {96, 64}, {96, 1}, {96, 64}, ACL_FLOAT);
  EXPECT_EQ(last_kernel().blocks_run, 48u);
  EXPECT_EQ(last_kernel().instrs, 48u * 8);
  // A one-element operand: one scalar read and one Duplicate per block.
  check(Bin::kMul, {1}, {48 * 512}, {48 * 512}, ACL_FLOAT);
  EXPECT_EQ(last_kernel().blocks_run, 48u);
  EXPECT_EQ(last_kernel().instrs, 48u * (2 + 3));
}

TEST_F(ElementwiseTest, ScalarVariants) {
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    SCOPED_TRACE(nn::dtype_name(type));
    const Shape s{3, 333};
    Buf a = tensor(s, type, [](std::int64_t i) { return value(i, -10, 10); });
    Buf o1 = tensor(s, type), o2 = tensor(s, type), o3 = tensor(s, type), o4 = tensor(s, type);
    aclScalar* other = scalar(1.25, ACL_FLOAT);
    aclScalar* alpha = scalar(-2.0, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnAddsGetWorkspaceSize(a.t, other, alpha, o1.t, &ws, &ex), ACLNN_SUCCESS);
    run(aclnnAdds, ws, ex);
    ASSERT_EQ(aclnnSubsGetWorkspaceSize(a.t, other, alpha, o2.t, &ws, &ex), ACLNN_SUCCESS);
    run(aclnnSubs, ws, ex);
    ASSERT_EQ(aclnnMulsGetWorkspaceSize(a.t, other, o3.t, &ws, &ex), ACLNN_SUCCESS);
    run(aclnnMuls, ws, ex);
    ASSERT_EQ(aclnnDivsGetWorkspaceSize(a.t, other, o4.t, &ws, &ex), ACLNN_SUCCESS);
    run(aclnnDivs, ws, ex);
    const double r = rtol_arith(type);
    const auto mag = [&](std::int64_t i) { return std::fabs(a.at(i)) + 2.5; };
    expect_near(
        o1, [&](std::int64_t i) { return a.at(i) - 2.5; }, mag, r, 0, "Adds");
    expect_near(
        o2, [&](std::int64_t i) { return a.at(i) + 2.5; }, mag, r, 0, "Subs");
    expect_near(
        o3, [&](std::int64_t i) { return a.at(i) * 1.25; },
        [&](std::int64_t i) { return std::fabs(a.at(i)) * 1.25; }, r, 0, "Muls");
    expect_near(
        o4, [&](std::int64_t i) { return a.at(i) / 1.25; },
        [&](std::int64_t i) { return std::fabs(a.at(i)) / 1.25; }, r, 0, "Divs");
    aclDestroyScalar(other);
    aclDestroyScalar(alpha);
  }
}

TEST_F(ElementwiseTest, IntegerTensorWithFloatScalarComputesInFloat) {
  Buf a = tensor({40}, ACL_INT32, [](std::int64_t i) { return static_cast<double>(i - 20); });
  Buf out = tensor({40}, ACL_FLOAT);
  Buf bad = tensor({40}, ACL_INT32);
  aclScalar* other = scalar(0.5, ACL_FLOAT);
  aclScalar* alpha = scalar(1.0, ACL_INT32);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnAddsGetWorkspaceSize(a.t, other, alpha, bad.t, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // a FLOAT result cannot go to INT32
  ASSERT_EQ(aclnnAddsGetWorkspaceSize(a.t, other, alpha, out.t, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_GT(ws, 0u);  // self converted to FLOAT first
  run(aclnnAdds, ws, ex);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(out.at(i), i - 20 + 0.5);
  aclDestroyScalar(other);
  aclDestroyScalar(alpha);
}

TEST_F(ElementwiseTest, TypePromotionConvertsThroughTheWorkspace) {
  // FLOAT16 + FLOAT -> FLOAT; INT32 / INT32 -> FLOAT (true division); INT8 * INT32 -> INT32 out
  // INT8 (saturating).
  Buf h = tensor({5, 20}, ACL_FLOAT16, [](std::int64_t i) { return value(i, -4, 4); });
  Buf f = tensor({20}, ACL_FLOAT, [](std::int64_t i) { return value(i, -4, 4, 7); });
  Buf sum = tensor({5, 20}, ACL_FLOAT);
  aclScalar* one = scalar(1.0, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(h.t, f.t, one, sum.t, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_GT(ws, 0u);
  run(aclnnAdd, ws, ex);
  expect_near(
      sum, [&](std::int64_t i) { return h.at(i) + f.at(i % 20); },
      [&](std::int64_t i) { return std::fabs(h.at(i)) + std::fabs(f.at(i % 20)); }, 1e-6, 0,
      "f16+f32");

  Buf p = tensor({7}, ACL_INT32, [](std::int64_t i) { return static_cast<double>(i * 3 - 9); });
  Buf q = tensor({7}, ACL_INT32, [](std::int64_t i) { return static_cast<double>(i + 2); });
  Buf quo = tensor({7}, ACL_FLOAT);
  ASSERT_EQ(aclnnDivGetWorkspaceSize(p.t, q.t, quo.t, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnDiv, ws, ex);
  for (int i = 0; i < 7; ++i) EXPECT_FLOAT_EQ(quo.at(i), (i * 3.0 - 9) / (i + 2));

  Buf c = tensor({6}, ACL_INT8, [](std::int64_t i) { return static_cast<double>(i * 20 - 50); });
  Buf d = tensor({6}, ACL_INT32, [](std::int64_t) { return 3.0; });
  Buf prod = tensor({6}, ACL_INT8);
  ASSERT_EQ(aclnnMulGetWorkspaceSize(c.t, d.t, prod.t, &ws, &ex), ACLNN_SUCCESS);
  run(aclnnMul, ws, ex);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(prod.at(i), std::fmax(-128.0, std::fmin(127.0, (i * 20.0 - 50) * 3))) << i;
  }
  aclDestroyScalar(one);
}

TEST_F(ElementwiseTest, CastBetweenEveryPair) {
  const std::vector<double> vals{0.0,     1.0,    -1.0,    2.5,      -2.5, 3.7,  -3.7,  100.25,
                                 -200.75, 1000.0, 60000.0, -50000.0, 0.1,  1e-3, 127.9, -128.9};
  const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_INT32, ACL_INT8,
                               ACL_UINT8, ACL_INT16,   ACL_INT64, ACL_BOOL};
  for (aclDataType from : types) {
    for (aclDataType to : types) {
      SCOPED_TRACE(nn::dtype_name(from) + " -> " + nn::dtype_name(to));
      const Shape s{static_cast<std::int64_t>(vals.size()) * 3};
      Buf a = tensor(s, from, [&](std::int64_t i) { return vals[i % vals.size()]; });
      Buf out = tensor(s, to);
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      ASSERT_EQ(aclnnCastGetWorkspaceSize(a.t, to, out.t, &ws, &ex), ACLNN_SUCCESS);
      EXPECT_EQ(ws, 0u);
      run(aclnnCast, ws, ex);
      for (std::int64_t i = 0; i < count(s); ++i) {
        double x = a.at(i);
        if (to != ACL_FLOAT && to != ACL_FLOAT16 && to != ACL_BF16 && to != ACL_BOOL) {
          x = std::trunc(x);
        }
        unsigned char tmp[8] = {};
        nn::store(to, tmp, 0, x);  // the host's rounding / saturation
        EXPECT_EQ(out.at(i), static_cast<double>(nn::load(to, tmp, 0))) << "element " << i;
      }
    }
  }
}

}  // namespace
}  // namespace npusim::rt::testing::ew_test
