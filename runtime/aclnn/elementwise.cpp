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
#include <algorithm>
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
#include "runtime/aclnn/elementwise_kernels.h"
#include "runtime/aclnn/op_api.h"

namespace npusim::aclnn {
namespace {

constexpr std::int64_t kAlign = 32;         // elements: UB rows start 32-byte aligned for any type
constexpr std::int64_t kMinChunk = 512;     // elements a block gets at least (small tensors)
constexpr std::uint64_t kUbReserve = 1024;  // UB bytes left unused

bool is_float(int t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16; }
bool is_int(int t) { return t == ACL_INT32 || t == ACL_INT8; }

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t round_up(std::int64_t a, std::int64_t b) { return ceil_div(a, b) * b; }

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

// Where a kernel argument lives: an operator tensor or a workspace region.
struct Ref {
  enum Where : std::uint8_t { kNone, kIn0, kIn1, kOut, kWs } where = kNone;
  std::uint64_t offset = 0;
};

std::uint8_t* resolve(const Addrs& a, Ref r) {
  switch (r.where) {
    case Ref::kIn0:
      return a.in[0];
    case Ref::kIn1:
      return a.in[1];
    case Ref::kOut:
      return a.out[0];
    case Ref::kWs:
      return a.workspace + r.offset;
    default:
      return nullptr;
  }
}

/// A tensor as the tiling sees it: view shape and element strides (a host scalar: immediate).
struct Layout {
  std::vector<std::int64_t> dims, strides;
  bool immediate = false;
};

Layout layout_of(const aclTensor& t) { return Layout{t.dims, t.strides, false}; }

Layout contiguous(const std::vector<std::int64_t>& dims) {
  Layout l{dims, std::vector<std::int64_t>(dims.size(), 1), false};
  for (std::size_t k = dims.size(); k-- > 1;) l.strides[k - 1] = l.strides[k] * dims[k];
  return l;
}

Layout immediate() { return Layout{{}, {}, true}; }

// The tiling of one kernel launch writing `out` from `ins` (see elementwise_kernels.h).
EwTiling plan_tiling(const Plan& p, EwOp op, const Layout& out, const std::vector<Layout>& ins,
                     int in_type, int c_type, int out_type) {
  EwTiling t;
  t.op = op;
  t.inputs = static_cast<std::int32_t>(ins.size());
  // Per output dimension (size-1 ones dropped): every tensor's element stride there (0 where an
  // input broadcasts); neighbours merge where every tensor steps through them as one.
  const std::size_t nt = ins.size() + 1;  // inputs, then out
  std::vector<std::int64_t> dims;
  std::vector<std::vector<std::int64_t>> strides;  // [dim][tensor]
  for (std::size_t d = 0; d < out.dims.size(); ++d) {
    if (out.dims[d] == 1) continue;
    std::vector<std::int64_t> st(nt, 0);
    for (std::size_t i = 0; i < ins.size(); ++i) {
      if (ins[i].immediate) continue;
      const std::size_t shift = out.dims.size() - ins[i].dims.size();
      if (d >= shift && ins[i].dims[d - shift] == out.dims[d]) st[i] = ins[i].strides[d - shift];
    }
    st[ins.size()] = out.strides[d];
    bool merge = !dims.empty();
    for (std::size_t i = 0; merge && i < nt; ++i) {
      merge = strides.back()[i] == st[i] * out.dims[d];
    }
    if (merge) {
      dims.back() *= out.dims[d];
      strides.back() = st;
    } else {
      dims.push_back(out.dims[d]);
      strides.push_back(st);
    }
  }
  std::int64_t total = 1;
  for (std::int64_t d : out.dims) total *= d;
  if (dims.empty()) {  // one element (or none)
    dims.push_back(total);
    strides.emplace_back(nt, 1);
  }
  // Rows are copied as bursts: the innermost dimension must be contiguous (or broadcast).
  for (std::size_t i = 0; i < nt && total > 1; ++i) {
    const std::int64_t last = strides.back()[i];
    const bool is_out = i == ins.size();
    p.require(last == 1 || (last == 0 && !is_out),
              std::string(is_out   ? "out"
                          : i == 0 ? "self"
                                   : "other") +
                  ": views whose innermost dimension is not contiguous are not supported");
  }
  for (std::size_t d = 0; d < dims.size(); ++d) {
    p.require(strides[d][ins.size()] != 0 || total <= 1, "out must not overlap itself");
  }
  t.ndim = static_cast<std::int32_t>(dims.size());
  for (std::size_t d = 0; d < dims.size(); ++d) t.dims[d] = dims[d];
  t.cols = dims.back();
  t.rows = total / std::max<std::int64_t>(t.cols, 1);
  t.pitch = t.chunk = kAlign;
  t.units_per_block = 1;

  // UB per element of a tile: queues double-buffered, conversion and scratch buffers once.
  const auto e_in = static_cast<std::uint64_t>(element_size(in_type));
  const auto e_c = static_cast<std::uint64_t>(element_size(c_type));
  const auto e_out = static_cast<std::uint64_t>(element_size(out_type));
  std::uint64_t per_elem = 2 * e_out;
  if (op != EwOp::kCast && c_type != out_type) per_elem += e_c;
  if (op == EwOp::kGelu || op == EwOp::kTanh || op == EwOp::kSigmoid) per_elem += e_c;
  if (op == EwOp::kGeluErf) per_elem += 3 * e_c;
  for (const Layout& in : ins) {
    // (+1: a column-broadcast input's values, 32 bytes per row of a unit, at most a tile's bytes)
    per_elem += in.immediate ? e_c : 2 * e_in + (in_type != c_type ? e_c : 0) + 1;
  }
  const std::uint64_t ub = p.ub_bytes() > kUbReserve ? p.ub_bytes() - kUbReserve : 0;
  t.tile = static_cast<std::uint32_t>(ub / per_elem / kAlign * kAlign);
  p.require(t.tile >= kAlign, "the vector core's UB is too small for this operator");
  if (total == 0) return t;  // nothing to do: one block that finds no unit

  // Units: groups of whole rows when there are rows enough for every core, else row chunks.
  const auto cores = static_cast<std::int64_t>(std::max<std::uint32_t>(p.vector_cores(), 1));
  const std::int64_t pitch = round_up(std::max<std::int64_t>(t.cols, 1), kAlign);
  t.pitch = pitch;
  if (t.rows >= cores && pitch <= t.tile) {
    t.rows_per_unit = std::min<std::int64_t>(t.tile / pitch, ceil_div(t.rows, cores));
    t.chunk = t.cols;
    t.chunks = 1;
    t.units = ceil_div(t.rows, t.rows_per_unit);
  } else {
    std::int64_t chunks = std::max(ceil_div(t.cols, t.tile), ceil_div(cores, t.rows));
    if (t.rows == 1) chunks = round_up(chunks, cores);
    std::int64_t chunk = round_up(ceil_div(t.cols, chunks), kAlign);
    chunk = std::max(chunk, std::min(kMinChunk, round_up(t.cols, kAlign)));
    chunk = std::max<std::int64_t>(std::min<std::int64_t>(chunk, t.tile), kAlign);
    t.chunk = chunk;
    t.chunks = std::max<std::int64_t>(ceil_div(t.cols, chunk), 1);
    t.units = t.rows * t.chunks;
  }
  t.units_per_block = std::max<std::int64_t>(ceil_div(t.units, cores), 1);
  t.blocks =
      static_cast<std::uint32_t>(std::max<std::int64_t>(ceil_div(t.units, t.units_per_block), 1));

  // How each tensor is reached: row-major over the merged dims (kFull), one row for all (kRow),
  // one element (kScalar), or per-row offsets from its strides (kStrided).
  std::vector<std::int64_t> dense(dims.size(), 1);
  for (std::size_t d = dims.size(); d-- > 1;) dense[d - 1] = dense[d] * dims[d];
  const auto classify = [&](std::size_t i, EwOperand& o) {
    bool full = true, zero = true, leading_zero = true;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      o.strides[d] = strides[d][i];
      full = full && strides[d][i] == dense[d];
      zero = zero && strides[d][i] == 0;
      if (d + 1 < dims.size()) leading_zero = leading_zero && strides[d][i] == 0;
    }
    if (full) {
      o.kind = EwKind::kFull;
    } else if (zero) {
      o.kind = EwKind::kScalar;
    } else if (leading_zero && strides.back()[i] == 1 && t.chunks == 1) {
      o.kind = EwKind::kRow;
    } else {
      o.kind = EwKind::kStrided;
    }
  };
  for (std::size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].immediate) {
      t.in[i].kind = EwKind::kImmediate;
    } else {
      classify(i, t.in[i]);
    }
  }
  classify(ins.size(), t.out);
  return t;
}

void launch(Plan& p, const char* name, int in_type, int c_type, int out_type, const EwTiling& t,
            Ref x, Ref y, Ref z) {
  const EwKernel k = ew_kernel_for(in_type, c_type, out_type);
  p.require(k != nullptr,
            std::string("no kernel for ") + dtype_name(in_type) + " -> " + dtype_name(out_type));
  p.launch(name, reinterpret_cast<const void*>(k), t.blocks, Core::kVector,
           [k, t, x, y, z](const Addrs& a) { k(resolve(a, x), resolve(a, y), resolve(a, z), t); });
}

void check_tensor(const Plan& p, const aclTensor& t, const char* what) {
  p.require(t.dims.size() <= kEwMaxDims, std::string(what) + " has more than 8 dimensions");
}

// Workspace regions, 512-byte aligned.
struct Workspace {
  std::uint64_t used = 0;
  Ref take(std::int64_t elements, int type) {
    Ref r{Ref::kWs, used};
    used += static_cast<std::uint64_t>(round_up(
        std::max<std::int64_t>(elements, 1) * static_cast<std::int64_t>(element_size(type)), 512));
    return r;
  }
};

// A Cast launch from `src` (laid out as `from_l`) to `dst` (`to_l`, same shape). BOOL is stored
// as UINT8 (0 / 1); converting to BOOL is its own kernel op (x != 0).
void launch_cast(Plan& p, const Layout& from_l, int from, const Layout& to_l, int to, Ref src,
                 Ref dst) {
  if (from == ACL_BOOL) from = ACL_UINT8;
  if (to == ACL_BOOL) {
    const EwTiling t = plan_tiling(p, EwOp::kToBool, to_l, {from_l}, from, ACL_FLOAT, ACL_UINT8);
    launch(p, "Cast", from, ACL_FLOAT, ACL_UINT8, t, src, Ref{}, dst);
    return;
  }
  EwTiling t = plan_tiling(p, EwOp::kCast, to_l, {from_l}, from, from, to);
  const bool to_integer =
      to == ACL_INT32 || to == ACL_INT8 || to == ACL_UINT8 || to == ACL_INT16 || to == ACL_INT64;
  t.round = static_cast<std::int32_t>(is_float(from) && to_integer ? 5 /*CAST_TRUNC*/
                                                                   : 1 /*CAST_RINT*/);
  launch(p, "Cast", from, from, to, t, src, Ref{}, dst);
}

const char* op_name(EwOp op) {
  switch (op) {
    case EwOp::kAdd:
      return "Add";
    case EwOp::kSub:
      return "Sub";
    case EwOp::kMul:
      return "Mul";
    default:
      return "RealDiv";
  }
}

// Binary arithmetic: self (tensor) with other (tensor, or a host scalar when other_tensor is
// NULL), out = self op alpha*other.
void plan_binary(Plan& p, EwOp op, const aclTensor* self_t, const aclTensor* other_t,
                 const aclScalar* other_s, const aclScalar* alpha_s, const aclTensor* out_t) {
  const aclTensor& self = p.input(self_t, "self");
  const aclTensor* other = other_t != nullptr ? &p.input(other_t, "other") : nullptr;
  long double other_value = 0;
  int other_scalar_type = -1;
  if (other == nullptr) {
    other_value = p.scalar(other_s, "other");
    other_scalar_type = p.scalar_type(other_s, "other");
  }
  long double alpha = 1;
  int alpha_type = -1;
  if (op == EwOp::kAdd || op == EwOp::kSub) {
    alpha = p.scalar(alpha_s, "alpha");
    alpha_type = p.scalar_type(alpha_s, "alpha");
  }
  const aclTensor& out = p.output(out_t, "out");
  check_tensor(p, self, "self");
  if (other != nullptr) check_tensor(p, *other, "other");
  check_tensor(p, out, "out");

  const auto takes = [](int t) { return is_float(t) || is_int(t); };
  p.require(takes(self.dtype), "self has data type " + dtype_name(self.dtype) +
                                   "; this operator takes FLOAT, FLOAT16, BF16, INT32, INT8");
  if (other != nullptr) {
    p.require(takes(other->dtype), "other has data type " + dtype_name(other->dtype) +
                                       "; this operator takes FLOAT, FLOAT16, BF16, INT32, INT8");
  }
  p.require(takes(out.dtype), "out has data type " + dtype_name(out.dtype) +
                                  "; this operator takes FLOAT, FLOAT16, BF16, INT32, INT8");

  // The result type, then the type the kernel computes in.
  int result = other != nullptr ? promote(self.dtype, other->dtype) : self.dtype;
  const auto float_scalar = [](int t) {
    return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE;
  };
  if (is_int(result) && float_scalar(other_scalar_type)) result = ACL_FLOAT;
  p.require(!(is_int(result) && float_scalar(alpha_type)),
            "alpha is a floating-point scalar, which the integer result type " +
                dtype_name(result) + " cannot take");
  if (op == EwOp::kDiv && is_int(result)) result = ACL_FLOAT;
  p.require(!(is_float(result) && is_int(out.dtype)), "out has data type " + dtype_name(out.dtype) +
                                                          ", which the " + dtype_name(result) +
                                                          " result cannot be cast to");
  const int compute = kernel_type(result);
  if (is_int(compute)) {
    const auto int32_value = [](long double v) {
      return v == std::floor(v) && v >= -2147483648.0L && v <= 2147483647.0L;
    };
    p.require(int32_value(alpha), "alpha must be an INT32 value for an integer result");
    p.require(other != nullptr || int32_value(other_value),
              "other must be an INT32 value for an integer result");
  }

  // Shapes: out is the broadcast of self and other.
  std::vector<std::int64_t> shape = self.dims;
  if (other != nullptr) {
    const std::vector<std::int64_t>& b = other->dims;
    if (b.size() > shape.size()) shape.insert(shape.begin(), b.size() - shape.size(), 1);
    for (std::size_t k = 0; k < b.size(); ++k) {
      std::int64_t& s = shape[shape.size() - b.size() + k];
      p.require(s == b[k] || s == 1 || b[k] == 1,
                "self and other do not broadcast (NumPy rules: aligned right, 1 stretches)");
      if (s == 1) s = b[k];
    }
  }
  p.require_shape(out, shape, "out");

  // Operands not in the compute type are converted into the workspace first (contiguous there).
  Workspace ws;
  Ref x{Ref::kIn0}, y{Ref::kNone}, z{Ref::kOut};
  std::vector<Layout> ins{layout_of(self)};
  if (self.dtype != compute) {
    const Ref w = ws.take(self.numel(), compute);
    launch_cast(p, layout_of(self), self.dtype, contiguous(self.dims), compute, x, w);
    x = w;
    ins[0] = contiguous(self.dims);
  }
  if (other != nullptr) {
    y = Ref{Ref::kIn1};
    ins.push_back(layout_of(*other));
    if (other->dtype != compute) {
      const Ref w = ws.take(other->numel(), compute);
      launch_cast(p, layout_of(*other), other->dtype, contiguous(other->dims), compute, y, w);
      y = w;
      ins[1] = contiguous(other->dims);
    }
  } else {
    ins.push_back(immediate());
  }
  const bool convert_out = out.dtype != compute;
  Layout out_l = layout_of(out);
  if (convert_out) {
    z = ws.take(out.numel(), compute);
    out_l = contiguous(out.dims);
  }

  const int kc = compute == ACL_BF16 ? ACL_FLOAT : compute;  // bfloat16 computes in float
  EwTiling t = plan_tiling(p, op, out_l, ins, compute, kc, compute);
  t.alpha = static_cast<double>(alpha);
  t.scale_other = (op == EwOp::kAdd || op == EwOp::kSub) && alpha != 1;
  t.immediate = static_cast<double>(other_value);
  launch(p, op_name(op), compute, kc, compute, t, x, y, z);
  if (convert_out) {
    launch_cast(p, out_l, compute, layout_of(out), out.dtype, z, Ref{Ref::kOut});
  }
  p.set_workspace(ws.used);
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

}  // namespace
}  // namespace npusim::aclnn

namespace nn = npusim::aclnn;
using nn::EwOp;

#define NPUSIM_EW_EXECUTE(NAME)                                                      \
  aclnnStatus NAME(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, \
                   aclrtStream stream) {                                             \
    return nn::execute(#NAME, workspace, workspaceSize, executor, stream);           \
  }

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnAddGetWorkspaceSize", "Add", workspaceSize, executor, [&](nn::Plan& p) {
    nn::plan_binary(p, EwOp::kAdd, self, other, nullptr, alpha, out);
  });
}
NPUSIM_EW_EXECUTE(aclnnAdd)

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                      const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnAddsGetWorkspaceSize", "Adds", workspaceSize, executor,
      [&](nn::Plan& p) { nn::plan_binary(p, EwOp::kAdd, self, nullptr, other, alpha, out); });
}
NPUSIM_EW_EXECUTE(aclnnAdds)

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnSubGetWorkspaceSize", "Sub", workspaceSize, executor, [&](nn::Plan& p) {
    nn::plan_binary(p, EwOp::kSub, self, other, nullptr, alpha, out);
  });
}
NPUSIM_EW_EXECUTE(aclnnSub)

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other,
                                      const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnSubsGetWorkspaceSize", "Subs", workspaceSize, executor,
      [&](nn::Plan& p) { nn::plan_binary(p, EwOp::kSub, self, nullptr, other, alpha, out); });
}
NPUSIM_EW_EXECUTE(aclnnSubs)

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnMulGetWorkspaceSize", "Mul", workspaceSize, executor, [&](nn::Plan& p) {
    nn::plan_binary(p, EwOp::kMul, self, other, nullptr, nullptr, out);
  });
}
NPUSIM_EW_EXECUTE(aclnnMul)

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnMulsGetWorkspaceSize", "Muls", workspaceSize, executor,
      [&](nn::Plan& p) { nn::plan_binary(p, EwOp::kMul, self, nullptr, other, nullptr, out); });
}
NPUSIM_EW_EXECUTE(aclnnMuls)

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnDivGetWorkspaceSize", "Div", workspaceSize, executor, [&](nn::Plan& p) {
    nn::plan_binary(p, EwOp::kDiv, self, other, nullptr, nullptr, out);
  });
}
NPUSIM_EW_EXECUTE(aclnnDiv)

aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnDivsGetWorkspaceSize", "Divs", workspaceSize, executor,
      [&](nn::Plan& p) { nn::plan_binary(p, EwOp::kDiv, self, nullptr, other, nullptr, out); });
}
NPUSIM_EW_EXECUTE(aclnnDivs)

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype,
                                      aclTensor* out, uint64_t* workspaceSize,
                                      aclOpExecutor** executor) {
  return nn::prepare("aclnnCastGetWorkspaceSize", "Cast", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       const aclTensor& x = p.input(self, "self");
                       const aclTensor& y = p.output(out, "out");
                       nn::check_tensor(p, x, "self");
                       nn::check_tensor(p, y, "out");
                       const std::initializer_list<int> types{ACL_FLOAT, ACL_FLOAT16, ACL_BF16,
                                                              ACL_INT32, ACL_INT8,    ACL_UINT8,
                                                              ACL_INT16, ACL_INT64,   ACL_BOOL};
                       p.require_dtype(x, types, "self");
                       p.require_dtype(y, types, "out");
                       p.require(y.dtype == static_cast<int>(dtype),
                                 "out has data type " + nn::dtype_name(y.dtype) +
                                     ", dtype asks for " + nn::dtype_name(dtype));
                       p.require_shape(y, x.dims, "out");
                       nn::launch_cast(p, nn::layout_of(x), x.dtype, nn::layout_of(y), y.dtype,
                                       nn::Ref{nn::Ref::kIn0}, nn::Ref{nn::Ref::kOut});
                     });
}
NPUSIM_EW_EXECUTE(aclnnCast)

#define NPUSIM_EW_UNARY(NAME, OP)                                                         \
  aclnnStatus NAME##GetWorkspaceSize(const aclTensor* self, aclTensor* out,               \
                                     uint64_t* workspaceSize, aclOpExecutor** executor) { \
    return nn::prepare(#NAME "GetWorkspaceSize", #NAME + 5, workspaceSize, executor,      \
                       [&](nn::Plan& p) { nn::plan_unary(p, EwOp::OP, self, out); });     \
  }                                                                                       \
  NPUSIM_EW_EXECUTE(NAME)
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
        nn::plan_unary(p, approximate == 0 ? EwOp::kGeluErf : EwOp::kGelu, x, y);
      });
}
NPUSIM_EW_EXECUTE(aclnnGeluV2)

// In-place forms: selfRef is both the first input and the output.
aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
                                            const aclScalar* alpha, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return nn::prepare("aclnnInplaceAddGetWorkspaceSize", "InplaceAdd", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_binary(p, EwOp::kAdd, selfRef, other, nullptr, alpha, selfRef);
                     });
}
NPUSIM_EW_EXECUTE(aclnnInplaceAdd)

aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other,
                                             const aclScalar* alpha, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return nn::prepare("aclnnInplaceAddsGetWorkspaceSize", "InplaceAdds", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_binary(p, EwOp::kAdd, selfRef, nullptr, other, alpha, selfRef);
                     });
}
NPUSIM_EW_EXECUTE(aclnnInplaceAdds)

aclnnStatus aclnnInplaceSubGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
                                            const aclScalar* alpha, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return nn::prepare("aclnnInplaceSubGetWorkspaceSize", "InplaceSub", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_binary(p, EwOp::kSub, selfRef, other, nullptr, alpha, selfRef);
                     });
}
NPUSIM_EW_EXECUTE(aclnnInplaceSub)

aclnnStatus aclnnInplaceSubsGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other,
                                             const aclScalar* alpha, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return nn::prepare("aclnnInplaceSubsGetWorkspaceSize", "InplaceSubs", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_binary(p, EwOp::kSub, selfRef, nullptr, other, alpha, selfRef);
                     });
}
NPUSIM_EW_EXECUTE(aclnnInplaceSubs)

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnInplaceMulGetWorkspaceSize", "InplaceMul", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_binary(p, EwOp::kMul, selfRef, other, nullptr, nullptr, selfRef);
                     });
}
NPUSIM_EW_EXECUTE(aclnnInplaceMul)

aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnInplaceMulsGetWorkspaceSize", "InplaceMuls", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_binary(p, EwOp::kMul, selfRef, nullptr, other, nullptr, selfRef);
                     });
}
NPUSIM_EW_EXECUTE(aclnnInplaceMuls)

aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnInplaceDivGetWorkspaceSize", "InplaceDiv", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_binary(p, EwOp::kDiv, selfRef, other, nullptr, nullptr, selfRef);
                     });
}
NPUSIM_EW_EXECUTE(aclnnInplaceDiv)

aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnInplaceDivsGetWorkspaceSize", "InplaceDivs", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_binary(p, EwOp::kDiv, selfRef, nullptr, other, nullptr, selfRef);
                     });
}
NPUSIM_EW_EXECUTE(aclnnInplaceDivs)

#define NPUSIM_EW_INPLACE_UNARY(NAME, OP)                                                    \
  aclnnStatus NAME##GetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,            \
                                     aclOpExecutor** executor) {                             \
    return nn::prepare(#NAME "GetWorkspaceSize", #NAME + 5, workspaceSize, executor,         \
                       [&](nn::Plan& p) { nn::plan_unary(p, EwOp::OP, selfRef, selfRef); }); \
  }                                                                                          \
  NPUSIM_EW_EXECUTE(NAME)
NPUSIM_EW_INPLACE_UNARY(aclnnInplaceRelu, kRelu)
NPUSIM_EW_INPLACE_UNARY(aclnnInplaceSigmoid, kSigmoid)
NPUSIM_EW_INPLACE_UNARY(aclnnInplaceTanh, kTanh)
NPUSIM_EW_INPLACE_UNARY(aclnnInplaceExp, kExp)
#undef NPUSIM_EW_INPLACE_UNARY
#undef NPUSIM_EW_EXECUTE
