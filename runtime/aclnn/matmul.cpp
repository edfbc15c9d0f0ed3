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
//    ACLNN_ERR_PARAM_INVALID (row strides over 65535 elements, beyond the ND2NZ copy's
//    16-bit srcDValue, are copied one row per instruction).
//    out's last dimension must be contiguous. An empty out launches a kernel with nothing to do;
//    an empty reduce dimension (K = 0, out all zeros) is refused.
//  - Accuracy vs a double-precision reference: the products are exact in fp32 and summed in
//    fp32, so |err| <~ 1e-3 * sum|a*b| for FLOAT16 / BFLOAT16 inputs once rounded to a 16-bit out
//    (FLOAT16 out: 2^-11 relative; BFLOAT16 out: 2^-8), ~1e-5 * sum|a*b| with a FLOAT out.
#include "runtime/aclnn/matmul.h"

#include <algorithm>
#include <string>
#include <vector>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"

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
  p.require(dtype != ACL_FLOAT || cube != -1,
            "cubeMathType -1 (FP16FP32_KEEP_DTYPE) is for FLOAT16 inputs");
}

namespace {

std::uint32_t ceil16(std::uint64_t v) { return static_cast<std::uint32_t>((v + 15) / 16 * 16); }
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace

std::int64_t span_of(const aclTensor& x) {
  if (x.numel() == 0) return 0;
  std::int64_t last = 0;
  for (std::size_t d = 0; d < x.dims.size(); ++d) last += (x.dims[d] - 1) * x.strides[d];
  return last + 1;
}

void check_dense(const Plan& p, const aclTensor& x, const char* what) {
  bool non_negative = true;
  for (std::int64_t st : x.strides) non_negative = non_negative && st >= 0;
  p.require(non_negative && span_of(x) <= 2 * x.numel() + 4096,
            std::string(what) +
                ": a reduced-precision cubeMathType with FLOAT inputs takes views with "
                "non-negative strides that cover their storage densely");
}

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
          ceil_div(tiles, cores) *
          (static_cast<std::uint64_t>(base_m) * base_n + 32ull * (base_m + base_n));
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
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(cores, t.batch * t.mTiles * t.nTiles));
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

void check_types(const Plan& p, const aclTensor& a, const aclTensor& b, const aclTensor& c,
                 std::int8_t cube) {
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
}

void check_ranks(const Plan& p, Kind kind, std::size_t ra, std::size_t rb) {
  if (kind == Kind::kMm) {
    p.require(ra == 2 && rb == 2, "aclnnMm takes 2-D self and mat2");
  } else if (kind == Kind::kBatch) {
    p.require(ra == 3 && rb == 3, "aclnnBatchMatMul takes 3-D self and mat2");
  } else {
    p.require(ra >= 1 && rb >= 1 && ra <= 8 && rb <= 8,
              "aclnnMatmul takes self and mat2 of 1 to 8 dimensions");
  }
}

// The last two dimensions of a view as a matrix (a 1-D self is a row, a 1-D mat2 a column).
struct Matrix {
  std::int64_t rows = 1, cols = 1, row_stride = 0, col_stride = 1;
};
Matrix matrix_of(const aclTensor& x, bool is_row) {
  const std::size_t r = x.dims.size();
  Matrix m;
  if (r == 1 && is_row) {
    m.cols = x.dims[0];
    m.row_stride = m.cols;
    m.col_stride = x.strides[0];
  } else if (r == 1) {
    m.rows = x.dims[0];
    m.row_stride = x.strides[0];
  } else {
    m.rows = x.dims[r - 2];
    m.cols = x.dims[r - 1];
    m.row_stride = x.strides[r - 2];
    m.col_stride = x.strides[r - 1];
  }
  return m;
}

// Broadcast batch dimensions of self and mat2 (aligned right) into t; returns their shape.
std::vector<std::int64_t> batch_dims(const Plan& p, const aclTensor& a, const aclTensor& b,
                                     const aclTensor& c, MatmulTiling& t) {
  const std::size_t ba = a.dims.size() > 2 ? a.dims.size() - 2 : 0;
  const std::size_t bb = b.dims.size() > 2 ? b.dims.size() - 2 : 0;
  const std::size_t nb = std::max(ba, bb);
  std::vector<std::int64_t> shape(nb, 1);
  t.batchDims = static_cast<std::int32_t>(nb);
  t.batch = 1;
  for (std::size_t d = 0; d < nb; ++d) {
    const std::int64_t da = d + ba >= nb ? a.dims[d + ba - nb] : 1;
    const std::int64_t db = d + bb >= nb ? b.dims[d + bb - nb] : 1;
    p.require(da == db || da == 1 || db == 1,
              "the batch dimensions of self and mat2 do not broadcast");
    shape[d] = std::max(da, db);
    t.batchShape[d] = shape[d];
    t.batch *= static_cast<std::uint64_t>(shape[d]);
    t.aBatchStride[d] = da == 1 ? 0 : a.strides[d + ba - nb];
    t.bBatchStride[d] = db == 1 ? 0 : b.strides[d + bb - nb];
    t.cBatchStride[d] = d < c.dims.size() ? c.strides[d] : 0;  // c's shape is checked after
  }
  return shape;
}

// out's row stride: an m x n matrix (out ends in [m, n], [n] or [m], or is a scalar).
std::int64_t out_row_stride(const Plan& p, const aclTensor& a, const aclTensor& b,
                            const aclTensor& c, std::int64_t n) {
  const std::size_t rc = c.dims.size();
  if (b.dims.size() > 1) {
    p.require(n == 1 || c.strides[rc - 1] == 1, "out's last dimension must be contiguous");
    return a.dims.size() > 1 ? c.strides[rc - 2] : n;
  }
  return a.dims.size() > 1 ? c.strides[rc - 1] : n;  // out ends in m: an m x 1 matrix
}

void launch_matmul(Plan& p, const MatmulTiling& t, MmType in, MmType out, std::uint32_t blocks) {
  p.launch("MatMul", matmul_kernel_identity(in, out), blocks, Core::kCube,
           [t, in, out](const Addrs& ad) {
             matmul_kernel(in, out, ad.in[0], ad.in[1], ad.out[0], nullptr, nullptr, t);
           });
}

// FLOAT inputs in lower precision: rounded copies of self's and mat2's storage spans in the
// workspace (a vector kernel), then the matmul on them (FLOAT16 copies: USE_FP16; HFLOAT32-
// rounded FLOAT copies: ALLOW_FP32_DOWN_PRECISION, USE_HF32) with the FLOAT out.
void launch_converted(Plan& p, const aclTensor& a, const aclTensor& b, MatmulTiling t, bool hf32) {
  check_dense(p, a, "self");
  check_dense(p, b, "mat2");
  CastTiling c;
  c.countA = static_cast<std::uint64_t>(span_of(a));
  c.countB = static_cast<std::uint64_t>(span_of(b));
  c.hf32 = hf32;
  const std::uint64_t es = hf32 ? 4 : 2;
  const std::uint64_t off_b = (c.countA * es + 31) / 32 * 32;
  p.set_workspace(off_b + (c.countB * es + 31) / 32 * 32);
  const auto blocks = static_cast<std::uint32_t>(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(p.vector_cores(), ceil_div(c.countA + c.countB, c.chunk))));
  p.launch(hf32 ? "RoundToHf32" : "CastToHalf", convert_inputs_kernel_identity(hf32), blocks,
           Core::kVector, [c, off_b](const Addrs& ad) {
             convert_inputs_kernel(ad.in[0], ad.workspace, ad.in[1], ad.workspace + off_b, c);
           });
  const MmType in = hf32 ? MmType::kFloat : MmType::kHalf;
  const std::uint32_t mm_blocks = tile_matmul(p, static_cast<std::uint32_t>(es), t);
  p.launch("MatMul", matmul_kernel_identity(in, MmType::kFloat), mm_blocks, Core::kCube,
           [t, off_b, in](const Addrs& ad) {
             matmul_kernel(in, MmType::kFloat, ad.workspace, ad.workspace + off_b, ad.out[0],
                           nullptr, nullptr, t);
           });
}

void plan_matmul(Plan& p, Kind kind, const aclTensor* self_t, const aclTensor* mat2_t,
                 const aclTensor* out_t, std::int8_t cube) {
  const aclTensor& a = p.input(self_t, "self");
  const aclTensor& b = p.input(mat2_t, "mat2");
  const aclTensor& c = p.output(out_t, "out");
  check_types(p, a, b, c, cube);
  check_ranks(p, kind, a.dims.size(), b.dims.size());
  const Matrix ma = matrix_of(a, true), mb = matrix_of(b, false);
  const std::int64_t m = ma.rows, k = ma.cols, n = mb.cols;
  p.require(k == mb.rows, "self's reduce dimension (" + std::to_string(k) +
                              ") differs from mat2's (" + std::to_string(mb.rows) + ")");
  MatmulTiling t;
  std::vector<std::int64_t> expect = batch_dims(p, a, b, c, t);
  if (a.dims.size() > 1) expect.push_back(m);
  if (b.dims.size() > 1) expect.push_back(n);
  p.require_shape(c, expect, "out");
  const MmType in = mm_type(a.dtype), out = mm_type(c.dtype);
  if (c.numel() == 0) {  // nothing to compute: a launch whose blocks have no tile
    t.baseM = t.baseN = t.baseK = 16;
    t.stepK = 1;
    t.batch = 0;
    launch_matmul(p, t, in, out, 1);
    return;
  }
  p.require(k > 0, "a reduce dimension of 0 (an all-zero out) is not supported by the simulator");
  p.require(matrix_layout(m, k, ma.row_stride, ma.col_stride, t.transA, t.lda),
            "self's last two dimensions must have a unit stride (a row-major or transposed view)");
  p.require(matrix_layout(k, n, mb.row_stride, mb.col_stride, t.transB, t.ldb),
            "mat2's last two dimensions must have a unit stride (a row-major or transposed view)");
  t.ldc = out_row_stride(p, a, b, c, n);
  p.require(t.lda > 0 && t.ldb > 0, "self's and mat2's row strides must be positive");
  p.require(t.ldc > 0 && t.ldc <= 0xffffffffLL, "out's row stride is out of range");
  p.require(m <= 0xffffffffLL && n <= 0xffffffffLL && k <= 0xffffffffLL, "dimension too large");
  t.m = static_cast<std::uint32_t>(m);
  t.n = static_cast<std::uint32_t>(n);
  t.k = static_cast<std::uint32_t>(k);
  if (a.dtype == ACL_FLOAT && cube != 0) {  // 1, 3: HFLOAT32; 2: FLOAT16
    launch_converted(p, a, b, t, cube != 2);
    return;
  }
  launch_matmul(p, t, in, out,
                tile_matmul(p, static_cast<std::uint32_t>(element_size(a.dtype)), t));
}

}  // namespace
}  // namespace npusim::aclnn

namespace nn = npusim::aclnn;

namespace {

// Matmul / Mm / BatchMatMul: one planning routine; the kind decides the shapes it takes.
aclnnStatus prepare_matmul(const char* api, const char* op, nn::Kind kind, const aclTensor* self,
                           const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return nn::prepare(api, op, workspaceSize, executor, [&](nn::Plan& p) {
    nn::plan_matmul(p, kind, self, mat2, out, cubeMathType);
  });
}

}  // namespace

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                        aclTensor* out, int8_t cubeMathType,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return prepare_matmul("aclnnMatmulGetWorkspaceSize", "Matmul", nn::Kind::kMatmul, self, mat2,
                        out, cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                    int8_t cubeMathType, uint64_t* workspaceSize,
                                    aclOpExecutor** executor) {
  return prepare_matmul("aclnnMmGetWorkspaceSize", "Mm", nn::Kind::kMm, self, mat2, out,
                        cubeMathType, workspaceSize, executor);
}

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                             aclTensor* out, int8_t cubeMathType,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return prepare_matmul("aclnnBatchMatMulGetWorkspaceSize", "BatchMatMul", nn::Kind::kBatch, self,
                        mat2, out, cubeMathType, workspaceSize, executor);
}
