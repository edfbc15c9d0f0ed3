// SPDX-License-Identifier: Apache-2.0
// aclnnMatmul, aclnnMm and aclnnBatchMatMul on the cube (matmul_kernels.h): out = self @ mat2
// with fp32 accumulation.
//  - Types: self and mat2 FLOAT16, BFLOAT16 or FLOAT, the same type; out the same type, or FLOAT
//    for FLOAT16 / BFLOAT16 inputs (the accumulator converted by Fixpipe without rounding to the
//    input type).
//  - Shapes: aclnnMm 2-D x 2-D; aclnnBatchMatMul 3-D x 3-D, batch equal or 1 on one side
//    (broadcast); aclnnMatmul 1-D to 8-D with NumPy-style rules (a 1-D self is a row, a 1-D mat2
//    a column, and that dimension is dropped from out; batch dimensions broadcast).
//  - Views: each operand's matrix may be a strided view with unit stride on either of its last
//    two axes (x @ w.T passes w.T as a view with strides (1, K)); other views are refused with
//    ACLNN_ERR_PARAM_INVALID, as are row strides over 65535 elements (the ND2NZ copy's limit).
//    out's last dimension must be contiguous. An empty out launches a kernel with nothing to do;
//    an empty reduce dimension (K = 0, out all zeros) is refused.
//  - Accuracy vs a double-precision reference: the products are exact in fp32 and summed in
//    fp32, so |err| <~ 1e-3 * sum|a*b| for FLOAT16 / BFLOAT16 inputs once rounded to a 16-bit out
//    (FLOAT16 out: 2^-11 relative; BFLOAT16 out: 2^-8), ~1e-5 * sum|a*b| with a FLOAT out.
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/aclnn/matmul.h"

namespace npusim::aclnn {

MmType mm_type(int dtype) {
  if (dtype == ACL_FLOAT16) return MmType::kHalf;
  if (dtype == ACL_BF16) return MmType::kBf16;
  return MmType::kFloat;
}

void check_cube_math(const Plan& p, int dtype, std::int8_t cube) {
  p.require(cube >= -1 && cube <= 3,
            "cubeMathType " + std::to_string(cube) +
                " is not one of -1 (FP16FP32_KEEP_DTYPE), 0 (KEEP_DTYPE), 1 "
                "(ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16), 3 (USE_HF32)");
  if (dtype == ACL_FLOAT) {
    p.require(cube == 0 || cube == 1,
              "cubeMathType " + std::to_string(cube) +
                  " with FLOAT inputs (computing in FLOAT16 / HFLOAT32) is not supported by the "
                  "simulator; use 0 (KEEP_DTYPE) or 1 (ALLOW_FP32_DOWN_PRECISION, computed in "
                  "FLOAT)");
  }
}

namespace {

std::uint32_t ceil16(std::uint64_t v) { return static_cast<std::uint32_t>((v + 15) / 16 * 16); }
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace

std::uint32_t tile_matmul(const Plan& p, std::uint32_t es, MatmulTiling& t) {
  const std::uint64_t cores = std::max<std::uint32_t>(p.cube_cores(), 1);
  std::uint64_t best_cost = ~0ull;
  MatmulTiling best = t;
  for (std::uint32_t bm : {128u, 64u, 32u, 16u}) {
    for (std::uint32_t bn : {256u, 128u, 64u, 32u, 16u}) {
      const std::uint32_t base_m = std::min(bm, ceil16(t.m));
      const std::uint32_t base_n = std::min(bn, ceil16(t.n));
      if (static_cast<std::uint64_t>(base_m) * base_n * 4 > p.l0c_bytes()) continue;
      std::uint32_t base_k = 0;
      for (std::uint32_t bk : {256u, 128u, 64u, 32u, 16u}) {
        if (2ull * base_m * bk * es <= p.l0a_bytes() && 2ull * bk * base_n * es <= p.l0b_bytes()) {
          base_k = bk;
          break;
        }
      }
      if (base_k == 0) continue;
      base_k = std::min(base_k, ceil16(t.k));
      // L1: the bias column's buffer, then two A and two B buffers of stepK * baseK k values.
      const std::uint64_t bias_bytes = t.bias ? 32ull * base_m : 0;
      if (bias_bytes >= p.l1_bytes()) continue;
      const std::uint64_t l1 = p.l1_bytes() - bias_bytes;
      const std::uint64_t step_bytes = 2ull * (base_m + base_n) * base_k * es;
      if (step_bytes > l1) continue;
      const std::uint64_t tiles = t.batch * ceil_div(t.m, base_m) * ceil_div(t.n, base_n);
      const std::uint64_t cost =
          ceil_div(tiles, cores) * (static_cast<std::uint64_t>(base_m) * base_n +
                                    32ull * (base_m + base_n));
      if (cost < best_cost) {
        best_cost = cost;
        best = t;
        best.baseM = base_m;
        best.baseN = base_n;
        best.baseK = base_k;
        best.stepK = static_cast<std::uint32_t>(
            std::min<std::uint64_t>({l1 / step_bytes, 8, ceil_div(t.k, base_k)}));
        best.mTiles = static_cast<std::uint32_t>(ceil_div(t.m, base_m));
        best.nTiles = static_cast<std::uint32_t>(ceil_div(t.n, base_n));
        // A panel resident: useful when blocks get several tiles along n; the rest of L1 holds
        // two B buffers.
        const std::uint64_t panel = static_cast<std::uint64_t>(base_m) * ceil16(t.k) * es;
        const std::uint64_t b_step = 2ull * base_n * base_k * es;
        best.aResident = best.nTiles > 1 && tiles > cores && panel + b_step <= l1;
        if (best.aResident) {
          best.stepK = static_cast<std::uint32_t>(
              std::min<std::uint64_t>({(l1 - panel) / b_step, 8, ceil_div(t.k, base_k)}));
        }
      }
    }
  }
  p.require(best_cost != ~0ull, "no cube tiling fits this device's L0/L1 buffers");
  t = best;
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>(cores, t.batch * t.mTiles * t.nTiles));
}

namespace {

// The matrix of a rows x cols view with strides (sr, sc): false when neither axis is unit-stride.
bool matrix_layout(std::int64_t rows, std::int64_t cols, std::int64_t sr, std::int64_t sc,
                   bool& trans, std::int64_t& ld) {
  if (sc == 1 || cols == 1) {
    trans = false;
    ld = rows == 1 ? cols : sr;
    return true;
  }
  if (sr == 1 || rows == 1) {
    trans = true;
    ld = cols == 1 ? rows : sc;
    return true;
  }
  return false;
}

enum class Kind { kMm, kBatch, kMatmul };

void plan_matmul(Plan& p, Kind kind, const aclTensor* self_t, const aclTensor* mat2_t,
                 const aclTensor* out_t, std::int8_t cube) {
  const aclTensor& a = p.input(self_t, "self");
  const aclTensor& b = p.input(mat2_t, "mat2");
  const aclTensor& c = p.output(out_t, "out");
  p.require_dtype(a, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}, "self");
  p.require_dtype(b, {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}, "mat2");
  p.require(a.dtype == b.dtype, "self (" + dtype_name(a.dtype) + ") and mat2 (" +
                                    dtype_name(b.dtype) +
                                    ") must have the same data type (mixed types are not "
                                    "supported by the simulator)");
  p.require(c.dtype == a.dtype || (a.dtype != ACL_FLOAT && c.dtype == ACL_FLOAT),
            "out has data type " + dtype_name(c.dtype) + "; with " + dtype_name(a.dtype) +
                " inputs it must be " + dtype_name(a.dtype) +
                (a.dtype != ACL_FLOAT ? " or FLOAT" : ""));
  check_cube_math(p, a.dtype, cube);

  const std::size_t ra = a.dims.size(), rb = b.dims.size();
  if (kind == Kind::kMm) {
    p.require(ra == 2 && rb == 2, "aclnnMm takes 2-D self and mat2");
  } else if (kind == Kind::kBatch) {
    p.require(ra == 3 && rb == 3, "aclnnBatchMatMul takes 3-D self and mat2");
  } else {
    p.require(ra >= 1 && rb >= 1 && ra <= 8 && rb <= 8,
              "aclnnMatmul takes self and mat2 of 1 to 8 dimensions");
  }
  MatmulTiling t;
  std::int64_t m = 1, k = 0, k2 = 0, n = 1, a_sr = 0, a_sc = 0, b_sr = 0, b_sc = 1;
  if (ra == 1) {
    k = a.dims[0];
    a_sc = a.strides[0];
    a_sr = k;
  } else {
    m = a.dims[ra - 2];
    k = a.dims[ra - 1];
    a_sr = a.strides[ra - 2];
    a_sc = a.strides[ra - 1];
  }
  if (rb == 1) {
    k2 = b.dims[0];
    b_sr = b.strides[0];
  } else {
    k2 = b.dims[rb - 2];
    n = b.dims[rb - 1];
    b_sr = b.strides[rb - 2];
    b_sc = b.strides[rb - 1];
  }
  p.require(k == k2, "self's reduce dimension (" + std::to_string(k) +
                         ") differs from mat2's (" + std::to_string(k2) + ")");
  // Batch dimensions, aligned right.
  const std::size_t ba = ra > 2 ? ra - 2 : 0, bb = rb > 2 ? rb - 2 : 0;
  const std::size_t nb = std::max(ba, bb);
  std::vector<std::int64_t> shape(nb, 1);
  for (std::size_t d = 0; d < nb; ++d) {
    const std::int64_t da = d + ba >= nb ? a.dims[d + ba - nb] : 1;
    const std::int64_t db = d + bb >= nb ? b.dims[d + bb - nb] : 1;
    p.require(da == db || da == 1 || db == 1,
              "the batch dimensions of self and mat2 do not broadcast");
    shape[d] = std::max(da, db);
  }
  std::vector<std::int64_t> expect = shape;
  if (ra > 1) expect.push_back(m);
  if (rb > 1) expect.push_back(n);
  p.require_shape(c, expect, "out");
  const MmType in = mm_type(a.dtype), out = mm_type(c.dtype);
  if (c.numel() == 0) {  // nothing to compute: a launch whose blocks have no tile
    t.baseM = t.baseN = t.baseK = 16;
    t.stepK = 1;
    t.batch = 0;
    p.launch("MatMul", matmul_kernel_identity(in, out), 1, Core::kCube,
             [t, in, out](const Addrs& ad) {
               matmul_kernel(in, out, ad.in[0], ad.in[1], ad.out[0], nullptr, nullptr, t);
             });
    return;
  }
  p.require(k > 0, "a reduce dimension of 0 (an all-zero out) is not supported by the simulator");
  p.require(matrix_layout(m, k, a_sr, a_sc, t.transA, t.lda),
            "self's last two dimensions must have a unit stride (a row-major or transposed view)");
  p.require(matrix_layout(k, n, b_sr, b_sc, t.transB, t.ldb),
            "mat2's last two dimensions must have a unit stride (a row-major or transposed view)");
  const std::size_t rc = c.dims.size();
  std::int64_t ldc = n;
  if (rb > 1) {
    p.require(n == 1 || c.strides[rc - 1] == 1, "out's last dimension must be contiguous");
    if (ra > 1) ldc = c.strides[rc - 2];
  } else if (ra > 1) {
    ldc = c.strides[rc - 1];  // out ends in M: an m x 1 matrix
  }
  t.ldc = ldc;
  p.require(t.lda > 0 && t.lda <= 65535 && t.ldb > 0 && t.ldb <= 65535,
            "row strides over 65535 elements are not supported by the simulator");
  p.require(t.ldc > 0 && t.ldc <= 0xffffffffLL, "out's row stride is out of range");
  p.require(m <= 0xffffffffLL && n <= 0xffffffffLL && k <= 0xffffffffLL, "dimension too large");
  t.m = static_cast<std::uint32_t>(m);
  t.n = static_cast<std::uint32_t>(n);
  t.k = static_cast<std::uint32_t>(k);
  t.batchDims = static_cast<std::int32_t>(nb);
  t.batch = 1;
  for (std::size_t d = 0; d < nb; ++d) {
    t.batchShape[d] = shape[d];
    t.batch *= static_cast<std::uint64_t>(shape[d]);
    const std::int64_t da = d + ba >= nb ? a.dims[d + ba - nb] : 1;
    const std::int64_t db = d + bb >= nb ? b.dims[d + bb - nb] : 1;
    t.aBatchStride[d] = da == 1 ? 0 : a.strides[d + ba - nb];
    t.bBatchStride[d] = db == 1 ? 0 : b.strides[d + bb - nb];
    t.cBatchStride[d] = c.strides[d];
  }
  const std::uint32_t blocks = tile_matmul(p, static_cast<std::uint32_t>(element_size(a.dtype)), t);
  p.launch("MatMul", matmul_kernel_identity(in, out), blocks, Core::kCube,
           [t, in, out](const Addrs& ad) {
             matmul_kernel(in, out, ad.in[0], ad.in[1], ad.out[0], nullptr, nullptr, t);
           });
}

}  // namespace
}  // namespace npusim::aclnn

namespace nn = npusim::aclnn;

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                        aclTensor* out, int8_t cubeMathType,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnMatmulGetWorkspaceSize", "Matmul", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_matmul(p, nn::Kind::kMatmul, self, mat2, out, cubeMathType);
                     });
}

aclnnStatus aclnnMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                        aclrtStream stream) {
  return nn::execute("aclnnMatmul", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                    int8_t cubeMathType, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
  return nn::prepare("aclnnMmGetWorkspaceSize", "Mm", workspaceSize, executor, [&](nn::Plan& p) {
    nn::plan_matmul(p, nn::Kind::kMm, self, mat2, out, cubeMathType);
  });
}

aclnnStatus aclnnMm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                    aclrtStream stream) {
  return nn::execute("aclnnMm", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                             aclTensor* out, int8_t cubeMathType,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare("aclnnBatchMatMulGetWorkspaceSize", "BatchMatMul", workspaceSize, executor,
                     [&](nn::Plan& p) {
                       nn::plan_matmul(p, nn::Kind::kBatch, self, mat2, out, cubeMathType);
                     });
}

aclnnStatus aclnnBatchMatMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                             aclrtStream stream) {
  return nn::execute("aclnnBatchMatMul", workspace, workspaceSize, executor, stream);
}
