// SPDX-License-Identifier: Apache-2.0
// aclnnConvolution (see aclnn_convolution.h): im2col on the vector cores into the workspace
// (conv_kernels.h), then the cube matmul kernel (matmul_kernels.h) per image:
// out[b] (cout x ho*wo) = weight (cout x cin*kh*kw) * col[b] (+ bias), per group g on its
// cout/groups output channels and cin/groups input channels. 1-D runs as 2-D with H = 1. A 1x1
// convolution with stride 1 and no padding multiplies the input directly (no im2col; with a
// bias the vector kernel only writes the row of ones the bias step reads).
#include <algorithm>
#include <string>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "runtime/aclnn/conv_kernels.h"
#include "runtime/aclnn/matmul.h"

namespace npusim::aclnn {
namespace {

// A stride / padding / dilation array of 1 or 2 values as (h, w).
void pair_of(const Plan& p, const std::vector<std::int64_t>& v, const char* what, std::int64_t min,
             std::int64_t& h, std::int64_t& w) {
  p.require(v.size() == 1 || v.size() == 2,
            std::string(what) + " must have 1 or 2 values for a 2-D convolution");
  h = v[0];
  w = v.size() == 2 ? v[1] : v[0];
  p.require(h >= min && w >= min,
            std::string(what) + " values must be at least " + std::to_string(min));
}

// A convolution as 2-D (a 1-D one has h = kh = 1): sizes, the input's strides, the window.
struct Conv {
  std::int64_t n = 0, cin = 0, h = 0, w = 0, xs[4] = {};  // input [n, cin, h, w], strides
  std::int64_t cout = 0, kh = 0, kw = 0, groups = 1, oh = 0, ow = 0;
  std::int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
};

// The window's stride, padding and dilation into `g`: one value each (1-D) or pairs (2-D).
void window_of(Plan& p, bool one_d, const std::vector<std::int64_t>& stride_v,
               const std::vector<std::int64_t>& padding_v,
               const std::vector<std::int64_t>& dilation_v, Conv& g) {
  if (!one_d) {
    pair_of(p, stride_v, "stride", 1, g.sh, g.sw);
    pair_of(p, padding_v, "padding", 0, g.ph, g.pw);
    pair_of(p, dilation_v, "dilation", 1, g.dh, g.dw);
    return;
  }
  p.require(stride_v.size() == 1 && padding_v.size() == 1 && dilation_v.size() == 1,
            "a 1-D convolution takes 1 stride, padding and dilation value");
  g.sw = stride_v[0];
  g.pw = padding_v[0];
  g.dw = dilation_v[0];
  p.require(g.sw >= 1 && g.pw >= 0 && g.dw >= 1, "stride and dilation must be >= 1, padding >= 0");
}

// Input and weight sizes into `g` (1-D as 2-D with H = 1: the input's H stride spans one row).
void sizes_of(const aclTensor& x, const aclTensor& w, bool one_d, Conv& g) {
  const std::size_t rank = x.dims.size();
  g.n = x.dims[0];
  g.cin = x.dims[1];
  g.h = one_d ? 1 : x.dims[2];
  g.w = x.dims[rank - 1];
  g.xs[0] = x.strides[0];
  g.xs[1] = x.strides[1];
  g.xs[2] = one_d ? g.w * x.strides[2] : x.strides[2];  // 1-D: one row
  g.xs[3] = x.strides[rank - 1];
  g.cout = w.dims[0];
  g.kh = one_d ? 1 : w.dims[2];
  g.kw = w.dims[rank - 1];
}

// Groups divide the channels; the output is not empty.
void check_groups_and_size(Plan& p, const aclTensor& w, const Conv& g) {
  p.require(g.groups >= 1 && g.cin % g.groups == 0 && g.cout % g.groups == 0,
            "groups (" + std::to_string(g.groups) + ") must divide the input channels (" +
                std::to_string(g.cin) + ") and the output channels (" + std::to_string(g.cout) +
                ")");
  p.require(w.dims[1] == g.cin / g.groups, "weight's input channels (" +
                                               std::to_string(w.dims[1]) +
                                               ") must be input's / groups (" +
                                               std::to_string(g.cin / g.groups) + ")");
  p.require(g.n > 0 && g.cin > 0 && g.cout > 0 && g.kh > 0 && g.kw > 0 && g.oh > 0 && g.ow > 0,
            "empty tensors (or a kernel larger than the padded input) are not supported");
}

// Output and bias shapes; weight, bias and output contiguous.
void check_layouts(Plan& p, const Conv& g, bool one_d, const aclTensor& w, const aclTensor* bias,
                   const aclTensor& y) {
  if (one_d) {
    p.require_shape(y, {g.n, g.cout, g.ow}, "output");
  } else {
    p.require_shape(y, {g.n, g.cout, g.oh, g.ow}, "output");
  }
  if (bias != nullptr) p.require_shape(*bias, {g.cout}, "bias");
  p.require_contiguous(w, "weight");
  p.require_contiguous(y, "output");
  if (bias != nullptr) p.require_contiguous(*bias, "bias");
}

// Checks the arrays and shapes (types are checked by the caller) and returns the geometry.
Conv conv_geometry(Plan& p, const aclTensor& x, const aclTensor& w, const aclTensor* bias,
                   const aclTensor& y, const aclIntArray* stride_a, const aclIntArray* padding_a,
                   const aclIntArray* dilation_a, std::int64_t groups) {
  const std::vector<std::int64_t> stride_v = p.int_array(stride_a, "stride");
  const std::vector<std::int64_t> padding_v = p.int_array(padding_a, "padding");
  const std::vector<std::int64_t> dilation_v = p.int_array(dilation_a, "dilation");
  const std::size_t rank = x.dims.size();
  p.require((rank == 4 || rank == 3) && w.dims.size() == rank,
            "only 1-D (NCL) and 2-D (NCHW) convolutions are supported by the simulator");
  const bool one_d = rank == 3;  // computed as 2-D with H = 1
  Conv g;
  window_of(p, one_d, stride_v, padding_v, dilation_v, g);
  sizes_of(x, w, one_d, g);
  g.groups = groups;
  g.oh = (g.h + 2 * g.ph - g.dh * (g.kh - 1) - 1) / g.sh + 1;
  g.ow = (g.w + 2 * g.pw - g.dw * (g.kw - 1) - 1) / g.sw + 1;
  check_groups_and_size(p, w, g);
  check_layouts(p, g, one_d, w, bias, y);
  return g;
}

// A 1x1 convolution with stride 1 and no padding over rows of contiguous pixels needs no
// im2col: image b's input already is the cin x h*w matrix (row stride: the channel stride).
bool is_direct(const Conv& g) {
  return g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0 &&
         g.xs[3] == 1 && (g.h == 1 || g.xs[2] == g.w) && g.xs[1] >= g.oh * g.ow;
}

// Per (image, group): out rows [g*cout_g, +cout_g) = the weight rows of group g (cout_g x k) *
// the k rows of col (or input channels) of group g.
MatmulTiling conv_matmul(const Plan& p, const Conv& g, bool direct, bool bias,
                         std::int64_t col_stride, std::int64_t out_image_stride, std::uint32_t es,
                         std::uint32_t& blocks) {
  const std::int64_t cin_g = g.cin / g.groups, cout_g = g.cout / g.groups;
  const std::int64_t k = cin_g * g.kh * g.kw, pixels = g.oh * g.ow;
  MatmulTiling t;
  t.m = static_cast<std::uint32_t>(cout_g);
  t.n = static_cast<std::uint32_t>(pixels);
  t.k = static_cast<std::uint32_t>(k);
  t.lda = k;
  t.ldb = direct ? g.xs[1] : pixels;
  t.ldc = pixels;
  t.batch = static_cast<std::uint64_t>(g.n * g.groups);
  t.batchDims = 2;
  t.batchShape[0] = g.n;
  t.batchShape[1] = g.groups;
  t.aBatchStride[1] = cout_g * k;
  t.bBatchStride[0] = direct ? g.xs[0] : col_stride;
  t.bBatchStride[1] = direct ? cin_g * g.xs[1] : k * pixels;
  t.cBatchStride[0] = out_image_stride;
  t.cBatchStride[1] = cout_g * pixels;
  t.biasBatchStride[1] = cout_g;
  t.bias = bias;
  blocks = tile_matmul(p, es, t);
  return t;
}

Im2colTiling conv_im2col(const Plan& p, const Conv& g, bool direct, std::int64_t ones) {
  Im2colTiling c;
  c.batch = direct ? 0 : g.n;  // direct: the kernel only writes the ones (bias)
  c.cin = g.cin;
  c.h = g.h;
  c.w = g.w;
  c.kh = g.kh;
  c.kw = g.kw;
  c.oh = g.oh;
  c.ow = g.ow;
  c.strideH = g.sh;
  c.strideW = g.sw;
  c.padH = g.ph;
  c.padW = g.pw;
  c.dilH = g.dh;
  c.dilW = g.dw;
  for (int d = 0; d < 4; ++d) c.inStride[d] = g.xs[d];
  c.colStride = (g.cin * g.kh * g.kw * g.oh * g.ow + 15) / 16 * 16;
  c.onesLen = ones;
  c.chunk = static_cast<std::uint32_t>(std::min<std::uint64_t>(256, p.ub_bytes() / (7 * 32)));
  return c;
}

void check_conv_types(Plan& p, const aclTensor& x, const aclTensor& w, const aclTensor* bias,
                      const aclTensor& y, std::int8_t cube) {
  p.require_dtype(x, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}, "input");
  p.require(w.dtype == x.dtype && y.dtype == x.dtype && (bias == nullptr || bias->dtype == x.dtype),
            "input, weight, bias and output must have the same data type");
  check_cube_math(p, x.dtype, cube);
  p.require(x.dtype != ACL_FLOAT || cube != 2,
            "cubeMathType 2 (USE_FP16) with FLOAT convolutions is not supported by the simulator");
}

/// HFLOAT32 convolutions: input and weight are rounded into the workspace after its first `ws`
/// bytes (at `off_x`, `off_w`) by a vector kernel; returns the workspace's new size.
std::uint64_t round_to_hf32(Plan& p, const aclTensor& x, const aclTensor& w, std::uint64_t ws,
                            std::uint64_t& off_x, std::uint64_t& off_w) {
  check_dense(p, x, "input");
  CastTiling ct;
  ct.countA = static_cast<std::uint64_t>(span_of(x));
  ct.countB = static_cast<std::uint64_t>(span_of(w));
  ct.hf32 = true;
  off_x = (ws + 31) / 32 * 32;
  off_w = off_x + (ct.countA * 4 + 31) / 32 * 32;
  const auto blocks = static_cast<std::uint32_t>(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(p.vector_cores(),
                                 (ct.countA + ct.countB + ct.chunk - 1) / ct.chunk)));
  p.launch("RoundToHf32", convert_inputs_kernel_identity(true), blocks, Core::kVector,
           [ct, x_at = off_x, w_at = off_w](const Addrs& a) {
             convert_inputs_kernel(a.in[0], a.workspace + x_at, a.in[1], a.workspace + w_at, ct);
           });
  return off_w + (ct.countB * 4 + 31) / 32 * 32;
}

void plan_conv(Plan& p, const aclTensor* input_t, const aclTensor* weight_t,
               const aclTensor* bias_t, const aclIntArray* stride_a, const aclIntArray* padding_a,
               const aclIntArray* dilation_a, bool transposed, const aclIntArray* output_padding,
               std::int64_t groups, const aclTensor* output_t, std::int8_t cube) {
  const aclTensor& x = p.input(input_t, "input");
  const aclTensor& w = p.input(weight_t, "weight");
  const aclTensor* bias = p.optional_input(bias_t, "bias");
  const aclTensor& y = p.output(output_t, "output");
  if (output_padding != nullptr) p.int_array(output_padding, "outputPadding");  // live check
  p.require(!transposed, "transposed convolution is not supported by the simulator");
  check_conv_types(p, x, w, bias, y, cube);
  const bool hf32 = x.dtype == ACL_FLOAT && cube != 0;  // 1, 3: HFLOAT32 input and weight
  const Conv g = conv_geometry(p, x, w, bias, y, stride_a, padding_a, dilation_a, groups);
  const bool direct = is_direct(g);
  const auto es = static_cast<std::uint32_t>(element_size(x.dtype));
  const std::int64_t col_stride = (g.cin * g.kh * g.kw * g.oh * g.ow + 15) / 16 * 16;
  std::uint32_t mm_blocks = 0;
  const MatmulTiling t =
      conv_matmul(p, g, direct, bias != nullptr, col_stride, y.strides[0], es, mm_blocks);
  const Im2colTiling c = conv_im2col(p, g, direct, bias != nullptr ? t.baseN : 0);
  // Workspace: col, the ones, then (HFLOAT32) the rounded copies of input and weight.
  const std::uint64_t col_bytes = static_cast<std::uint64_t>(c.batch * c.colStride) * es;
  std::uint64_t ws = col_bytes + static_cast<std::uint64_t>(c.onesLen) * es;
  std::uint64_t off_x = 0, off_w = 0;
  if (hf32) ws = round_to_hf32(p, x, w, ws, off_x, off_w);
  p.set_workspace(ws);

  const int type = static_cast<int>(mm_type(x.dtype));
  if (!direct || bias != nullptr) {
    const auto vec_blocks = static_cast<std::uint32_t>(std::max<std::int64_t>(
        1, std::min<std::int64_t>(p.vector_cores(), c.batch * g.cin * g.kh * g.kw)));
    p.launch("Im2col", im2col_kernel_identity(type), vec_blocks, Core::kVector,
             [c, type, hf32, off_x](const Addrs& a) {
               im2col_kernel(type, hf32 ? a.workspace + off_x : a.in[0], a.workspace, c);
             });
  }
  const MmType in = mm_type(x.dtype);
  p.launch("Conv2dMatMul", matmul_kernel_identity(in, in), mm_blocks, Core::kCube,
           [t, in, col_bytes, direct, hf32, off_x, off_w](const Addrs& a) {
             std::uint8_t* input = hf32 ? a.workspace + off_x : a.in[0];
             std::uint8_t* weight = hf32 ? a.workspace + off_w : a.in[1];
             matmul_kernel(in, in, weight, direct ? input : a.workspace, a.out[0], a.in[2],
                           a.workspace + col_bytes, t);
           });
}

}  // namespace
}  // namespace npusim::aclnn

namespace nn = npusim::aclnn;

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                             const aclTensor* bias, const aclIntArray* stride,
                                             const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, const int64_t groups,
                                             aclTensor* output, int8_t cubeMathType,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnConvolutionGetWorkspaceSize", "Convolution", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_conv(p, input, weight, bias, stride, padding, dilation, transposed,
                                     outputPadding, groups, output, cubeMathType);
                     });
}
