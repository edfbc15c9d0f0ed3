// SPDX-License-Identifier: Apache-2.0
// The element-wise operator family: aclnnAdd/Adds, aclnnSub/Subs, aclnnMul/Muls, aclnnDiv/Divs,
// aclnnCast, aclnnRelu, aclnnGelu, aclnnGeluV2, aclnnSilu, aclnnSigmoid, aclnnTanh, aclnnExp,
// and the Inplace forms of Add/Adds/Sub/Subs/Mul/Muls/Div/Divs/Relu/Sigmoid/Tanh/Exp. Host side:
// argument checks, type promotion, broadcasting analysis and tiling; the work is the Ascend C
// kernel of elementwise_kernels.cpp on the vector cores.
//
// Types. Arithmetic computes in the promoted type of its operands (CANN's rules, restricted to
// FLOAT, FLOAT16, BF16, INT32 and INT8: float beats integer; FLOAT16 with BF16 gives FLOAT; the
// wider of two integers or two floats); INT8 and BF16 storage are computed as INT32 / FLOAT. An
// operand of another type is first converted by a Cast launch into the workspace, and a result
// whose out type differs is converted by a final Cast launch, as CANN's op graphs do. Div always
// computes in a float type (true division). A float result cannot go to an integer out
// (ACLNN_ERR_PARAM_INVALID). Scalars (alpha, the other of aclnnAdds...) take the compute type;
// an integer tensor with a float scalar other computes in FLOAT; a float alpha with an integer
// result is ACLNN_ERR_PARAM_INVALID (not castable). Activations take FLOAT, FLOAT16 and
// BF16 with out of the same type and shape; FLOAT16 and BF16 compute in FLOAT inside the kernel.
// Cast converts between FLOAT, FLOAT16, BF16, INT32, INT8, UINT8, INT16, INT64 and BOOL (floats to
// integers truncate toward zero; integers saturate; NaN becomes 0; to floats round to nearest
// even; to BOOL: x != 0).
//
// Shapes. Binary ops broadcast with NumPy's rules (dimensions aligned right, size 1 stretches);
// out must have the broadcast shape. Unary ops and Cast need out of self's shape. Tensors of at
// most 8 dimensions. Views may be non-contiguous (any strides, a storage offset, stride 0 for an
// expanded input) as long as the innermost merged dimension is contiguous; out must not overlap
// itself (ACLNN_ERR_PARAM_INVALID otherwise).
//
// Accuracy against exact arithmetic (what tests/runtime/aclnn/aclnn_elementwise_test.cpp checks):
// + - * / correctly rounded in the compute type (so within 1 ulp of the result type after the
// final conversion); activations within 1e-5 relative + 1e-6 absolute in FLOAT (exp-based forms;
// tanh near 0 loses relative accuracy, its absolute error is ~1e-7), 2e-3 relative + 1e-3
// absolute in FLOAT16, 1e-2 + 1e-2 in BF16 (the final rounding dominates).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
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
#include "runtime/aclnn/elementwise_plan.h"
#include "runtime/aclnn/op_api.h"

namespace npusim::aclnn::ew {
namespace {

// CANN's promotion between two tensor types of this family (-1: none).
int promote(int a, int b) {
  if (a == b) return a;
  if (is_float(a) && is_float(b)) {
    if (a == ACL_FLOAT || b == ACL_FLOAT) return ACL_FLOAT;
    return ACL_FLOAT;  // FLOAT16 with BF16
  }
  if (is_float(a) && is_int(b)) return a;
  if (is_int(a) && is_float(b)) return b;
  if (is_int(a) && is_int(b)) return ACL_INT32;
  return -1;
}

// The type the kernels compute a stored type in (-1: not an arithmetic type here).
int kernel_type(int t) {
  if (t == ACL_INT8) return ACL_INT32;
  return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_INT32 ? t : -1;
}

// The kernel name a binary op launches under (indexed by EwOp: kAdd, kSub, kMul, kDiv).
const char* op_name(EwOp op) {
  static const char* const kNames[] = {"Add", "Sub", "Mul", "RealDiv"};
  const auto i = static_cast<std::size_t>(op);
  return i < std::size(kNames) ? kNames[i] : "RealDiv";
}

// A binary op's arguments once read: other is a tensor, or (other == nullptr) a host scalar.
struct Binary {
  const aclTensor* self = nullptr;
  const aclTensor* other = nullptr;
  const aclTensor* out = nullptr;
  long double other_value = 0;
  int other_scalar_type = -1;
  long double alpha = 1;
  int alpha_type = -1;
};

// Reads the arguments in the order their NULL checks are reported.
Binary read_binary(Plan& p, EwOp op, const aclTensor* self_t, const aclTensor* other_t,
                   const aclScalar* other_s, const aclScalar* alpha_s, const aclTensor* out_t) {
  Binary b;
  b.self = &p.input(self_t, "self");
  b.other = other_t != nullptr ? &p.input(other_t, "other") : nullptr;
  if (b.other == nullptr) {
    b.other_value = p.scalar(other_s, "other");
    b.other_scalar_type = p.scalar_type(other_s, "other");
  }
  if (op == EwOp::kAdd || op == EwOp::kSub) {
    b.alpha = p.scalar(alpha_s, "alpha");
    b.alpha_type = p.scalar_type(alpha_s, "alpha");
  }
  b.out = &p.output(out_t, "out");
  return b;
}

void check_binary_tensors(const Plan& p, const Binary& b) {
  check_tensor(p, *b.self, "self");
  if (b.other != nullptr) check_tensor(p, *b.other, "other");
  check_tensor(p, *b.out, "out");
  const auto takes = [&p](const aclTensor& t, const char* what) {
    p.require(is_float(t.dtype) || is_int(t.dtype),
              std::string(what) + " has data type " + dtype_name(t.dtype) +
                  "; this operator takes FLOAT, FLOAT16, BF16, INT32, INT8");
  };
  takes(*b.self, "self");
  if (b.other != nullptr) takes(*b.other, "other");
  takes(*b.out, "out");
}

// The result type (promotion, float scalars, true division), then the type the kernel computes
// in; checks that the result can go to out and that integer arithmetic gets integer scalars.
int compute_type(const Plan& p, EwOp op, const Binary& b) {
  int result = b.other != nullptr ? promote(b.self->dtype, b.other->dtype) : b.self->dtype;
  const auto float_scalar = [](int t) {
    return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE;
  };
  if (is_int(result) && float_scalar(b.other_scalar_type)) result = ACL_FLOAT;
  p.require(!(is_int(result) && float_scalar(b.alpha_type)),
            "alpha is a floating-point scalar, which the integer result type " +
                dtype_name(result) + " cannot take");
  if (op == EwOp::kDiv && is_int(result)) result = ACL_FLOAT;
  p.require(!(is_float(result) && is_int(b.out->dtype)),
            "out has data type " + dtype_name(b.out->dtype) + ", which the " + dtype_name(result) +
                " result cannot be cast to");
  const int compute = kernel_type(result);
  if (is_int(compute)) {
    const auto int32_value = [](long double v) {
      return v == std::floor(v) && v >= -2147483648.0L && v <= 2147483647.0L;
    };
    p.require(int32_value(b.alpha), "alpha must be an INT32 value for an integer result");
    p.require(b.other != nullptr || int32_value(b.other_value),
              "other must be an INT32 value for an integer result");
  }
  return compute;
}

// Shapes: out is the broadcast of self and other.
std::vector<std::int64_t> broadcast_shape(const Plan& p, const Binary& b) {
  std::vector<std::int64_t> shape = b.self->dims;
  if (b.other == nullptr) return shape;
  const std::vector<std::int64_t>& o = b.other->dims;
  if (o.size() > shape.size()) shape.insert(shape.begin(), o.size() - shape.size(), 1);
  for (std::size_t k = 0; k < o.size(); ++k) {
    std::int64_t& s = shape[shape.size() - o.size() + k];
    p.require(s == o[k] || s == 1 || o[k] == 1,
              "self and other do not broadcast (NumPy rules: aligned right, 1 stretches)");
    if (s == 1) s = o[k];
  }
  return shape;
}

// Operand `t` (at `src`) in the compute type: itself, or converted into the workspace first
// (contiguous there). `l` is how the kernel sees it.
Ref in_compute_type(Plan& p, Workspace& ws, const aclTensor& t, int compute, Ref src, Layout& l) {
  l = layout_of(t);
  if (t.dtype == compute) return src;
  const Ref w = ws.take(t.numel(), compute);
  launch_cast(p, layout_of(t), t.dtype, contiguous(t.dims), compute, src, w);
  l = contiguous(t.dims);
  return w;
}

// The launches: operand conversions, the arithmetic kernel, the conversion of its result.
void launch_binary(Plan& p, EwOp op, const Binary& b, int compute) {
  Workspace ws;
  std::vector<Layout> ins(2);
  const Ref x = in_compute_type(p, ws, *b.self, compute, Ref{Ref::kIn0}, ins[0]);
  Ref y{Ref::kNone};
  if (b.other != nullptr) {
    y = in_compute_type(p, ws, *b.other, compute, Ref{Ref::kIn1}, ins[1]);
  } else {
    ins[1] = immediate();
  }
  const aclTensor& out = *b.out;
  const bool convert_out = out.dtype != compute;
  const Ref z = convert_out ? ws.take(out.numel(), compute) : Ref{Ref::kOut};
  const Layout out_l = convert_out ? contiguous(out.dims) : layout_of(out);
  const int kc = compute == ACL_BF16 ? ACL_FLOAT : compute;  // bfloat16 computes in float
  EwTiling t = plan_tiling(p, op, out_l, ins, compute, kc, compute);
  t.alpha = static_cast<double>(b.alpha);
  t.scale_other = (op == EwOp::kAdd || op == EwOp::kSub) && b.alpha != 1;
  t.immediate = static_cast<double>(b.other_value);
  launch(p, op_name(op), compute, kc, compute, t, x, y, z);
  if (convert_out) launch_cast(p, out_l, compute, layout_of(out), out.dtype, z, Ref{Ref::kOut});
  p.set_workspace(ws.used);
}

// Binary arithmetic: self (tensor) with other (tensor, or a host scalar when other_t is NULL),
// out = self op alpha*other. Validate, infer the result type and shape, then tile and launch.
void plan_binary(Plan& p, EwOp op, const aclTensor* self_t, const aclTensor* other_t,
                 const aclScalar* other_s, const aclScalar* alpha_s, const aclTensor* out_t) {
  const Binary b = read_binary(p, op, self_t, other_t, other_s, alpha_s, out_t);
  check_binary_tensors(p, b);
  const int compute = compute_type(p, op, b);
  p.require_shape(*b.out, broadcast_shape(p, b), "out");
  launch_binary(p, op, b, compute);
}

// The tensor and scalar forms of the entry points (other a tensor, or a host scalar).
void plan_binary(Plan& p, EwOp op, const aclTensor* self, const aclTensor* other,
                 const aclScalar* alpha, const aclTensor* out) {
  plan_binary(p, op, self, other, nullptr, alpha, out);
}
void plan_binary(Plan& p, EwOp op, const aclTensor* self, const aclScalar* other,
                 const aclScalar* alpha, const aclTensor* out) {
  plan_binary(p, op, self, nullptr, other, alpha, out);
}

// Activations: out = f(self), same type and shape.
void plan_unary(Plan& p, EwOp op, const aclTensor* self_t, const aclTensor* out_t) {
  const aclTensor& self = p.input(self_t, "self");
  const aclTensor& out = p.output(out_t, "out");
  check_tensor(p, self, "self");
  check_tensor(p, out, "out");
  p.require_dtype(self, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "self");
  p.require(out.dtype == self.dtype, "out has data type " + dtype_name(out.dtype) + ", self " +
                                         dtype_name(self.dtype) + " (must match)");
  p.require_shape(out, self.dims, "out");
  const EwTiling t =
      plan_tiling(p, op, layout_of(out), {layout_of(self)}, self.dtype, ACL_FLOAT, self.dtype);
  static const char* const kNames[] = {"",     "",        "",     "",    "Relu",  "Gelu",
                                       "Silu", "Sigmoid", "Tanh", "Exp", "GeluV2"};
  launch(p, kNames[static_cast<int>(op)], self.dtype, ACL_FLOAT, self.dtype, t, Ref{Ref::kIn0},
         Ref{}, Ref{Ref::kOut});
}

// aclnnCast: out = self converted to dtype (out's type), same shape.
void plan_cast(Plan& p, const aclTensor* self, aclDataType dtype, const aclTensor* out) {
  const aclTensor& x = p.input(self, "self");
  const aclTensor& y = p.output(out, "out");
  check_tensor(p, x, "self");
  check_tensor(p, y, "out");
  const std::initializer_list<int> types{ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_INT32, ACL_INT8,
                                         ACL_UINT8, ACL_INT16,   ACL_INT64, ACL_BOOL};
  p.require_dtype(x, types, "self");
  p.require_dtype(y, types, "out");
  p.require(y.dtype == static_cast<int>(dtype),
            "out has data type " + dtype_name(y.dtype) + ", dtype asks for " + dtype_name(dtype));
  p.require_shape(y, x.dims, "out");
  launch_cast(p, layout_of(x), x.dtype, layout_of(y), y.dtype, Ref{Ref::kIn0}, Ref{Ref::kOut});
}

}  // namespace
}  // namespace npusim::aclnn::ew

namespace nn = npusim::aclnn;
namespace ew = npusim::aclnn::ew;
using nn::EwOp;

namespace {

// Every binary entry point (Add / Sub / Mul / Div, their scalar and in-place forms): out = self
// op (alpha *) other. `NAME` is the entry point's name without "GetWorkspaceSize".
template <class Other>
aclnnStatus prepare_binary(const char* api, const char* op_name, EwOp op, const aclTensor* self,
                           const Other* other, const aclScalar* alpha, const aclTensor* out,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(api, op_name, workspaceSize, executor,
                     [&](nn::Plan& p) { ew::plan_binary(p, op, self, other, alpha, out); });
}
#define NPUSIM_EW_BINARY(NAME, OP, SELF, OTHER, ALPHA, OUT)                               \
  prepare_binary(#NAME "GetWorkspaceSize", #NAME + 5, EwOp::OP, SELF, OTHER, ALPHA, OUT, \
                 workspaceSize, executor)

// Every unary entry point (Relu, ..., and the in-place forms): out = op(self).
aclnnStatus prepare_unary(const char* api, const char* op_name, EwOp op, const aclTensor* self,
                          const aclTensor* out, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
  return nn::prepare(api, op_name, workspaceSize, executor,
                     [&](nn::Plan& p) { ew::plan_unary(p, op, self, out); });
}
#define NPUSIM_EW_UNARY_CALL(NAME, OP, SELF, OUT) \
  prepare_unary(#NAME "GetWorkspaceSize", #NAME + 5, EwOp::OP, SELF, OUT, workspaceSize, executor)

}  // namespace

// The binary entry points, each op with a tensor and a scalar other: X(NAME, OP, OTHER) for
// PREFIX (aclnn or aclnnInplace) Add, Adds, Sub, Subs (with alpha) and Mul, Muls, Div, Divs.
#define NPUSIM_EW_ALPHA_OPS(X, PREFIX)                                                     \
  X(PREFIX##Add, kAdd, aclTensor) X(PREFIX##Adds, kAdd, aclScalar) X(PREFIX##Sub, kSub, aclTensor) \
  X(PREFIX##Subs, kSub, aclScalar)
#define NPUSIM_EW_PLAIN_OPS(X, PREFIX)                                                     \
  X(PREFIX##Mul, kMul, aclTensor) X(PREFIX##Muls, kMul, aclScalar) X(PREFIX##Div, kDiv, aclTensor) \
  X(PREFIX##Divs, kDiv, aclScalar)

// Add / Sub and their scalar forms (OTHER: aclTensor or aclScalar): out = self op alpha*other.
#define NPUSIM_EW_ALPHA(NAME, OP, OTHER)                                                  \
  aclnnStatus NAME##GetWorkspaceSize(const aclTensor* self, const OTHER* other,           \
                                     const aclScalar* alpha, aclTensor* out,              \
                                     uint64_t* workspaceSize, aclOpExecutor** executor) { \
    return NPUSIM_EW_BINARY(NAME, OP, self, other, alpha, out);                           \
  }
NPUSIM_EW_ALPHA_OPS(NPUSIM_EW_ALPHA, aclnn)
#undef NPUSIM_EW_ALPHA

// Mul / Div and their scalar forms: out = self op other.
#define NPUSIM_EW_PLAIN(NAME, OP, OTHER)                                                        \
  aclnnStatus NAME##GetWorkspaceSize(const aclTensor* self, const OTHER* other, aclTensor* out, \
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {       \
    return NPUSIM_EW_BINARY(NAME, OP, self, other, nullptr, out);                               \
  }
NPUSIM_EW_PLAIN_OPS(NPUSIM_EW_PLAIN, aclnn)
#undef NPUSIM_EW_PLAIN

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return nn::prepare("aclnnCastGetWorkspaceSize", "Cast", workspaceSize, executor,
                     [&](nn::Plan& p) { ew::plan_cast(p, self, dtype, out); });
}

#define NPUSIM_EW_UNARY(NAME, OP)                                                         \
  aclnnStatus NAME##GetWorkspaceSize(const aclTensor* self, aclTensor* out,               \
                                     uint64_t* workspaceSize, aclOpExecutor** executor) { \
    return NPUSIM_EW_UNARY_CALL(NAME, OP, self, out);                                     \
  }
NPUSIM_EW_UNARY(aclnnRelu, kRelu)
NPUSIM_EW_UNARY(aclnnGelu, kGelu)
NPUSIM_EW_UNARY(aclnnSilu, kSilu)
NPUSIM_EW_UNARY(aclnnSigmoid, kSigmoid)
NPUSIM_EW_UNARY(aclnnTanh, kTanh)
NPUSIM_EW_UNARY(aclnnExp, kExp)
#undef NPUSIM_EW_UNARY

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnGeluV2GetWorkspaceSize", "GeluV2", workspaceSize, executor, [&](nn::Plan& p) {
        p.require(
            approximate == 0 || approximate == 1,
            "approximate must be 0 (none: erf) or 1 (tanh), got " + std::to_string(approximate));
        ew::plan_unary(p, approximate == 0 ? EwOp::kGeluErf : EwOp::kGelu, x, y);
      });
}

// In-place forms: selfRef is both the first input and the output (const for Add / Sub, as the
// headers declare it).
#define NPUSIM_EW_INPLACE_ALPHA(NAME, OP, OTHER)                                      \
  aclnnStatus NAME##GetWorkspaceSize(const aclTensor* selfRef, const OTHER* other,    \
                                     const aclScalar* alpha, uint64_t* workspaceSize, \
                                     aclOpExecutor** executor) {                      \
    return NPUSIM_EW_BINARY(NAME, OP, selfRef, other, alpha, selfRef);                \
  }
NPUSIM_EW_ALPHA_OPS(NPUSIM_EW_INPLACE_ALPHA, aclnnInplace)
#undef NPUSIM_EW_INPLACE_ALPHA

#define NPUSIM_EW_INPLACE_PLAIN(NAME, OP, OTHER)                                          \
  aclnnStatus NAME##GetWorkspaceSize(aclTensor* selfRef, const OTHER* other,              \
                                     uint64_t* workspaceSize, aclOpExecutor** executor) { \
    return NPUSIM_EW_BINARY(NAME, OP, selfRef, other, nullptr, selfRef);                  \
  }
NPUSIM_EW_PLAIN_OPS(NPUSIM_EW_INPLACE_PLAIN, aclnnInplace)
#undef NPUSIM_EW_INPLACE_PLAIN

#define NPUSIM_EW_INPLACE_UNARY(NAME, OP)                                                \
  aclnnStatus NAME##GetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,        \
                                     aclOpExecutor** executor) {                         \
    return NPUSIM_EW_UNARY_CALL(NAME, OP, selfRef, selfRef);                             \
  }
NPUSIM_EW_INPLACE_UNARY(aclnnInplaceRelu, kRelu)
NPUSIM_EW_INPLACE_UNARY(aclnnInplaceSigmoid, kSigmoid)
NPUSIM_EW_INPLACE_UNARY(aclnnInplaceTanh, kTanh)
NPUSIM_EW_INPLACE_UNARY(aclnnInplaceExp, kExp)
#undef NPUSIM_EW_INPLACE_UNARY
#undef NPUSIM_EW_UNARY_CALL
#undef NPUSIM_EW_BINARY
#undef NPUSIM_EW_ALPHA_OPS
#undef NPUSIM_EW_PLAIN_OPS
