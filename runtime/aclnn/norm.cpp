// SPDX-License-Identifier: Apache-2.0
// aclnnSoftmax, aclnnLayerNorm, aclnnRmsNorm, aclnnBatchNorm (inference): checks, tiling and the
// kernel launches (norm_kernels.cpp). Parameters that are not FLOAT (weights, running
// statistics) are first cast to fp32 in the workspace; statistics outputs that are not FLOAT are
// computed in fp32 in the workspace and cast at the end.
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "runtime/aclnn/norm_plan.h"

namespace npusim::aclnn::norm {
namespace {

void require_float_type(const Plan& p, const aclTensor& t, const char* what) {
  p.require_dtype(t, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, what);
}

// A parameter must be FLOAT or the input's type.
void require_param_type(const Plan& p, const aclTensor& t, int input_type, const char* what) {
  p.require(t.dtype == ACL_FLOAT || t.dtype == input_type,
            std::string(what) + " has data type " + dtype_name(t.dtype) +
                "; it must be FLOAT or the input's type (" + dtype_name(input_type) + ")");
}

// A statistics output: leading dims as the input's, then only 1s (rows values in all).
void require_stat_shape(const Plan& p, const aclTensor& s, const std::vector<std::int64_t>& x,
                        std::size_t lead, const char* what) {
  bool ok = s.dims.size() >= lead && s.dims.size() <= x.size();
  for (std::size_t i = 0; ok && i < s.dims.size(); ++i)
    ok = i < lead ? s.dims[i] == x[i] : s.dims[i] == 1;
  p.require(ok, std::string(what) +
                    " must have the input's leading (not normalised) dimensions "
                    "followed by dimensions of size 1");
}

// RmsNorm's gamma (x's last dimensions) and rstdOut (x's leading dimensions, then 1s); x (named
// `x_name`) must not be empty.
void require_gamma_and_rstd(const Plan& p, const aclTensor& x, const aclTensor& g,
                            const aclTensor& rs, const char* x_name) {
  const std::string name = x_name;
  p.require(!g.dims.empty() && g.dims.size() <= x.dims.size(),
            "gamma must have 1 to " + name + ".dim() dimensions");
  const std::size_t lead = x.dims.size() - g.dims.size();
  for (std::size_t i = 0; i < g.dims.size(); ++i) {
    p.require(x.dims[lead + i] == g.dims[i],
              "gamma's shape must equal " + name + "'s last dimensions");
  }
  p.require(x.numel() > 0, name + " is empty (empty tensors are not supported)");
  require_stat_shape(p, rs, x.dims, lead, "rstdOut");
}

void launch_norm(Plan& p, Workspace& ws, const aclTensor& x, const aclTensor* w, int w_index,
                 const aclTensor* b, int b_index, const aclTensor* mean, const aclTensor* rstd,
                 std::int64_t rows, std::int64_t len, double eps, bool rms) {
  const F32Source ws_w = f32_param(p, ws, w, w_index);
  const F32Source ws_b = f32_param(p, ws, b, b_index);
  RowNeeds needs;
  needs.f32_rows = (w ? 1 : 0) + (b ? 1 : 0);           // weight, bias rows
  needs.chunk_f32_rows = 1;                             // running sums
  needs.per_row_bytes = 7 * 4;                          // statistics
  needs.f32_tile_bufs = 1 + (w ? 1 : 0) + (b ? 1 : 0);  // broadcasts, weight / bias tiles
  RowTiling t = plan_rows(p, dt_of(x.dtype), rows, len, needs);
  t.eps = static_cast<float>(eps);
  t.rms = rms;
  t.has_weight = w != nullptr;
  t.has_bias = b != nullptr;
  // Statistics outputs: straight into a FLOAT output, else through the workspace.
  struct Stat {
    int out = -1;
    bool via_ws = false;
    std::uint64_t off = 0;
  };
  auto stat = [&](const aclTensor* s, int out_index) {
    Stat st;
    if (s == nullptr) return st;
    st.out = out_index;
    if (s->dtype != ACL_FLOAT) {
      st.via_ws = true;
      st.off = ws.take(static_cast<std::uint64_t>(rows) * 4);
    }
    return st;
  };
  const Stat sm = stat(mean, 1), sr = stat(rstd, rms ? 1 : 2);
  p.launch(rms ? "RmsNorm" : "LayerNorm", reinterpret_cast<const void*>(&norm_kernel),
           row_blocks(rows, t.per_block), Core::kVector, [t, ws_w, ws_b, sm, sr](const Addrs& a) {
             auto where = [&a](const Stat& s) -> std::uint8_t* {
               if (s.out < 0) return nullptr;
               return s.via_ws ? a.workspace + s.off : a.out[static_cast<std::size_t>(s.out)];
             };
             norm_kernel(a.in[0], ws_w.resolve(a), ws_b.resolve(a), a.out[0], where(sm), where(sr),
                         t);
           });
  if (sm.via_ws) cast_out(p, sm.off, mean->dtype, rows, sm.out);
  if (sr.via_ws) cast_out(p, sr.off, rstd->dtype, rows, sr.out);
  p.set_workspace(ws.size());
}

// Softmax over `d` of x: rows along the last dimension, or columns when `d` is an inner one;
// `units`: the work units the blocks share (rows, or the column tiling's units).
RowTiling softmax_tiling(Plan& p, const aclTensor& x, std::size_t d, std::int64_t& units) {
  const std::int64_t inner = product(x.dims, d + 1, x.dims.size());
  const std::int64_t len = x.dims.empty() ? 1 : x.dims[d];
  const std::int64_t rows = x.numel() / len;
  if (inner != 1) {
    const RowTiling t = plan_columns(p, dt_of(x.dtype), rows / inner, len, inner);
    units = t.units;
    return t;
  }
  RowNeeds needs;
  needs.chunk_f32_rows = 1;
  needs.per_row_bytes = 2 * 4;
  needs.f32_tile_bufs = 1;  // broadcast row statistics
  units = rows;
  return plan_rows(p, dt_of(x.dtype), rows, len, needs);
}

void plan_softmax(Plan& p, const aclTensor* self, std::int64_t dim, aclTensor* out) {
  const aclTensor& x = p.input(self, "self");
  const aclTensor& y = p.output(out, "out");
  require_float_type(p, x, "self");
  p.require(y.dtype == x.dtype, "out must have self's data type");
  p.require_shape(y, x.dims, "out");
  p.require_contiguous(x, "self");
  p.require_contiguous(y, "out");
  const auto rank = static_cast<std::int64_t>(x.dims.size());
  const std::int64_t r = std::max<std::int64_t>(rank, 1);
  p.require(dim >= -r && dim < r, "dim " + std::to_string(dim) + " is out of range for a " +
                                      std::to_string(rank) + "-dimensional self");
  const std::int64_t d = dim < 0 ? dim + r : dim;
  p.require(x.numel() > 0, "self is empty (empty tensors are not supported)");
  std::int64_t units = 0;
  const RowTiling t = softmax_tiling(p, x, static_cast<std::size_t>(d), units);
  p.launch("Softmax", reinterpret_cast<const void*>(&softmax_kernel),
           row_blocks(units, t.per_block), Core::kVector,
           [t](const Addrs& a) { softmax_kernel(a.in[0], a.out[0], t); });
}

void plan_rms_norm(Plan& p, const aclTensor* x, const aclTensor* gamma, double epsilon,
                   const aclTensor* yOut, const aclTensor* rstdOut) {
  const aclTensor& xt = p.input(x, "x");
  const aclTensor& g = p.input(gamma, "gamma");
  const aclTensor& y = p.output(yOut, "yOut");
  const aclTensor& rs = p.output(rstdOut, "rstdOut");
  require_float_type(p, xt, "x");
  p.require(y.dtype == xt.dtype, "yOut must have x's data type");
  p.require_shape(y, xt.dims, "yOut");
  require_param_type(p, g, xt.dtype, "gamma");
  p.require(rs.dtype == ACL_FLOAT, "rstdOut must be FLOAT, it is " + dtype_name(rs.dtype));
  for (const aclTensor* t : {&xt, &g, &y, &rs}) p.require_contiguous(*t, "every tensor");
  require_gamma_and_rstd(p, xt, g, rs, "x");
  const std::int64_t len = g.numel();
  Workspace ws;
  launch_norm(p, ws, xt, &g, 1, nullptr, -1, nullptr, &rs, xt.numel() / len, len, epsilon, true);
}

// AddRmsNorm's tensors, as the API names them.
struct AddRmsNormArgs {
  const aclTensor *x1, *x2, *gamma, *yOut, *rstdOut, *xOut;
};

// x2, yOut and xOut of x1's type and shape; gamma and rstdOut as RmsNorm's.
void check_add_rms_norm(const Plan& p, const aclTensor& a, const aclTensor& b,
                        const aclTensor& g, const aclTensor& y, const aclTensor& rs,
                        const aclTensor& xo) {
  require_float_type(p, a, "x1");
  for (const aclTensor* t : {&b, &y, &xo}) {
    p.require(t->dtype == a.dtype, "x2, yOut and xOut must have x1's data type");
    p.require_shape(*t, a.dims, t == &b ? "x2" : t == &y ? "yOut" : "xOut");
  }
  require_param_type(p, g, a.dtype, "gamma");
  p.require(rs.dtype == ACL_FLOAT, "rstdOut must be FLOAT, it is " + dtype_name(rs.dtype));
  for (const aclTensor* t : {&a, &b, &g, &y, &rs, &xo}) p.require_contiguous(*t, "every tensor");
  require_gamma_and_rstd(p, a, g, rs, "x1");
}

RowTiling add_rms_norm_tiling(Plan& p, Dt dt, std::int64_t rows, std::int64_t len, double eps) {
  RowNeeds needs;
  needs.f32_rows = 1;        // gamma row
  needs.chunk_f32_rows = 1;  // running sums
  needs.per_row_bytes = 7 * 4;
  needs.f32_tile_bufs = 2;                                              // broadcasts, gamma tile
  needs.extra_elem_bytes = 4 * dt_size(dt) + (dt == Dt::kF32 ? 0 : 4);  // x2, xOut
  RowTiling t = plan_rows(p, dt, rows, len, needs);
  t.eps = static_cast<float>(eps);
  t.rms = true;
  t.has_weight = true;
  return t;
}

void plan_add_rms_norm(Plan& p, const AddRmsNormArgs& args, double epsilon) {
  const aclTensor& a = p.input(args.x1, "x1");
  const aclTensor& b = p.input(args.x2, "x2");
  const aclTensor& g = p.input(args.gamma, "gamma");
  const aclTensor& y = p.output(args.yOut, "yOut");
  const aclTensor& rs = p.output(args.rstdOut, "rstdOut");
  const aclTensor& xo = p.output(args.xOut, "xOut");
  check_add_rms_norm(p, a, b, g, y, rs, xo);
  const std::int64_t len = g.numel(), rows = a.numel() / len;
  Workspace ws;
  const F32Source fg = f32_param(p, ws, &g, 2);
  const RowTiling t = add_rms_norm_tiling(p, dt_of(a.dtype), rows, len, epsilon);
  p.launch("AddRmsNorm", reinterpret_cast<const void*>(&add_rms_norm_kernel),
           row_blocks(rows, t.per_block), Core::kVector, [t, fg](const Addrs& ad) {
             add_rms_norm_kernel(ad.in[0], ad.in[1], fg.resolve(ad), ad.out[0], ad.out[1],
                                 ad.out[2], t);
           });
  p.set_workspace(ws.size());
}

// LayerNorm's tensors, as the API names them.
struct LayerNormArgs {
  const aclTensor *input, *weight, *bias;
  aclTensor *out, *mean, *rstd;
};

// input and out: a float type, one shape, contiguous; normalizedShape input's last dimensions.
std::size_t check_layer_norm_input(const Plan& p, const aclTensor& x, const aclTensor& y,
                                   const std::vector<std::int64_t>& shape) {
  require_float_type(p, x, "input");
  p.require(y.dtype == x.dtype, "out must have input's data type");
  p.require_shape(y, x.dims, "out");
  p.require_contiguous(x, "input");
  p.require_contiguous(y, "out");
  p.require(!shape.empty() && shape.size() <= x.dims.size(),
            "normalizedShape must have 1 to input.dim() entries");
  const std::size_t lead = x.dims.size() - shape.size();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    p.require(x.dims[lead + i] == shape[i], "normalizedShape must equal input's last " +
                                                std::to_string(shape.size()) + " dimensions");
  }
  p.require(x.numel() > 0, "input is empty (empty tensors are not supported)");
  return lead;
}

// The optional weight / bias (normalizedShape) and mean / rstd outputs (statistics' shape).
void check_layer_norm_optionals(const Plan& p, const aclTensor& x, const aclTensor* w,
                                const aclTensor* b, const aclTensor* mean, const aclTensor* rstd,
                                const std::vector<std::int64_t>& shape, std::size_t lead) {
  for (const aclTensor* t : {w, b}) {
    if (t == nullptr) continue;
    const char* what = t == w ? "weightOptional" : "biasOptional";
    require_param_type(p, *t, x.dtype, what);
    p.require_shape(*t, shape, what);
    p.require_contiguous(*t, what);
  }
  for (const aclTensor* t : {mean, rstd}) {
    if (t == nullptr) continue;
    const char* what = t == mean ? "meanOutOptional" : "rstdOutOptional";
    require_param_type(p, *t, x.dtype, what);
    require_stat_shape(p, *t, x.dims, lead, what);
    p.require_contiguous(*t, what);
  }
}

void plan_layer_norm(Plan& p, const LayerNormArgs& a, const aclIntArray* normalizedShape,
                     double eps, std::int32_t implMode) {
  p.require(implMode >= 0 && implMode <= 2,
            "implMode " + std::to_string(implMode) +
                " is not 0 (high precision), 1 (high performance) or 2 (keep FLOAT16)");
  const aclTensor& x = p.input(a.input, "input");
  const std::vector<std::int64_t> shape = p.int_array(normalizedShape, "normalizedShape");
  const aclTensor* w = p.optional_input(a.weight, "weightOptional");
  const aclTensor* b = p.optional_input(a.bias, "biasOptional");
  const aclTensor& y = p.output(a.out, "out");
  const aclTensor* mean = p.optional_output(a.mean, "meanOutOptional");
  const aclTensor* rstd = p.optional_output(a.rstd, "rstdOutOptional");
  const std::size_t lead = check_layer_norm_input(p, x, y, shape);
  check_layer_norm_optionals(p, x, w, b, mean, rstd, shape, lead);
  const std::int64_t len = product(x.dims, lead, x.dims.size());
  Workspace ws;
  launch_norm(p, ws, x, w, 1, b, 2, mean, rstd, x.numel() / len, len, eps, false);
}

}  // namespace
}  // namespace npusim::aclnn::norm

namespace nn = npusim::aclnn;
namespace nm = npusim::aclnn::norm;

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnSoftmaxGetWorkspaceSize", "Softmax", workspaceSize, executor,
                     [&](nn::Plan& p) { nm::plan_softmax(p, self, dim, out); });
}

namespace {

aclnnStatus layer_norm_prepare(const char* api, const aclTensor* input,
                               const aclIntArray* normalizedShape, const aclTensor* weightOptional,
                               const aclTensor* biasOptional, double eps, aclTensor* out,
                               aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
                               int32_t implMode, uint64_t* workspaceSize,
                               aclOpExecutor** executor) {
  return nn::prepare(api, "LayerNorm", workspaceSize, executor, [&](nn::Plan& p) {
    nm::plan_layer_norm(p, {input, weightOptional, biasOptional, out, meanOutOptional,
                            rstdOutOptional},
                        normalizedShape, eps, implMode);
  });
}

}  // namespace

aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return layer_norm_prepare("aclnnLayerNormGetWorkspaceSize", input, normalizedShape,
                            weightOptional, biasOptional, eps, out, meanOutOptional,
                            rstdOutOptional, 0, workspaceSize, executor);
}

aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, int32_t implMode, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  return layer_norm_prepare("aclnnLayerNormWithImplModeGetWorkspaceSize", input, normalizedShape,
                            weightOptional, biasOptional, eps, out, meanOutOptional,
                            rstdOutOptional, implMode, workspaceSize, executor);
}

aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                         const aclTensor* yOut, const aclTensor* rstdOut,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnRmsNormGetWorkspaceSize", "RmsNorm", workspaceSize, executor,
                     [&](nn::Plan& p) { nm::plan_rms_norm(p, x, gamma, epsilon, yOut, rstdOut); });
}

aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2,
                                            const aclTensor* gamma, double epsilon,
                                            const aclTensor* yOut, const aclTensor* rstdOut,
                                            const aclTensor* xOut, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  return nn::prepare("aclnnAddRmsNormGetWorkspaceSize", "AddRmsNorm", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nm::plan_add_rms_norm(p, {x1, x2, gamma, yOut, rstdOut, xOut}, epsilon);
                     });
}

namespace npusim::aclnn::norm {
namespace {

// BatchNorm's tensors (NULL for an optional one not given).
struct BatchNormArgs {
  const aclTensor* x;
  const aclTensor *w, *b, *rm, *rv;  // weight, bias, runningMean, runningVar
  const aclTensor* y;
  const aclTensor *sm, *si;  // saveMean, saveInvstd
};

void check_batch_norm_input(const Plan& p, const BatchNormArgs& a, bool training) {
  p.require(!training,
            "training mode (batch statistics, running-statistics update) is not supported; "
            "only inference (training = false) is");
  p.require(a.rm != nullptr && a.rv != nullptr, "inference mode needs runningMean and runningVar");
  const aclTensor& x = *a.x;
  require_float_type(p, x, "input");
  p.require(x.dims.size() >= 2 && x.dims.size() <= 8, "input must have 2 to 8 dimensions");
  p.require(a.y->dtype == x.dtype, "output must have input's data type");
  p.require_shape(*a.y, x.dims, "output");
  p.require_contiguous(x, "input");
  p.require_contiguous(*a.y, "output");
  p.require(x.numel() > 0, "input is empty (empty tensors are not supported)");
}

// The per-channel tensors: parameters FLOAT or input's type, saved statistics FLOAT; all [C].
void check_channel_tensors(const Plan& p, const BatchNormArgs& a, std::int64_t c) {
  for (const aclTensor* t : {a.w, a.b, a.rm, a.rv}) {
    if (t == nullptr) continue;
    const char* what = t == a.w    ? "weight"
                       : t == a.b  ? "bias"
                       : t == a.rm ? "runningMean"
                                   : "runningVar";
    require_param_type(p, *t, a.x->dtype, what);
    p.require_shape(*t, {c}, what);
    p.require_contiguous(*t, what);
  }
  for (const aclTensor* t : {a.sm, a.si}) {
    if (t == nullptr) continue;
    const char* what = t == a.sm ? "saveMean" : "saveInvstd";
    p.require(t->dtype == ACL_FLOAT, std::string(what) + " must be FLOAT");
    p.require_shape(*t, {c}, what);
    p.require_contiguous(*t, what);
  }
}

// Channels per tile of bn_stats_kernel: 4 input and 4 output tiles and a row of ones, 36 bytes
// per channel.
ChannelTiling channel_tiling(const Plan& p, std::int64_t batch, std::int64_t c, double eps) {
  ChannelTiling ct;
  ct.channels = c;
  ct.batch = batch;
  const std::uint64_t ub = p.ub_bytes() > 2 * kUbReserve ? p.ub_bytes() - kUbReserve : kUbReserve;
  ct.tile = static_cast<std::uint32_t>(std::max<std::uint64_t>(
      std::min<std::uint64_t>(round_up64(static_cast<std::uint64_t>(c), 8), ub / 36 / 8 * 8), 8));
  ct.eps = static_cast<float>(eps);
  return ct;
}

// The rows of x * scale + shift (per (batch, channel) coefficients at workspace offsets
// `scale` and `shift`).
void launch_affine_rows(Plan& p, const aclTensor& x, std::uint64_t scale, std::uint64_t shift) {
  const std::int64_t len = product(x.dims, 2, x.dims.size());
  const std::int64_t rows = x.numel() / len;
  RowNeeds needs;
  needs.f32_tile_bufs = 1;          // broadcast coefficients
  needs.per_row_bytes = 2 * 2 * 4;  // scale and shift, double-buffered
  const RowTiling t = plan_rows(p, dt_of(x.dtype), rows, len, needs);
  p.launch("BatchNorm", reinterpret_cast<const void*>(&affine_rows_kernel),
           row_blocks(rows, t.per_block), Core::kVector, [=](const Addrs& ad) {
             affine_rows_kernel(ad.in[0], ad.workspace + scale, ad.workspace + shift, ad.out[0], t);
           });
}

// Two launches: per (batch, channel) scale and shift into the workspace, then rows of
// x * scale + shift.
void plan_batch_norm(Plan& p, const BatchNormArgs& a, double eps) {
  const aclTensor& x = *a.x;
  const std::int64_t c = x.dims[1], batch = x.dims[0];
  Workspace ws;
  const F32Source fw = f32_param(p, ws, a.w, 1), fb = f32_param(p, ws, a.b, 2);
  const F32Source fm = f32_param(p, ws, a.rm, 3), fv = f32_param(p, ws, a.rv, 4);
  const std::uint64_t scale = ws.take(static_cast<std::uint64_t>(batch * c) * 4);
  const std::uint64_t shift = ws.take(static_cast<std::uint64_t>(batch * c) * 4);
  const ChannelTiling ct = channel_tiling(p, batch, c, eps);
  const bool has_sm = a.sm != nullptr, has_si = a.si != nullptr;
  p.launch("BatchNormStats", reinterpret_cast<const void*>(&bn_stats_kernel), 1, Core::kVector,
           [=](const Addrs& ad) {
             bn_stats_kernel(fw.resolve(ad), fb.resolve(ad), fm.resolve(ad), fv.resolve(ad),
                             ad.workspace + scale, ad.workspace + shift,
                             has_sm ? ad.out[1] : nullptr, has_si ? ad.out[2] : nullptr, ct);
           });
  launch_affine_rows(p, x, scale, shift);
  p.set_workspace(ws.size());
}

}  // namespace
}  // namespace npusim::aclnn::norm

aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                           const aclTensor* bias, aclTensor* runningMean,
                                           aclTensor* runningVar, bool training, double momentum,
                                           double eps, aclTensor* output, aclTensor* saveMean,
                                           aclTensor* saveInvstd, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return nn::prepare("aclnnBatchNormGetWorkspaceSize", "BatchNorm", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       (void)momentum;  // updates running statistics in training mode only
                       nm::BatchNormArgs a;
                       a.x = &p.input(input, "input");
                       a.w = p.optional_input(weight, "weight");
                       a.b = p.optional_input(bias, "bias");
                       a.rm = p.optional_input(runningMean, "runningMean");
                       a.rv = p.optional_input(runningVar, "runningVar");
                       a.y = &p.output(output, "output");
                       a.sm = p.optional_output(saveMean, "saveMean");
                       a.si = p.optional_output(saveInvstd, "saveInvstd");
                       nm::check_batch_norm_input(p, a, training);
                       nm::check_channel_tensors(p, a, a.x->dims[1]);
                       nm::plan_batch_norm(p, a, eps);
                     });
}
