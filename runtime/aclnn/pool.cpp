// SPDX-License-Identifier: Apache-2.0
// Pooling, host side: aclnnMaxPool2dWithIndices, aclnnMaxPool, aclnnAvgPool2d,
// aclnnAdaptiveAvgPool2d (checks, output sizes, band tiling; kernel in pool_kernels.cpp).
// Limits: a band of input rows must fit the unified buffer (very wide rows are refused with
// ACLNN_ERR_PARAM_INVALID); inputs and outputs contiguous.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "runtime/aclnn/op_api.h"
#include "runtime/aclnn/pool_kernels.h"

namespace npusim::aclnn {
namespace {

using kernels::PoolTiling;

std::int64_t round32(std::int64_t bytes) { return (bytes + 31) / 32 * 32; }

// An attribute of one or two values (one value applies to both axes); `fallback` when empty.
void pair(const Plan& p, const std::vector<std::int64_t>& v, const char* what, std::int64_t& a,
          std::int64_t& b, const std::vector<std::int64_t>& fallback = {}) {
  const std::vector<std::int64_t>& s = v.empty() ? fallback : v;
  p.require(s.size() == 1 || s.size() == 2,
            std::string(what) + " must have 1 or 2 values, got " + std::to_string(s.size()));
  a = s[0];
  b = s.size() == 2 ? s[1] : s[0];
}

// Output size along one axis (PyTorch's rule: ceil mode keeps the last window starting inside
// the input or its leading padding); `pad_end` < 0: the same padding at both ends.
std::int64_t out_size(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t pad,
                      std::int64_t d, bool ceil_mode, std::int64_t pad_end = -1) {
  const std::int64_t span = in + pad + (pad_end < 0 ? pad : pad_end) - d * (k - 1) - 1;
  if (span < 0) return 0;
  std::int64_t o = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (ceil_mode && (o - 1) * s >= in + pad) --o;
  return o;
}

// Input planes of self (3-D CHW or 4-D NCHW): planes, H, W, and out's expected shape.
void planes_of(const Plan& p, const aclTensor& x, PoolTiling& t) {
  p.require(x.dims.size() == 3 || x.dims.size() == 4,
            "self must be 3-D (C, H, W) or 4-D (N, C, H, W)");
  const std::size_t r = x.dims.size();
  t.h = x.dims[r - 2];
  t.w = x.dims[r - 1];
  t.planes = x.numel() / std::max<std::int64_t>(t.h * t.w, 1);
  p.require(t.h > 0 && t.w > 0, "self's H and W must not be 0");
}

std::vector<std::int64_t> out_shape(const aclTensor& x, const PoolTiling& t) {
  std::vector<std::int64_t> s(x.dims.begin(), x.dims.end() - 2);
  s.push_back(t.ho);
  s.push_back(t.wo);
  return s;
}

// MaxPool's pads: none, one for all, (H, W), or (top, left, bottom, right).
void four_pads(const Plan& p, const std::vector<std::int64_t>& pad, std::int64_t& top,
               std::int64_t& left, std::int64_t& bottom, std::int64_t& right) {
  top = left = bottom = right = 0;
  p.require(pad.size() <= 2 || pad.size() == 4, "pads must have 0, 1, 2 or 4 values");
  if (pad.size() == 1) top = left = bottom = right = pad[0];
  if (pad.size() == 2) {
    top = bottom = pad[0];
    left = right = pad[1];
  }
  if (pad.size() == 4) {
    top = pad[0];
    left = pad[1];
    bottom = pad[2];
    right = pad[3];
  }
}

// What a band of output rows costs in UB: its input rows and the kernel's bytes.
struct BandCost {
  const PoolTiling& t;
  std::int64_t es = 0;      // element size
  std::int64_t pitch = 0;   // bytes per input row in UB
  std::int64_t opitch = 0;  // elements per output row
  std::int64_t taps_w = 0;  // column taps per output element (the most of any, adaptive)

  std::int64_t in_rows(std::int64_t band) const {  // input rows of a band of `band` output rows
    if (!t.rowwise) return (band - 1) * t.sh + (t.kh - 1) * t.dh + 1;
    std::int64_t most = 1;
    for (std::int64_t oh0 = 0; oh0 < t.ho; oh0 += band) {
      const auto a = kernels::axis_window(t, true, oh0);
      const auto b = kernels::axis_window(t, true, std::min(oh0 + band, t.ho) - 1);
      most = std::max(most, b.start + b.taps - a.start);
    }
    return most;
  }

  std::int64_t bytes(std::int64_t band) const {  // UB the kernel takes for bands of `band` rows
    const std::int64_t out = band * opitch, tab = t.rowwise ? opitch : out;
    std::int64_t b = 2 * in_rows(band) * pitch + 2 * out * es + tab * es + taps_w * tab * 4;
    if (t.indices) b += 2 * out * 4 + 2 * out * 4 + round32(out / 8) + taps_w * tab * 4;
    if (!t.max) b += tab * 4 + (es < 4 ? out * 4 + tab * 4 : 0);
    return b;
  }
};

BandCost band_cost(const PoolTiling& t, std::int64_t es) {
  BandCost c{t, es, round32((t.w + 1) * es), (t.wo + 15) / 16 * 16, t.kw};
  if (t.rowwise) {
    c.taps_w = 1;
    for (std::int64_t ow = 0; ow < t.wo; ++ow)
      c.taps_w = std::max(c.taps_w, kernels::axis_window(t, false, ow).taps);
  }
  return c;
}

// The largest band (halving from one that gives every vector core work) that fits the UB.
std::int64_t choose_band(Plan& p, const PoolTiling& t, const BandCost& c, std::int64_t rows) {
  const std::int64_t cores = p.vector_cores();
  std::int64_t band = std::max<std::int64_t>(
      1, std::min(rows, (t.planes * t.ho + cores - 1) / cores));  // work for every core
  const std::int64_t budget = static_cast<std::int64_t>(p.ub_bytes()) - 8 * 1024;
  while (band > 1 && (c.bytes(band) > budget || c.in_rows(band) > 4095)) band = (band + 1) / 2;
  p.require(c.bytes(band) <= budget && c.in_rows(band) <= 4095,
            "the pooling window's rows do not fit the unified buffer (W or the kernel too large)");
  return band;
}

void launch_pool(Plan& p, const PoolTiling& t, int dtype, const char* name) {
  const Split split = split_even(t.units, p.vector_cores(), 1);
  PoolTiling tiling = t;
  tiling.units_per_block = split.per_block;
  void (*kernel)(std::uint8_t*, std::uint8_t*, std::uint8_t*, const PoolTiling&) =
      dtype == ACL_FLOAT16 ? kernels::pool_kernel_f16
      : dtype == ACL_BF16  ? kernels::pool_kernel_bf16
                           : kernels::pool_kernel_f32;
  const bool indices = t.indices;
  p.launch(name, reinterpret_cast<const void*>(kernel), split.blocks, Core::kVector,
           [tiling, kernel, indices](const Addrs& a) {
             kernel(a.in[0], a.out[0], indices ? a.out[1] : nullptr, tiling);
           });
}

// Bands of output rows that fit the UB (and give every vector core work), split over the vector
// cores; the launch.
void plan_and_launch(Plan& p, PoolTiling t, int dtype, const char* name) {
  t.dtype = dtype == ACL_FLOAT16 ? 1 : dtype == ACL_BF16 ? 2 : 0;
  t.rowwise = t.adaptive;
  t.flat = !t.rowwise && !t.indices && t.ph == 0 && t.ho * t.sh == t.h &&
           (t.ho - 1) * t.sh + (t.kh - 1) * t.dh + 1 <= t.h;
  const BandCost cost = band_cost(t, dtype == ACL_FLOAT ? 4 : 2);
  const std::int64_t rows = t.flat ? t.planes * t.ho : t.ho;  // output rows a band runs along
  const std::int64_t band = choose_band(p, t, cost, rows);
  t.band = band;
  t.band_in = cost.in_rows(band);
  t.bands = (rows + band - 1) / band;
  t.units = t.flat ? t.bands : t.planes * t.bands;
  launch_pool(p, t, dtype, name);
}

// Without dilation or indices: the output size (`bottom` / `right` < 0: padding as at the
// start), out's shape, contiguity, then the launch.
void size_and_launch(Plan& p, PoolTiling& t, const aclTensor& x, const aclTensor& y, bool ceil_mode,
                     std::int64_t bottom, std::int64_t right, const char* name) {
  t.ho = out_size(t.h, t.kh, t.sh, t.ph, 1, ceil_mode, bottom);
  t.wo = out_size(t.w, t.kw, t.sw, t.pw, 1, ceil_mode, right);
  p.require(t.ho > 0 && t.wo > 0, "the output would be empty (kernel larger than the input)");
  p.require_shape(y, out_shape(x, t), "out");
  p.require_contiguous(x, "self");
  p.require_contiguous(y, "out");
  plan_and_launch(p, t, x.dtype, name);
}

// AdaptiveAvgPool2d: windows of varying size, or regular pooling when the output size divides
// the input's.
void plan_adaptive_avg_pool(Plan& p, const aclTensor* self, const aclIntArray* outputSize,
                            aclTensor* out) {
  const aclTensor& x = p.input(self, "self");
  const std::vector<std::int64_t> size = p.int_array(outputSize, "outputSize");
  const aclTensor& y = p.output(out, "out");
  p.require_dtype(x, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "self");
  p.require(y.dtype == x.dtype, "out must have self's data type");
  kernels::PoolTiling t;
  t.max = false;
  t.adaptive = true;
  planes_of(p, x, t);
  pair(p, size, "outputSize", t.ho, t.wo);
  p.require(t.ho > 0 && t.wo > 0, "outputSize must be positive");
  p.require_shape(y, out_shape(x, t), "out");
  if (t.h % t.ho == 0 && t.w % t.wo == 0) {  // uniform windows: regular pooling
    t.adaptive = false;
    t.kh = t.sh = t.h / t.ho;
    t.kw = t.sw = t.w / t.wo;
  }
  p.require_contiguous(x, "self");
  p.require_contiguous(y, "out");
  plan_and_launch(p, t, x.dtype, "AdaptiveAvgPool2d");
}

}  // namespace
}  // namespace npusim::aclnn

namespace nn = npusim::aclnn;
namespace nk = npusim::aclnn::kernels;

aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride,
    const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode, aclTensor* out,
    aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnMaxPool2dWithIndicesGetWorkspaceSize", "MaxPool2dWithIndices", workspaceSize, executor,
      [&](nn::Plan& p) {
        const aclTensor& x = p.input(self, "self");
        const std::vector<std::int64_t> k = p.int_array(kernelSize, "kernelSize");
        const std::vector<std::int64_t> s = p.int_array(stride, "stride");
        const std::vector<std::int64_t> pad = p.int_array(padding, "padding");
        const std::vector<std::int64_t> dil = p.int_array(dilation, "dilation");
        const aclTensor& y = p.output(out, "out");
        const aclTensor& yi = p.output(indices, "indices");
        p.require_dtype(x, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "self");
        p.require(y.dtype == x.dtype, "out must have self's data type");
        p.require_dtype(yi, {ACL_INT32}, "indices");
        nk::PoolTiling t;
        t.max = true;
        t.indices = true;
        nn::planes_of(p, x, t);
        nn::pair(p, k, "kernelSize", t.kh, t.kw);
        nn::pair(p, s, "stride", t.sh, t.sw, k);
        nn::pair(p, pad, "padding", t.ph, t.pw);
        nn::pair(p, dil, "dilation", t.dh, t.dw);
        p.require(t.kh > 0 && t.kw > 0 && t.sh > 0 && t.sw > 0 && t.dh > 0 && t.dw > 0,
                  "kernelSize, stride and dilation must be positive");
        p.require(t.ph >= 0 && t.pw >= 0 && 2 * t.ph <= t.kh && 2 * t.pw <= t.kw,
                  "padding must be between 0 and half the kernel size");
        p.require(t.h * t.w < (1LL << 24), "H * W must be below 2^24 (indices)");
        t.ho = nn::out_size(t.h, t.kh, t.sh, t.ph, t.dh, ceilMode);
        t.wo = nn::out_size(t.w, t.kw, t.sw, t.pw, t.dw, ceilMode);
        p.require(t.ho > 0 && t.wo > 0, "the output would be empty (kernel larger than the input)");
        const std::vector<std::int64_t> shape = nn::out_shape(x, t);
        p.require_shape(y, shape, "out");
        p.require_shape(yi, shape, "indices");
        p.require_contiguous(x, "self");
        p.require_contiguous(y, "out");
        p.require_contiguous(yi, "indices");
        nn::plan_and_launch(p, t, x.dtype, "MaxPool2dWithIndices");
      });
}

aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                           const aclIntArray* strides, const aclIntArray* paddings,
                                           bool ceilMode, bool countIncludePad,
                                           int64_t divisorOverride, int8_t cubeMathType,
                                           aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return nn::prepare("aclnnAvgPool2dGetWorkspaceSize", "AvgPool2d", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       const aclTensor& x = p.input(self, "self");
                       const std::vector<std::int64_t> k = p.int_array(kernelSize, "kernelSize");
                       const std::vector<std::int64_t> s = p.int_array(strides, "strides");
                       const std::vector<std::int64_t> pad = p.int_array(paddings, "paddings");
                       const aclTensor& y = p.output(out, "out");
                       p.require_dtype(x, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "self");
                       p.require(y.dtype == x.dtype, "out must have self's data type");
                       p.require(cubeMathType >= 0 && cubeMathType <= 3,
                                 "cubeMathType must be 0 (KEEP_DTYPE) .. 3 (USE_HF32)");
                       p.require(divisorOverride >= 0, "divisorOverride must not be negative");
                       nk::PoolTiling t;
                       t.max = false;
                       t.count_include_pad = countIncludePad;
                       t.divisor = divisorOverride;
                       nn::planes_of(p, x, t);
                       nn::pair(p, k, "kernelSize", t.kh, t.kw);
                       nn::pair(p, s, "strides", t.sh, t.sw, k);
                       nn::pair(p, pad, "paddings", t.ph, t.pw);
                       p.require(t.kh > 0 && t.kw > 0 && t.sh > 0 && t.sw > 0,
                                 "kernelSize and strides must be positive");
                       p.require(t.ph >= 0 && t.pw >= 0 && 2 * t.ph <= t.kh && 2 * t.pw <= t.kw,
                                 "paddings must be between 0 and half the kernel size");
                       nn::size_and_launch(p, t, x, y, ceilMode, -1, -1, "AvgPool2d");
                     });
}

aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor* self,
                                                   const aclIntArray* outputSize, aclTensor* out,
                                                   uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return nn::prepare("aclnnAdaptiveAvgPool2dGetWorkspaceSize", "AdaptiveAvgPool2d", workspaceSize,
                     executor,
                     [&](nn::Plan& p) { nn::plan_adaptive_avg_pool(p, self, outputSize, out); });
}

aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelShape,
                                         const aclIntArray* strides, const int64_t autoPad,
                                         const aclIntArray* pads, const aclIntArray* dilations,
                                         const int64_t ceilMode, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnMaxPoolGetWorkspaceSize", "MaxPool", workspaceSize, executor, [&](nn::Plan& p) {
        const aclTensor& x = p.input(self, "self");
        const std::vector<std::int64_t> k = p.int_array(kernelShape, "kernelShape");
        const std::vector<std::int64_t> s = p.int_array(strides, "strides");
        const std::vector<std::int64_t> pad = p.int_array(pads, "pads");
        const std::vector<std::int64_t> dil = p.int_array(dilations, "dilations");
        const aclTensor& y = p.output(out, "out");
        p.require_dtype(x, {ACL_FLOAT, ACL_FLOAT16}, "self");
        p.require(y.dtype == x.dtype, "out must have self's data type");
        p.require(autoPad == 0, "autoPad must be 0 (NOTSET)");
        nk::PoolTiling t;
        t.max = true;
        nn::planes_of(p, x, t);
        nn::pair(p, k, "kernelShape", t.kh, t.kw);
        p.require(s.size() <= 2, "strides must have 0, 1 or 2 values");
        nn::pair(p, s, "strides", t.sh, t.sw, {1});
        std::int64_t top, left, bottom, right;
        nn::four_pads(p, pad, top, left, bottom, right);
        p.require(dil.size() <= 2 || dil.size() == 4, "dilations must have 0, 1, 2 or 4 values");
        for (std::int64_t d : dil) p.require(d == 1, "dilations must be 1");
        p.require(t.kh > 0 && t.kw > 0 && t.sh > 0 && t.sw > 0,
                  "kernelShape and strides must be positive");
        p.require(top >= 0 && left >= 0 && bottom >= 0 && right >= 0 && top + bottom <= t.kh &&
                      left + right <= t.kw,
                  "pads must not be negative and their sum per axis at most the kernel size");
        t.ph = top;
        t.pw = left;
        nn::size_and_launch(p, t, x, y, ceilMode != 0, bottom, right, "MaxPool");
      });
}
