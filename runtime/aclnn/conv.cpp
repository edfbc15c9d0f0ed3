// SPDX-License-Identifier: Apache-2.0
// aclnnConvolution (see aclnn_convolution.h): im2col on the vector cores into the workspace
// (conv_kernels.h), then the cube matmul kernel (matmul_kernels.h) per image:
// out[b] (cout x ho*wo) = weight (cout x cin*kh*kw) * col[b] (+ bias). A 1x1 convolution with
// stride 1 and no padding multiplies the input directly (no im2col; with a bias the vector
// kernel only writes the row of ones the bias step reads).
#include "aclnnop/aclnn_convolution.h"

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/aclnn/conv_kernels.h"
#include "runtime/aclnn/matmul.h"

namespace npusim::aclnn {
namespace {

// A stride / padding / dilation array of 1 or 2 values as (h, w).
void pair_of(const Plan& p, const std::vector<std::int64_t>& v, const char* what,
             std::int64_t min, std::int64_t& h, std::int64_t& w) {
  p.require(v.size() == 1 || v.size() == 2,
            std::string(what) + " must have 1 or 2 values for a 2-D convolution");
  h = v[0];
  w = v.size() == 2 ? v[1] : v[0];
  p.require(h >= min && w >= min,
            std::string(what) + " values must be at least " + std::to_string(min));
}

void plan_conv(Plan& p, const aclTensor* input_t, const aclTensor* weight_t,
               const aclTensor* bias_t, const aclIntArray* stride_a, const aclIntArray* padding_a,
               const aclIntArray* dilation_a, bool transposed, const aclIntArray* output_padding,
               std::int64_t groups, const aclTensor* output_t, std::int8_t cube) {
  const aclTensor& x = p.input(input_t, "input");
  const aclTensor& w = p.input(weight_t, "weight");
  const aclTensor* bias = p.optional_input(bias_t, "bias");
  const aclTensor& y = p.output(output_t, "output");
  std::int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  pair_of(p, p.int_array(stride_a, "stride"), "stride", 1, sh, sw);
  pair_of(p, p.int_array(padding_a, "padding"), "padding", 0, ph, pw);
  pair_of(p, p.int_array(dilation_a, "dilation"), "dilation", 1, dh, dw);
  if (output_padding != nullptr) p.int_array(output_padding, "outputPadding");  // live check
  p.require(!transposed, "transposed convolution is not supported by the simulator");
  p.require(groups == 1, "groups = " + std::to_string(groups) +
                             " is not supported by the simulator (only 1)");
  p.require_dtype(x, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}, "input");
  p.require(w.dtype == x.dtype && y.dtype == x.dtype && (bias == nullptr || bias->dtype == x.dtype),
            "input, weight, bias and output must have the same data type");
  check_cube_math(p, x.dtype, cube);
  p.require(x.dims.size() == 4 && w.dims.size() == 4,
            "only 2-D convolution (4-D NCHW input and weight) is supported by the simulator");
  const std::int64_t n = x.dims[0], cin = x.dims[1], h = x.dims[2], wd = x.dims[3];
  const std::int64_t cout = w.dims[0], kh = w.dims[2], kw = w.dims[3];
  p.require(w.dims[1] == cin, "weight's input channels (" + std::to_string(w.dims[1]) +
                                  ") differ from input's (" + std::to_string(cin) + ")");
  const std::int64_t oh = (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
  const std::int64_t ow = (wd + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
  p.require(n > 0 && cin > 0 && cout > 0 && kh > 0 && kw > 0 && oh > 0 && ow > 0,
            "empty tensors (or a kernel larger than the padded input) are not supported");
  p.require_shape(y, {n, cout, oh, ow}, "output");
  if (bias != nullptr) p.require_shape(*bias, {cout}, "bias");
  p.require_contiguous(w, "weight");
  p.require_contiguous(y, "output");
  if (bias != nullptr) p.require_contiguous(*bias, "bias");

  const std::int64_t k = cin * kh * kw, pixels = oh * ow;
  p.require(k <= 65535 && pixels <= 65535,
            "cin*kh*kw and ho*wo must not exceed 65535 (the ND2NZ copy's row stride limit)");
  const auto es = static_cast<std::uint32_t>(element_size(x.dtype));

  // A 1x1 convolution with stride 1 and no padding over rows of contiguous pixels needs no
  // im2col: image b's input already is the cin x h*w matrix (row stride: the channel stride).
  const bool direct = kh == 1 && kw == 1 && sh == 1 && sw == 1 && ph == 0 && pw == 0 &&
                      x.strides[3] == 1 && x.strides[2] == wd && x.strides[1] >= pixels &&
                      x.strides[1] <= 65535;
  MatmulTiling t;
  t.m = static_cast<std::uint32_t>(cout);
  t.n = static_cast<std::uint32_t>(pixels);
  t.k = static_cast<std::uint32_t>(k);
  t.lda = k;
  t.ldb = direct ? x.strides[1] : pixels;
  t.ldc = pixels;
  t.batch = static_cast<std::uint64_t>(n);
  t.batchDims = 1;
  t.batchShape[0] = n;
  t.bias = bias != nullptr;
  const std::uint32_t mm_blocks = tile_matmul(p, es, t);

  Im2colTiling c;
  c.batch = direct ? 0 : n;  // direct: the kernel only writes the ones (bias)
  c.cin = cin;
  c.h = h;
  c.w = wd;
  c.kh = kh;
  c.kw = kw;
  c.oh = oh;
  c.ow = ow;
  c.strideH = sh;
  c.strideW = sw;
  c.padH = ph;
  c.padW = pw;
  c.dilH = dh;
  c.dilW = dw;
  for (int d = 0; d < 4; ++d) c.inStride[d] = x.strides[d];
  c.colStride = (k * pixels + 15) / 16 * 16;
  c.onesLen = bias != nullptr ? t.baseN : 0;
  c.chunk = static_cast<std::uint32_t>(std::min<std::uint64_t>(256, p.ub_bytes() / 96));
  t.aBatchStride[0] = 0;
  t.bBatchStride[0] = direct ? x.strides[0] : c.colStride;
  t.cBatchStride[0] = y.strides[0];
  const std::uint64_t col_bytes = static_cast<std::uint64_t>(c.batch * c.colStride) * es;
  p.set_workspace(col_bytes + static_cast<std::uint64_t>(c.onesLen) * es);

  const int type = static_cast<int>(mm_type(x.dtype));
  if (!direct || bias != nullptr) {
    const auto vec_blocks = static_cast<std::uint32_t>(
        std::max<std::int64_t>(1, std::min<std::int64_t>(p.vector_cores(), c.batch * k)));
    p.launch("Im2col", im2col_kernel_identity(type), vec_blocks, Core::kVector,
             [c, type](const Addrs& a) { im2col_kernel(type, a.in[0], a.workspace, c); });
  }
  const MmType in = mm_type(x.dtype);
  p.launch("Conv2dMatMul", matmul_kernel_identity(in, in), mm_blocks, Core::kCube,
           [t, in, col_bytes, direct](const Addrs& a) {
             matmul_kernel(in, in, a.in[1], direct ? a.in[0] : a.workspace, a.out[0], a.in[2],
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
                                             const aclIntArray* outputPadding,
                                             const int64_t groups, aclTensor* output,
                                             int8_t cubeMathType, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return nn::prepare("aclnnConvolutionGetWorkspaceSize", "Convolution", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_conv(p, input, weight, bias, stride, padding, dilation,
                                     transposed, outputPadding, groups, output, cubeMathType);
                     });
}

aclnnStatus aclnnConvolution(void* workspace, const uint64_t workspaceSize,
                             aclOpExecutor* executor, aclrtStream stream) {
  return nn::execute("aclnnConvolution", workspace, workspaceSize, executor, stream);
}
