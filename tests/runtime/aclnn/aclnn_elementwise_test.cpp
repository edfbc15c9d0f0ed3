// SPDX-License-Identifier: Apache-2.0
// The element-wise operators (runtime/aclnn/elementwise.cpp) on FakeBackend: results against a
// double-precision host reference, broadcasting, type promotion, Cast, activations, the kernels'
// tiling across the vector cores, and the documented error codes.
//
// Tolerances (|got - ref| <= rtol * scale + atol, scale = |ref| or, for + and -, the operands'
// magnitudes): arithmetic FLOAT 1e-6, FLOAT16 1e-3, BF16 1e-2 (one rounding in the compute type
// plus the final one); activations FLOAT 1e-5 with atol 1e-6, FLOAT16 2e-3 with atol 1e-3 (the
// float result rounded to half), BF16 1e-2 with atol 1e-2. Cast is exact (same conversion rules
// as the host's).
#include <cmath>
#include <cstdint>
#include <functional>
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
#include "runtime/aclnn/meta.h"
#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing {
namespace {

namespace nn = npusim::aclnn;
using Shape = std::vector<std::int64_t>;

std::int64_t count(const Shape& s) {
  std::int64_t n = 1;
  for (std::int64_t d : s) n *= d;
  return n;
}

// Element of `in` (broadcast, aligned right) that output element `flat` of `out` reads.
std::int64_t source(const Shape& out, const Shape& in, std::int64_t flat) {
  std::int64_t off = 0, stride = 1;
  const std::size_t shift = out.size() - in.size();
  for (std::size_t k = out.size(); k-- > 0;) {
    const std::int64_t idx = flat % out[k];
    flat /= out[k];
    if (k >= shift) {
      const std::int64_t d = in[k - shift];
      if (d != 1) off += idx * stride;
      stride *= d;
    }
  }
  return off;
}

// Deterministic test values in [lo, hi].
double value(std::int64_t i, double lo, double hi, std::uint32_t seed = 1) {
  const std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u + seed * 40503u;
  return lo + (hi - lo) * static_cast<double>(h % 100003u) / 100002.0;
}

double rtol_arith(aclDataType t) {
  return t == ACL_FLOAT ? 1e-6 : t == ACL_FLOAT16 ? 1e-3 : t == ACL_BF16 ? 1e-2 : 0;
}

struct Buf {
  void* dev = nullptr;
  aclTensor* t = nullptr;
  Shape shape;
  aclDataType type = ACL_FLOAT;
  double at(std::int64_t i) const { return static_cast<double>(nn::load(type, dev, i)); }
};

class ElementwiseTest : public DeviceTest {
 protected:
  void TearDown() override {
    for (Buf& b : bufs_) {
      EXPECT_EQ(aclDestroyTensor(b.t), ACLNN_SUCCESS);
      aclrtFree(b.dev);
    }
    bufs_.clear();
    DeviceTest::TearDown();
  }

  // A contiguous device tensor holding f(i) converted to `type`.
  Buf tensor(Shape shape, aclDataType type, const std::function<double(std::int64_t)>& f = {}) {
    Buf b;
    b.shape = shape;
    b.type = type;
    const std::int64_t n = count(shape);
    const std::size_t bytes =
        static_cast<std::size_t>(std::max<std::int64_t>(n, 1)) * nn::element_size(type);
    EXPECT_EQ(aclrtMalloc(&b.dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (std::int64_t i = 0; i < n; ++i) {
      nn::store(type, b.dev, i, f ? static_cast<long double>(f(i)) : 0.0L);
    }
    b.t = aclCreateTensor(shape.data(), shape.size(), type, nullptr, 0, ACL_FORMAT_ND, shape.data(),
                          shape.size(), b.dev);
    EXPECT_NE(b.t, nullptr);
    bufs_.push_back(b);
    return b;
  }

  // Runs an executor (workspace allocated as asked) to completion.
  void run(Phase2 fn, uint64_t ws, aclOpExecutor* ex) { run_phase2(fn, ws, ex, stream_); }

  // Every output element against ref(i) within rtol * scale(i) + atol.
  static void expect_near(const Buf& out, const std::function<double(std::int64_t)>& ref,
                          const std::function<double(std::int64_t)>& scale, double rtol,
                          double atol, const char* what) {
    int bad = 0;
    for (std::int64_t i = 0; i < count(out.shape) && bad < 5; ++i) {
      const double want = ref(i);
      const double got = out.at(i);
      const double tol = rtol * scale(i) + atol;
      if (!(std::fabs(got - want) <= tol)) {
        ++bad;
        ADD_FAILURE() << what << ": element " << i << " is " << got << ", expected " << want
                      << " (tolerance " << tol << ")";
      }
    }
  }

  // Kernel tasks run so far: blocks run and instructions recorded by the last one.
  const FakeBackend::TaskTrace& last_kernel() { return last_task(TaskKind::kKernel); }

  std::vector<Buf> bufs_;
};

aclScalar* scalar(double v, aclDataType type) {
  if (type == ACL_INT32) {
    auto i = static_cast<std::int32_t>(v);
    return aclCreateScalar(&i, type);
  }
  auto f = static_cast<float>(v);
  return aclCreateScalar(&f, ACL_FLOAT);
}

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
}  // namespace npusim::rt::testing
