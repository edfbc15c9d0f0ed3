// SPDX-License-Identifier: Apache-2.0
// Shape family, host side: aclnnPermute, aclnnEmbedding, aclnnRotaryPositionEmbedding,
// aclnnApplyRotaryPosEmb (checks, tiling, launches; kernels in shape_kernels.cpp).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "runtime/aclnn/op_api.h"
#include "runtime/aclnn/shape_kernels.h"
#include "runtime/core/errors.h"

namespace npusim::aclnn {
namespace {

using kernels::EmbeddingTiling;
using kernels::kMaxRank;
using kernels::PermuteTiling;
using kernels::RopeTiling;

constexpr std::int64_t kMaxBurst = 4095;             // DataCopyPad blockCount kept below 2^12
constexpr std::int64_t kMaxStrideBytes = 1LL << 31;  // DataCopyPad byte strides (uint32)

std::int64_t round32(std::int64_t bytes) { return (bytes + 31) / 32 * 32; }

// The UB budget of one block (what the kernel's buffers may take).
std::int64_t ub_budget(const Plan& p) { return static_cast<std::int64_t>(p.ub_bytes()) - 8 * 1024; }

// ----------------------------------------------------------------------------- Permute

// Removes size-1 dimensions (renumbering perm).
void drop_unit_dims(std::vector<std::int64_t>& dims, std::vector<std::int64_t>& strides,
                    std::vector<std::int64_t>& perm) {
  std::vector<std::int64_t> keep_dims, keep_strides, map(dims.size(), -1);
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    map[i] = static_cast<std::int64_t>(keep_dims.size());
    keep_dims.push_back(dims[i]);
    keep_strides.push_back(strides[i]);
  }
  std::vector<std::int64_t> keep_perm;
  for (std::int64_t v : perm) {
    if (map[static_cast<std::size_t>(v)] >= 0) keep_perm.push_back(map[static_cast<std::size_t>(v)]);
  }
  dims = keep_dims;
  strides = keep_strides;
  perm = keep_perm;
}

// Merges one pair of input dimensions adjacent in the output and in memory; false if none is.
bool merge_one(std::vector<std::int64_t>& dims, std::vector<std::int64_t>& strides,
               std::vector<std::int64_t>& perm) {
  for (std::size_t k = 0; k + 1 < perm.size(); ++k) {
    const auto a = static_cast<std::size_t>(perm[k]);
    if (perm[k + 1] != perm[k] + 1 || strides[a] != strides[a + 1] * dims[a + 1]) continue;
    dims[a] *= dims[a + 1];
    strides[a] = strides[a + 1];
    dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(a) + 1);
    strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(a) + 1);
    perm.erase(perm.begin() + static_cast<std::ptrdiff_t>(k) + 1);
    for (std::int64_t& v : perm) {
      if (v > perm[k]) --v;
    }
    return true;
  }
  return false;
}

// Removes size-1 dimensions and merges input dimensions that stay adjacent in the output and
// in memory (strides in elements; a contiguous input collapses to its essential permutation).
void coalesce(std::vector<std::int64_t>& dims, std::vector<std::int64_t>& strides,
              std::vector<std::int64_t>& perm) {
  drop_unit_dims(dims, strides, perm);
  while (merge_one(dims, strides, perm)) {
  }
  if (dims.empty()) {
    dims = {1};
    strides = {1};
    perm = {0};
  }
  if (dims.size() == 1) {  // a copy: one row
    const std::int64_t span = dims[0] * strides[0];
    dims.insert(dims.begin(), 1);
    strides.insert(strides.begin(), span);
    perm = {0, 1};
  }
}

// Square tiles of up to 64 x 64; a narrow plane (few rows or columns) grows the other side
// until the tile holds 64 x 64 elements, as long as the buffers fit.
void transpose_tiles(PermuteTiling& t, std::uint32_t elem, std::int64_t budget) {
  auto fits = [&](std::int64_t r, std::int64_t c) {
    const std::int64_t in = r * round32(c * elem), out = c * round32(r * elem);
    return 2 * in + 2 * out + out / elem * 4 <= budget && r <= kMaxBurst && c <= kMaxBurst;
  };
  std::int64_t side = elem == 8 ? 32 : 64;
  while (side > 8 && !fits(side, side)) side /= 2;
  t.tile_rows = std::min(t.rows, side);
  t.tile_cols = std::min(t.cols, side);
  while (t.tile_rows * t.tile_cols < side * side) {
    if (t.tile_rows < t.rows && fits(t.tile_rows * 2, t.tile_cols)) {
      t.tile_rows = std::min(t.rows, t.tile_rows * 2);
    } else if (t.tile_cols < t.cols && fits(t.tile_rows, t.tile_cols * 2)) {
      t.tile_cols = std::min(t.cols, t.tile_cols * 2);
    } else {
      break;
    }
  }
}

// Tile sizes (UB buffers double-buffered) and the number of tiles.
void tile_permute(const Plan& p, PermuteTiling& t, std::uint32_t elem) {
  const std::int64_t budget = ub_budget(p);
  if (!t.transpose) {
    const std::int64_t each = std::min<std::int64_t>(64 * 1024, budget / 2);
    t.tile_cols = std::max<std::int64_t>(1, std::min<std::int64_t>(t.cols, each / elem / 32 * 32));
    t.tile_rows = std::max<std::int64_t>(
        1, std::min({t.rows, each / round32(t.tile_cols * elem), kMaxBurst}));
  } else {
    transpose_tiles(t, elem, budget);
  }
  t.tiles_r = (t.rows + t.tile_rows - 1) / t.tile_rows;
  t.tiles_c = (t.cols + t.tile_cols - 1) / t.tile_cols;
  std::int64_t batch = 1;
  for (std::int32_t k = 0; k < t.batch_rank; ++k) batch *= t.batch_dims[k];
  t.total_tiles = batch * t.tiles_r * t.tiles_c;
}

// The plane of the kernel: "col" = the input dimension of stride 1 (moved by contiguous
// bursts), "row" = the output's innermost other dimension; the rest is the batch.
PermuteTiling plan_permute(const Plan& p, std::vector<std::int64_t> dims,
                           std::vector<std::int64_t> strides, std::vector<std::int64_t> perm,
                           std::uint32_t elem) {
  coalesce(dims, strides, perm);
  const std::size_t r = dims.size();
  std::size_t col = r;
  for (std::size_t i = 0; i < r; ++i) {
    if (strides[i] == 1 && col == r) col = i;
  }
  p.require(col < r, "self has no dimension of stride 1 (such views are not supported)");
  std::vector<std::int64_t> os(r, 1);
  std::int64_t s = 1;
  for (std::size_t k = r; k-- > 0;) {
    os[static_cast<std::size_t>(perm[k])] = s;
    s *= dims[static_cast<std::size_t>(perm[k])];
  }
  PermuteTiling t;
  t.elem = elem;
  std::size_t a;
  if (static_cast<std::size_t>(perm[r - 1]) == col) {
    a = static_cast<std::size_t>(perm[r - 2]);
    t.transpose = false;
    t.out_row_stride = os[a];
    t.out_col_stride = 1;
  } else {
    a = static_cast<std::size_t>(perm[r - 1]);
    t.transpose = true;
    t.out_row_stride = 1;
    t.out_col_stride = os[col];
  }
  t.rows = dims[a];
  t.cols = dims[col];
  t.in_row_stride = strides[a];
  p.require(t.in_row_stride >= t.cols,
            "self's rows overlap in memory (such views are not supported)");
  for (std::size_t i = 0; i < r; ++i) {
    if (i == a || i == col) continue;
    p.require(strides[i] >= 0, "self has a negative stride");
    t.batch_dims[t.batch_rank] = dims[i];
    t.batch_in_stride[t.batch_rank] = strides[i];
    t.batch_out_stride[t.batch_rank] = os[i];
    ++t.batch_rank;
  }
  p.require(t.in_row_stride * elem < kMaxStrideBytes && t.out_row_stride * elem < kMaxStrideBytes &&
                t.out_col_stride * elem < kMaxStrideBytes,
            "tensor too large for the permute kernel's strided copies");
  tile_permute(p, t, elem);
  return t;
}

// dims normalised (negative entries count from the end), each dimension once; out's shape.
std::vector<std::int64_t> permuted_shape(const Plan& p, const aclTensor& x,
                                         std::vector<std::int64_t>& perm) {
  const auto n = static_cast<std::int64_t>(x.dims.size());
  p.require(n <= kernels::kMaxRank, "self has more than 8 dimensions");
  p.require(static_cast<std::int64_t>(perm.size()) == n,
            "dims has " + std::to_string(perm.size()) + " entries, self has " + std::to_string(n) +
                " dimensions");
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  std::vector<std::int64_t> expect;
  for (std::int64_t& v : perm) {
    p.require(v >= -n && v < n, "dims entry " + std::to_string(v) + " is outside [-" +
                                    std::to_string(n) + ", " + std::to_string(n - 1) + "]");
    if (v < 0) v += n;
    p.require(!seen[static_cast<std::size_t>(v)], "dims repeats dimension " + std::to_string(v));
    seen[static_cast<std::size_t>(v)] = true;
    expect.push_back(x.dims[static_cast<std::size_t>(v)]);
  }
  return expect;
}

void launch_permute(Plan& p, const aclTensor& x, const std::vector<std::int64_t>& perm) {
  const auto elem = static_cast<std::uint32_t>(element_size(x.dtype));
  kernels::PermuteTiling t =
      x.numel() == 0 ? kernels::PermuteTiling{} : plan_permute(p, x.dims, x.strides, perm, elem);
  if (x.numel() == 0) t.total_tiles = 0;
  const Split split = split_even(t.total_tiles, p.vector_cores(), 1);
  t.tiles_per_block = split.per_block;
  void (*kernel)(std::uint8_t*, std::uint8_t*, const kernels::PermuteTiling&) =
      elem == 1   ? kernels::permute_kernel_1
      : elem == 2 ? kernels::permute_kernel_2
      : elem == 4 ? kernels::permute_kernel_4
                  : kernels::permute_kernel_8;
  p.launch(t.transpose ? "Transpose" : "PermuteCopy", reinterpret_cast<const void*>(kernel),
           split.blocks, Core::kVector,
           [t, kernel](const Addrs& a) { kernel(a.in[0], a.out[0], t); });
}

void plan_permute_op(Plan& p, const aclTensor* self, const aclIntArray* dims, aclTensor* out) {
  const aclTensor& x = p.input(self, "self");
  std::vector<std::int64_t> perm = p.int_array(dims, "dims");
  const aclTensor& y = p.output(out, "out");
  p.require_dtype(x,
                  {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16,
                   ACL_UINT16, ACL_INT32, ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_BOOL},
                  "self");
  p.require(y.dtype == x.dtype, "out must have self's data type");
  p.require_shape(y, permuted_shape(p, x, perm), "out");
  p.require_contiguous(y, "out");
  launch_permute(p, x, perm);
}

// ------------------------------------------------------------------------------- RoPE

void rope_require(bool ok, const std::string& why) {
  rt::require(ok, ACLNN_ERR_INNER_TILING_ERROR, "aclnnRotaryPositionEmbedding: " + why);
}

// The rows of x (leading dims) and how they find their cos/sin row; UB tile rows for `blocks`.
RopeTiling rope_tiling(const Plan& p, const aclTensor& x, const std::vector<std::int64_t>& cs,
                       int mode, std::uint32_t blocks) {
  RopeTiling t;
  t.dtype = x.dtype == ACL_FLOAT16 ? 1 : x.dtype == ACL_BF16 ? 2 : 0;
  t.mode = mode;
  const std::size_t rank = x.dims.size();
  t.d = x.dims[rank - 1];
  t.rows = t.d == 0 ? 0 : x.numel() / t.d;
  t.lead_rank = static_cast<std::int32_t>(rank - 1);
  std::int64_t stride = 1;
  for (std::size_t k = rank - 1; k-- > 0;) {
    t.lead_dims[k] = x.dims[k];
    t.cs_stride[k] = cs[k] == 1 ? 0 : stride;
    stride *= cs[k];
  }
  t.per_block = (t.rows + blocks - 1) / blocks;
  const std::int64_t pitch = (t.d + 15) / 16 * 16;
  const std::int64_t es = static_cast<std::int64_t>(element_size(x.dtype));
  const std::int64_t per_row = pitch * (8 * es + 3 * 4 + (es < 4 ? 3 * 4 : 0));
  p.require(per_row <= ub_budget(p), "the last dimension is too large for the unified buffer");
  t.tile_rows = std::max<std::int64_t>(
      1, std::min({ub_budget(p) / per_row, kMaxBurst, std::max<std::int64_t>(t.per_block, 1)}));
  return t;
}

}  // namespace
}  // namespace npusim::aclnn

namespace nn = npusim::aclnn;
namespace nk = npusim::aclnn::kernels;

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims,
                                         aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  return nn::prepare("aclnnPermuteGetWorkspaceSize", "Permute", workspaceSize, executor,
                     [&](nn::Plan& p) { nn::plan_permute_op(p, self, dims, out); });
}

aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices,
                                           const aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnEmbeddingGetWorkspaceSize", "Embedding", workspaceSize, executor, [&](nn::Plan& p) {
        const aclTensor& w = p.input(weight, "weight");
        const aclTensor& idx = p.input(indices, "indices");
        const aclTensor& y = p.output(out, "out");
        p.require_dtype(
            w,
            {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16,
             ACL_UINT16, ACL_INT32, ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_BOOL},
            "weight");
        p.require_dtype(idx, {ACL_INT32, ACL_INT64}, "indices");
        p.require(y.dtype == w.dtype, "out must have weight's data type");
        p.require(w.dims.size() == 2, "weight must be 2-dimensional [num, dim]");
        p.require(idx.dims.size() < 8, "indices has more than 7 dimensions");
        std::vector<std::int64_t> expect = idx.dims;
        expect.push_back(w.dims[1]);
        p.require_shape(y, expect, "out");
        p.require_contiguous(w, "weight");
        p.require_contiguous(idx, "indices");
        p.require_contiguous(y, "out");
        nk::EmbeddingTiling t;
        t.elem = static_cast<std::uint32_t>(nn::element_size(w.dtype));
        t.index_elem = static_cast<std::uint32_t>(nn::element_size(idx.dtype));
        t.num = w.dims[0];
        t.dim = w.dims[1];
        t.count = t.dim == 0 ? 0 : idx.numel();
        p.require(t.dim * t.elem < nn::kMaxStrideBytes, "weight rows too long");
        const nn::Split split = nn::split_even(t.count, p.vector_cores(), 1);
        t.per_block = split.per_block;
        const std::int64_t budget =
            std::min<std::int64_t>(64 * 1024, (nn::ub_budget(p) - 8192) / 2);
        t.tile_dim =
            std::max<std::int64_t>(1, std::min<std::int64_t>(t.dim, budget / t.elem / 32 * 32));
        t.group = std::max<std::int64_t>(
            1, std::min({budget / nn::round32(t.tile_dim * t.elem), nn::kMaxBurst,
                         std::max<std::int64_t>(t.per_block, 1)}));
        p.launch("Embedding", reinterpret_cast<const void*>(&nk::embedding_kernel), split.blocks,
                 nn::Core::kVector,
                 [t](const nn::Addrs& a) { nk::embedding_kernel(a.in[0], a.in[1], a.out[0], t); });
      });
}

aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor* x, const aclTensor* cos,
                                                         const aclTensor* sin, int64_t mode,
                                                         aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnRotaryPositionEmbeddingGetWorkspaceSize", "RotaryPositionEmbedding", workspaceSize,
      executor, [&](nn::Plan& p) {
        const aclTensor& xt = p.input(x, "x");
        const aclTensor& ct = p.input(cos, "cos");
        const aclTensor& st = p.input(sin, "sin");
        const aclTensor& yt = p.output(out, "out");
        p.require_dtype(xt, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "x");
        p.require(ct.dtype == xt.dtype && st.dtype == xt.dtype && yt.dtype == xt.dtype,
                  "cos, sin and out must have x's data type");
        p.require_contiguous(xt, "x");
        p.require_contiguous(ct, "cos");
        p.require_contiguous(st, "sin");
        p.require_contiguous(yt, "out");
        nn::rope_require(mode == 0 || mode == 1,
                         "mode " + std::to_string(mode) +
                             " is not supported (0 = half / rotate_half, 1 = interleave)");
        const std::size_t rank = xt.dims.size();
        nn::rope_require(rank == 3 || rank == 4, "x must have 3 or 4 dimensions");
        nn::rope_require(yt.dims == xt.dims, "out must have x's shape");
        nn::rope_require(ct.dims == st.dims, "cos and sin must have the same shape");
        nn::rope_require(ct.dims.size() == rank, "cos and sin must have x's rank");
        for (std::size_t k = 0; k < rank; ++k) {
          nn::rope_require(ct.dims[k] == xt.dims[k] || (k + 1 < rank && ct.dims[k] == 1),
                           "cos/sin dimension " + std::to_string(k) +
                               " must be 1 or x's (the last must equal x's)");
        }
        const std::int64_t d = xt.dims[rank - 1];
        nn::rope_require(d > 0 && d % 2 == 0 && d < 896,
                         "the last dimension must be even and below 896");
        const nn::Split split = nn::split_even(xt.numel() / d, p.vector_cores(), 1);
        const nk::RopeTiling t =
            nn::rope_tiling(p, xt, ct.dims, static_cast<int>(mode), split.blocks);
        p.launch("RotaryPositionEmbedding", reinterpret_cast<const void*>(&nk::rope_kernel),
                 split.blocks, nn::Core::kVector, [t](const nn::Addrs& a) {
                   nk::rope_kernel(a.in[0], a.in[1], a.in[2], a.out[0], t);
                 });
      });
}

aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(aclTensor* queryRef, aclTensor* keyRef,
                                                   const aclTensor* cos, const aclTensor* sin,
                                                   int64_t layout, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return nn::prepare(
      "aclnnApplyRotaryPosEmbGetWorkspaceSize", "ApplyRotaryPosEmb", workspaceSize, executor,
      [&](nn::Plan& p) {
        const aclTensor& q = p.input(queryRef, "queryRef");
        const aclTensor& k = p.input(keyRef, "keyRef");
        const aclTensor& ct = p.input(cos, "cos");
        const aclTensor& st = p.input(sin, "sin");
        p.require_dtype(q, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, "queryRef");
        p.require(k.dtype == q.dtype && ct.dtype == q.dtype && st.dtype == q.dtype,
                  "keyRef, cos and sin must have queryRef's data type");
        p.require(layout == 1 || layout == 4, "layout must be 1 (BSND) or 4 (TND)");
        const std::size_t rank = layout == 1 ? 4 : 3;
        p.require(q.dims.size() == rank && k.dims.size() == rank && ct.dims.size() == rank,
                  layout == 1 ? "queryRef, keyRef, cos and sin must be 4-D (B, S, N, D)"
                              : "queryRef, keyRef, cos and sin must be 3-D (T, N, D)");
        p.require(st.dims == ct.dims, "cos and sin must have the same shape");
        for (std::size_t d = 0; d + 2 < rank; ++d) {
          p.require(k.dims[d] == q.dims[d] && ct.dims[d] == q.dims[d],
                    layout == 1 ? "B and S of queryRef, keyRef, cos and sin must be equal"
                                : "T of queryRef, keyRef, cos and sin must be equal");
        }
        p.require(ct.dims[rank - 2] == 1, "cos and sin must have N = 1");
        const std::int64_t d = q.dims[rank - 1];
        p.require(k.dims[rank - 1] == d && ct.dims[rank - 1] == d,
                  "the last dimension (D) of queryRef, keyRef, cos and sin must be equal");
        p.require(d > 0 && d % 2 == 0, "D must be even");
        p.require_contiguous(q, "queryRef");
        p.require_contiguous(k, "keyRef");
        p.require_contiguous(ct, "cos");
        p.require_contiguous(st, "sin");
        const std::int64_t most = std::max<std::int64_t>(1, std::max(q.numel(), k.numel()) / d);
        const auto blocks =
            static_cast<std::uint32_t>(std::min<std::int64_t>(p.vector_cores(), most));
        const nk::RopeTiling tq = nn::rope_tiling(p, q, ct.dims, 0, blocks);
        const nk::RopeTiling tk = nn::rope_tiling(p, k, ct.dims, 0, blocks);
        p.launch("ApplyRotaryPosEmb", reinterpret_cast<const void*>(&nk::apply_rope_kernel), blocks,
                 nn::Core::kVector, [tq, tk](const nn::Addrs& a) {
                   nk::apply_rope_kernel(a.in[0], a.in[1], a.in[2], a.in[3], tq, tk);
                 });
      });
}
