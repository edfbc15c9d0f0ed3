// SPDX-License-Identifier: Apache-2.0
// The shape family of the operator library (runtime/aclnn/shape.cpp, pool.cpp): Permute,
// Embedding, RotaryPositionEmbedding, MaxPool2dWithIndices, AvgPool2d, AdaptiveAvgPool2d, run on
// the Ascend C twin through FakeBackend and checked against host references.
// Tolerances: Permute, Embedding and max pooling are exact (data movement / selection);
// RotaryPositionEmbedding float 1e-5 relative to |x*cos| + |rot(x)*sin|, FLOAT16 2e-3 and BF16
// 1e-2 (one rounding of the float result plus the rounded inputs); AvgPool2d float 1e-5
// relative, FLOAT16 2e-3.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "runtime/aclnn/meta.h"
#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing {
namespace {

std::int64_t numel(const std::vector<std::int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

class ShapeOpsTest : public OperatorTest {
 protected:
  // Runs an executor the first phase returned and waits for the stream.
  aclError run(aclnnStatus (*op)(void*, uint64_t, aclOpExecutor*, aclrtStream), uint64_t ws,
               aclOpExecutor* ex) {
    void* w = ws ? alloc(ws) : nullptr;
    EXPECT_EQ(op(w, ws, ex, stream_), ACLNN_SUCCESS);
    return aclrtSynchronizeStream(stream_);
  }
  const FakeBackend::TaskTrace& last_kernel() { return last_task(TaskKind::kKernel); }
};

// ------------------------------------------------------------------------------ Permute

struct PermuteCase {
  std::vector<std::int64_t> shape, dims;
  aclDataType type;
  std::size_t elem;
};

// out[j] for every output multi-index, byte-exact.
std::vector<std::uint8_t> permute_ref(const std::vector<std::uint8_t>& in,
                                      const std::vector<std::int64_t>& shape,
                                      std::vector<std::int64_t> dims, std::size_t elem) {
  const std::size_t n = shape.size();
  for (auto& d : dims) d = d < 0 ? d + static_cast<std::int64_t>(n) : d;
  std::vector<std::int64_t> in_stride(n, 1), out_shape(n);
  for (std::size_t i = n; i-- > 1;) in_stride[i - 1] = in_stride[i] * shape[i];
  for (std::size_t k = 0; k < n; ++k) out_shape[k] = shape[static_cast<std::size_t>(dims[k])];
  std::vector<std::uint8_t> out(in.size());
  std::vector<std::int64_t> idx(n, 0);
  const std::int64_t count = numel(shape);
  for (std::int64_t j = 0; j < count; ++j) {
    std::int64_t src = 0;
    for (std::size_t k = 0; k < n; ++k)
      src += idx[k] * in_stride[static_cast<std::size_t>(dims[k])];
    std::memcpy(&out[static_cast<std::size_t>(j) * elem], &in[static_cast<std::size_t>(src) * elem],
                elem);
    for (std::size_t k = n; k-- > 0;) {
      if (++idx[k] < out_shape[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

TEST_F(ShapeOpsTest, PermuteMatchesTheHostReferenceForEveryLayoutAndType) {
  const std::vector<PermuteCase> cases = {
      {{2, 3, 5}, {2, 0, 1}, ACL_FLOAT, 4},              // the documented example
      {{4, 6}, {1, 0}, ACL_FLOAT, 4},                    // plain transpose
      {{3, 70, 130}, {0, 2, 1}, ACL_FLOAT, 4},           // batched transpose, edge tiles
      {{2, 3, 4, 5}, {0, 2, 1, 3}, ACL_FLOAT16, 2},      // innermost kept: strided row copies
      {{2, 3, 4, 5, 3}, {4, 3, 2, 1, 0}, ACL_INT32, 4},  // full reversal, rank 5
      {{5, 1, 7, 9}, {-1, 0, -2, 1}, ACL_BF16, 2},       // negative dims, a size-1 dimension
      {{130, 3, 33}, {2, 1, 0}, ACL_INT8, 1},
      {{6, 40, 17}, {1, 2, 0}, ACL_INT64, 8},
      {{2, 2, 2, 2, 2, 2, 2, 3}, {7, 6, 5, 4, 3, 2, 1, 0}, ACL_FLOAT, 4},  // rank 8
      {{3, 4}, {0, 1}, ACL_FLOAT, 4},                                      // identity: one copy
      {{700, 300}, {0, 1}, ACL_UINT8, 1},
      {{1000, 3}, {1, 0}, ACL_FLOAT16, 2},  // narrow planes: long thin tiles
      {{3, 1000}, {1, 0}, ACL_FLOAT, 4},
      {{5000, 2}, {1, 0}, ACL_INT8, 1},
  };
  for (const PermuteCase& c : cases) {
    SCOPED_TRACE("shape rank " + std::to_string(c.shape.size()) + " type " +
                 std::to_string(c.type));
    const std::int64_t n = numel(c.shape);
    std::vector<std::uint8_t> host(static_cast<std::size_t>(n) * c.elem);
    for (std::size_t i = 0; i < host.size(); ++i)
      host[i] = static_cast<std::uint8_t>((i * 7919u + i / 251u) & 0xffu);
    void* x = alloc(host.size());
    void* y = alloc(host.size());
    std::memcpy(x, host.data(), host.size());
    std::vector<std::int64_t> out_shape;
    for (std::int64_t d : c.dims)
      out_shape.push_back(c.shape[static_cast<std::size_t>(
          d < 0 ? d + static_cast<std::int64_t>(c.shape.size()) : d)]);
    uint64_t ws = 7;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnPermuteGetWorkspaceSize(tensor(c.shape, c.type, x), ints(c.dims),
                                           tensor(out_shape, c.type, y), &ws, &ex),
              ACLNN_SUCCESS);
    EXPECT_EQ(ws, 0u);
    ASSERT_EQ(run(aclnnPermute, ws, ex), ACL_SUCCESS);
    const std::vector<std::uint8_t> want = permute_ref(host, c.shape, c.dims, c.elem);
    EXPECT_EQ(std::memcmp(y, want.data(), want.size()), 0);
  }
}

TEST_F(ShapeOpsTest, PermuteTilesALargeTransposeAcrossVectorCores) {
  const std::vector<std::int64_t> shape = {512, 384};
  const std::size_t bytes = 512 * 384 * 4;
  auto* x = static_cast<float*>(alloc(bytes));
  auto* y = static_cast<float*>(alloc(bytes));
  for (int i = 0; i < 512 * 384; ++i) x[i] = static_cast<float>(i);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnPermuteGetWorkspaceSize(tensor(shape, ACL_FLOAT, x), ints({1, 0}),
                                         tensor({384, 512}, ACL_FLOAT, y), &ws, &ex),
            ACLNN_SUCCESS);
  ASSERT_EQ(run(aclnnPermute, ws, ex), ACL_SUCCESS);
  for (int r = 0; r < 384; ++r)
    for (int c = 0; c < 512; ++c) ASSERT_EQ(y[r * 512 + c], static_cast<float>(c * 384 + r));
  const auto& k = last_kernel();
  EXPECT_EQ(k.name, "Transpose");
  EXPECT_GT(k.blocks_run, 1u);    // 48 tiles of 64 x 64 over the vector cores
  EXPECT_GT(k.instrs, 48u * 3u);  // at least copy-in, gather, copy-out per tile
}

TEST_F(ShapeOpsTest, PermuteTakesStridedViewsWithAUnitStride) {
  // storage [5, 8] of floats 0..39
  auto* st = static_cast<float*>(alloc(40 * 4));
  for (int i = 0; i < 40; ++i) st[i] = static_cast<float>(i);
  const std::vector<std::int64_t> storage = {5, 8};
  auto view = [&](std::vector<std::int64_t> dims, std::vector<std::int64_t> strides,
                  std::int64_t offset) {
    aclTensor* t = aclCreateTensor(dims.data(), dims.size(), ACL_FLOAT, strides.data(), offset,
                                   ACL_FORMAT_ND, storage.data(), storage.size(), st);
    EXPECT_NE(t, nullptr);
    tensors_.push_back(t);
    return t;
  };
  struct Case {
    std::vector<std::int64_t> dims, strides;
    std::int64_t offset;
    std::vector<std::int64_t> perm;
  };
  const std::vector<Case> cases = {
      {{8, 5}, {1, 8}, 0, {1, 0}},           // a transposed view: back to the storage order
      {{8, 5}, {1, 8}, 0, {0, 1}},           // the same view, materialised as is
      {{5, 4}, {8, 1}, 2, {1, 0}},           // columns 2..5
      {{2, 5, 2}, {2, 8, 1}, 1, {2, 0, 1}},  // pairs of columns, offset 1
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("view rank " + std::to_string(c.dims.size()) + " offset " +
                 std::to_string(c.offset));
    std::vector<std::int64_t> out_shape;
    for (std::int64_t d : c.perm) out_shape.push_back(c.dims[static_cast<std::size_t>(d)]);
    auto* y = static_cast<float*>(alloc(static_cast<std::size_t>(numel(out_shape)) * 4));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnPermuteGetWorkspaceSize(view(c.dims, c.strides, c.offset), ints(c.perm),
                                           tensor(out_shape, ACL_FLOAT, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnPermute, ws, ex), ACL_SUCCESS);
    // out[j] = storage[offset + sum idx_k * stride[perm[k]]] over out's multi-index
    const std::size_t n = out_shape.size();
    std::vector<std::int64_t> idx(n, 0);
    for (std::int64_t j = 0; j < numel(out_shape); ++j) {
      std::int64_t src = c.offset;
      for (std::size_t k = 0; k < n; ++k)
        src += idx[k] * c.strides[static_cast<std::size_t>(c.perm[k])];
      ASSERT_EQ(y[j], static_cast<float>(src)) << "element " << j;
      for (std::size_t k = n; k-- > 0;) {
        if (++idx[k] < out_shape[k]) break;
        idx[k] = 0;
      }
    }
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(view({5, 4}, {8, 2}, 0), ints({1, 0}),
                                         tensor({4, 5}, ACL_FLOAT, alloc(80)), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // no dimension of stride 1
}

TEST_F(ShapeOpsTest, EmptyTensorsRunWithoutTouchingMemory) {
  void* b = alloc(64);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnPermuteGetWorkspaceSize(tensor({0, 3}, ACL_FLOAT, b), ints({1, 0}),
                                         tensor({3, 0}, ACL_FLOAT, b), &ws, &ex),
            ACLNN_SUCCESS);
  EXPECT_EQ(run(aclnnPermute, ws, ex), ACL_SUCCESS);
  ASSERT_EQ(aclnnEmbeddingGetWorkspaceSize(tensor({4, 2}, ACL_FLOAT, b), tensor({0}, ACL_INT64, b),
                                           tensor({0, 2}, ACL_FLOAT, b), &ws, &ex),
            ACLNN_SUCCESS);
  EXPECT_EQ(run(aclnnEmbedding, ws, ex), ACL_SUCCESS);
  ASSERT_EQ(
      aclnnRotaryPositionEmbeddingGetWorkspaceSize(
          tensor({0, 2, 3, 8}, ACL_FLOAT, b), tensor({1, 1, 3, 8}, ACL_FLOAT, b),
          tensor({1, 1, 3, 8}, ACL_FLOAT, b), 0, tensor({0, 2, 3, 8}, ACL_FLOAT, b), &ws, &ex),
      ACLNN_SUCCESS);
  EXPECT_EQ(run(aclnnRotaryPositionEmbedding, ws, ex), ACL_SUCCESS);
  ASSERT_EQ(aclnnMaxPool2dWithIndicesGetWorkspaceSize(tensor({0, 2, 4, 4}, ACL_FLOAT, b), ints({2}),
                                                      ints({2}), ints({0}), ints({1}), false,
                                                      tensor({0, 2, 2, 2}, ACL_FLOAT, b),
                                                      tensor({0, 2, 2, 2}, ACL_INT32, b), &ws, &ex),
            ACLNN_SUCCESS);
  EXPECT_EQ(run(aclnnMaxPool2dWithIndices, ws, ex), ACL_SUCCESS);
}

TEST_F(ShapeOpsTest, PermuteRejectsBadArguments) {
  void* x = alloc(256);
  aclTensor* self = tensor({2, 3, 4}, ACL_FLOAT, x);
  aclTensor* out = tensor({4, 2, 3}, ACL_FLOAT, alloc(256));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(nullptr, ints({2, 0, 1}), out, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(self, nullptr, out, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(self, ints({2, 0, 1}), nullptr, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(self, ints({2, 0}), out, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // too few dims
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(self, ints({2, 0, 0}), out, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // repeated
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(self, ints({3, 0, 1}), out, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // out of range
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(self, ints({1, 0, 2}), out, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // out has the wrong shape
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(self, ints({2, 0, 1}), tensor({4, 2, 3}, ACL_INT32, x),
                                         &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // type differs
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(self, ints({2, 0, 1}), out, nullptr, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
}

// ---------------------------------------------------------------------------- Embedding

TEST_F(ShapeOpsTest, EmbeddingGathersRowsForBothIndexTypes) {
  struct Case {
    std::int64_t num, dim;
    std::vector<std::int64_t> idx_shape;
    aclDataType wtype, itype;
    std::size_t elem;
  };
  const std::vector<Case> cases = {
      {10, 7, {2, 3}, ACL_FLOAT, ACL_INT64, 4},  {50, 300, {4, 5}, ACL_FLOAT16, ACL_INT32, 2},
      {33, 33, {1000}, ACL_FLOAT, ACL_INT32, 4},  // many blocks
      {8, 20000, {3}, ACL_FLOAT, ACL_INT64, 4},   // rows longer than a UB tile
      {5, 4, {}, ACL_INT32, ACL_INT64, 4},        // scalar index
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("num " + std::to_string(c.num) + " dim " + std::to_string(c.dim));
    const std::int64_t count = numel(c.idx_shape);
    const std::size_t row = static_cast<std::size_t>(c.dim) * c.elem;
    auto* w = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(c.num) * row));
    for (std::size_t i = 0; i < static_cast<std::size_t>(c.num) * row; ++i)
      w[i] = static_cast<std::uint8_t>((i * 131u + i / 97u) & 0xffu);
    const std::size_t ie = c.itype == ACL_INT64 ? 8 : 4;
    auto* idx = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(count) * ie));
    std::vector<std::int64_t> values;
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int64_t v = (i * 7 + 3) % c.num;
      values.push_back(v);
      if (ie == 8) {
        std::memcpy(idx + i * 8, &v, 8);
      } else {
        const auto v32 = static_cast<std::int32_t>(v);
        std::memcpy(idx + i * 4, &v32, 4);
      }
    }
    auto* y = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(count) * row));
    std::vector<std::int64_t> out_shape = c.idx_shape;
    out_shape.push_back(c.dim);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnEmbeddingGetWorkspaceSize(tensor({c.num, c.dim}, c.wtype, w),
                                             tensor(c.idx_shape, c.itype, idx),
                                             tensor(out_shape, c.wtype, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnEmbedding, ws, ex), ACL_SUCCESS);
    for (std::int64_t i = 0; i < count; ++i) {
      ASSERT_EQ(
          std::memcmp(y + static_cast<std::size_t>(i) * row,
                      w + static_cast<std::size_t>(values[static_cast<std::size_t>(i)]) * row, row),
          0)
          << "position " << i;
    }
  }
}

TEST_F(ShapeOpsTest, EmbeddingIndexOutOfRangeFailsTheStreamWithTheCoreException) {
  for (std::int64_t bad : {std::int64_t{10}, std::int64_t{-1}}) {
    auto* w = static_cast<float*>(alloc(10 * 4 * 4));
    auto* idx = static_cast<std::int64_t*>(alloc(3 * 8));
    idx[0] = 1;
    idx[1] = bad;
    idx[2] = 2;
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(
        aclnnEmbeddingGetWorkspaceSize(tensor({10, 4}, ACL_FLOAT, w), tensor({3}, ACL_INT64, idx),
                                       tensor({3, 4}, ACL_FLOAT, alloc(3 * 4 * 4)), &ws, &ex),
        ACLNN_SUCCESS);
    ASSERT_EQ(aclnnEmbedding(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
    const aclError err = aclrtSynchronizeStream(stream_);
    EXPECT_TRUE(err == ACL_ERROR_RT_AICORE_EXCEPTION || err == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION)
        << err;
    // The device stays usable: a fresh stream runs the next operator.
    ASSERT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
}

TEST_F(ShapeOpsTest, EmbeddingRejectsBadArguments) {
  void* b = alloc(1024);
  aclTensor* w = tensor({10, 4}, ACL_FLOAT, b);
  aclTensor* idx = tensor({3}, ACL_INT64, b);
  aclTensor* out = tensor({3, 4}, ACL_FLOAT, b);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnEmbeddingGetWorkspaceSize(nullptr, idx, out, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnEmbeddingGetWorkspaceSize(w, nullptr, out, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnEmbeddingGetWorkspaceSize(w, idx, nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnEmbeddingGetWorkspaceSize(w, tensor({3}, ACL_FLOAT, b), out, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // float indices
  EXPECT_EQ(aclnnEmbeddingGetWorkspaceSize(tensor({10, 4, 1}, ACL_FLOAT, b), idx, out, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // weight not 2-D
  EXPECT_EQ(aclnnEmbeddingGetWorkspaceSize(w, idx, tensor({3, 5}, ACL_FLOAT, b), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // out shape
  EXPECT_EQ(aclnnEmbeddingGetWorkspaceSize(w, idx, tensor({3, 4}, ACL_FLOAT16, b), &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // out type
}

// ------------------------------------------------------------------------------- RoPE

// y = x*cos + rot(x)*sin in double; also |x*cos| + |rot*sin| for the tolerance.
void rope_ref(const std::vector<double>& x, const std::vector<double>& c,
              const std::vector<double>& s, const std::vector<std::int64_t>& xs,
              const std::vector<std::int64_t>& cs, int mode, std::vector<double>& y,
              std::vector<double>& mag) {
  const std::size_t rank = xs.size();
  const std::int64_t d = xs.back();
  const std::int64_t rows = numel(xs) / d;
  y.assign(x.size(), 0);
  mag.assign(x.size(), 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t rem = r, crow = 0, cstride = 1;
    for (std::size_t k = rank - 1; k-- > 0;) {
      const std::int64_t v = rem % xs[k];
      rem /= xs[k];
      if (cs[k] != 1) crow += v * cstride;
      cstride *= cs[k];
    }
    for (std::int64_t j = 0; j < d; ++j) {
      const double xv = x[static_cast<std::size_t>(r * d + j)];
      double rv;
      if (mode == 0) {
        rv = j < d / 2 ? -x[static_cast<std::size_t>(r * d + j + d / 2)]
                       : x[static_cast<std::size_t>(r * d + j - d / 2)];
      } else {
        rv = j % 2 == 0 ? -x[static_cast<std::size_t>(r * d + j + 1)]
                        : x[static_cast<std::size_t>(r * d + j - 1)];
      }
      const double cv = c[static_cast<std::size_t>(crow * d + j)];
      const double sv = s[static_cast<std::size_t>(crow * d + j)];
      y[static_cast<std::size_t>(r * d + j)] = xv * cv + rv * sv;
      mag[static_cast<std::size_t>(r * d + j)] = std::fabs(xv * cv) + std::fabs(rv * sv);
    }
  }
}

TEST_F(ShapeOpsTest, RotaryPositionEmbeddingMatchesTheReference) {
  struct Case {
    std::vector<std::int64_t> xs, cs;
    int mode;
    aclDataType type;
    double tol;
  };
  const std::vector<Case> cases = {
      {{2, 3, 4, 8}, {1, 1, 4, 8}, 0, ACL_FLOAT, 1e-5},        // BNSD with 11SD
      {{2, 3, 4, 8}, {1, 1, 4, 8}, 1, ACL_FLOAT, 1e-5},        // interleave
      {{2, 3, 5, 64}, {2, 3, 5, 64}, 0, ACL_FLOAT, 1e-5},      // full cos/sin
      {{2, 40, 3, 128}, {1, 40, 1, 128}, 0, ACL_FLOAT, 1e-5},  // BSND with 1S1D, many blocks
      {{5, 2, 16}, {5, 1, 16}, 0, ACL_FLOAT, 1e-5},            // TND with T1D
      {{1, 2, 7, 128}, {1, 1, 7, 128}, 0, ACL_FLOAT16, 2e-3},
      {{3, 2, 7, 6}, {1, 1, 7, 6}, 1, ACL_BF16, 1e-2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("mode " + std::to_string(c.mode) + " type " + std::to_string(c.type) + " d " +
                 std::to_string(c.xs.back()));
    const std::size_t es = c.type == ACL_FLOAT ? 4 : 2;
    const std::int64_t nx = numel(c.xs), nc = numel(c.cs);
    auto make = [&](std::int64_t n, double scale, std::uint32_t seed, std::vector<double>& vals) {
      auto* p = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(n) * es));
      vals.resize(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        const float f = static_cast<float>(scale * std::sin(0.37 * static_cast<double>(i) + seed));
        aclnn::store(c.type, p, i, f);  // rounded to the type, as the device holds it
        vals[static_cast<std::size_t>(i)] = static_cast<double>(aclnn::load(c.type, p, i));
      }
      return p;
    };
    std::vector<double> xv, cv, sv, want, mag;
    auto* x = make(nx, 3.0, 1, xv);
    auto* co = make(nc, 1.0, 2, cv);
    auto* si = make(nc, 1.0, 3, sv);
    auto* y = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(nx) * es));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(
                  tensor(c.xs, c.type, x), tensor(c.cs, c.type, co), tensor(c.cs, c.type, si),
                  c.mode, tensor(c.xs, c.type, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnRotaryPositionEmbedding, ws, ex), ACL_SUCCESS);
    rope_ref(xv, cv, sv, c.xs, c.cs, c.mode, want, mag);
    for (std::int64_t i = 0; i < nx; ++i) {
      const auto got = static_cast<double>(aclnn::load(c.type, y, i));
      const auto k = static_cast<std::size_t>(i);
      ASSERT_NEAR(got, want[k], c.tol * (mag[k] + std::fabs(want[k])) + 1e-30) << "element " << i;
    }
  }
}

TEST_F(ShapeOpsTest, ApplyRotaryPosEmbRotatesQueryAndKeyInPlace) {
  struct Case {
    std::vector<std::int64_t> qs, ks, cs;
    int64_t layout;
    aclDataType type;
    double tol;
  };
  const std::vector<Case> cases = {
      {{2, 3, 4, 16}, {2, 3, 2, 16}, {2, 3, 1, 16}, 1, ACL_FLOAT, 1e-5},  // BSND
      {{1, 70, 8, 64}, {1, 70, 1, 64}, {1, 70, 1, 64}, 1, ACL_FLOAT16, 2e-3},
      {{5, 4, 8}, {5, 2, 8}, {5, 1, 8}, 4, ACL_BF16, 1e-2},  // TND
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("layout " + std::to_string(c.layout) + " type " + std::to_string(c.type));
    const std::size_t es = c.type == ACL_FLOAT ? 4 : 2;
    auto make = [&](const std::vector<std::int64_t>& shape, double scale, int seed,
                    std::vector<double>& vals) {
      const std::int64_t n = numel(shape);
      auto* p = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(n) * es));
      vals.resize(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) {
        const float f = static_cast<float>(scale * std::cos(0.29 * static_cast<double>(i) + seed));
        aclnn::store(c.type, p, i, f);
        vals[static_cast<std::size_t>(i)] = static_cast<double>(aclnn::load(c.type, p, i));
      }
      return p;
    };
    std::vector<double> qv, kv, cv, sv;
    auto* q = make(c.qs, 2.0, 1, qv);
    auto* k = make(c.ks, 2.0, 2, kv);
    auto* co = make(c.cs, 1.0, 3, cv);
    auto* si = make(c.cs, 1.0, 4, sv);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(
                  tensor(c.qs, c.type, q), tensor(c.ks, c.type, k), tensor(c.cs, c.type, co),
                  tensor(c.cs, c.type, si), c.layout, &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnApplyRotaryPosEmb, ws, ex), ACL_SUCCESS);
    EXPECT_EQ(last_kernel().name, "ApplyRotaryPosEmb");
    for (int which = 0; which < 2; ++which) {
      const auto& shape = which == 0 ? c.qs : c.ks;
      const auto& in = which == 0 ? qv : kv;
      const std::uint8_t* got_p = which == 0 ? q : k;
      std::vector<double> want, mag;
      rope_ref(in, cv, sv, shape, c.cs, 0, want, mag);
      for (std::size_t i = 0; i < want.size(); ++i) {
        const auto got = static_cast<double>(
            aclnn::load(c.type, got_p, static_cast<std::int64_t>(i)));
        ASSERT_NEAR(got, want[i], c.tol * (mag[i] + std::fabs(want[i])) + 1e-30)
            << (which == 0 ? "query" : "key") << " element " << i;
      }
    }
  }
  void* b = alloc(4096);
  aclTensor* q = tensor({1, 2, 4, 8}, ACL_FLOAT, b);
  aclTensor* k = tensor({1, 2, 2, 8}, ACL_FLOAT, b);
  aclTensor* cs = tensor({1, 2, 1, 8}, ACL_FLOAT, b);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(nullptr, k, cs, cs, 1, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, k, cs, nullptr, 1, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, k, cs, cs, 2, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // layout
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, tensor({1, 3, 2, 8}, ACL_FLOAT, b), cs, cs, 1,
                                                   &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // S differs
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, k, tensor({1, 2, 2, 8}, ACL_FLOAT, b),
                                                   tensor({1, 2, 2, 8}, ACL_FLOAT, b), 1, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // cos N != 1
  EXPECT_EQ(aclnnApplyRotaryPosEmbGetWorkspaceSize(q, tensor({1, 2, 2, 8}, ACL_FLOAT16, b), cs, cs,
                                                   1, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // types differ
}

TEST_F(ShapeOpsTest, RotaryPositionEmbeddingRejectsBadArguments) {
  void* b = alloc(4096);
  aclTensor* x = tensor({1, 2, 3, 8}, ACL_FLOAT, b);
  aclTensor* cs = tensor({1, 1, 3, 8}, ACL_FLOAT, b);
  aclTensor* out = tensor({1, 2, 3, 8}, ACL_FLOAT, b);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(nullptr, cs, cs, 0, out, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, nullptr, cs, 0, out, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, cs, cs, 0, nullptr, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  aclTensor* xi = tensor({1, 2, 3, 8}, ACL_INT32, b);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(xi, xi, xi, 0, xi, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, cs, cs, 2, out, &ws, &ex),
            ACLNN_ERR_INNER_TILING_ERROR);  // mode not supported
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, tensor({1, 1, 3, 4}, ACL_FLOAT, b),
                                                         tensor({1, 1, 3, 4}, ACL_FLOAT, b), 0, out,
                                                         &ws, &ex),
            ACLNN_ERR_INNER_TILING_ERROR);  // D differs
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(
                x, cs, cs, 0, tensor({1, 2, 4, 8}, ACL_FLOAT, b), &ws, &ex),
            ACLNN_ERR_INNER_TILING_ERROR);  // out shape
  aclTensor* odd = tensor({1, 2, 3, 7}, ACL_FLOAT, b);
  EXPECT_EQ(aclnnRotaryPositionEmbeddingGetWorkspaceSize(odd, odd, odd, 0, odd, &ws, &ex),
            ACLNN_ERR_INNER_TILING_ERROR);  // odd D
}

// ------------------------------------------------------------------------------ Pooling

struct PoolSpec {
  std::vector<std::int64_t> shape;  // 3-D or 4-D
  std::int64_t kh, kw, sh, sw, ph, pw, dh = 1, dw = 1;
  bool ceil = false;
  bool include_pad = true;
  std::int64_t divisor = 0;
  bool adaptive = false;
  std::int64_t oh = 0, ow = 0;  // adaptive output size
};

std::int64_t pool_out(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p,
                      std::int64_t d, bool ceil) {
  const std::int64_t span = in + 2 * p - d * (k - 1) - 1;
  std::int64_t o = (ceil ? (span + s - 1) / s : span / s) + 1;
  if (ceil && (o - 1) * s >= in + p) --o;
  return o;
}

// Host reference: max (value, first index) or average, in double.
void pool_ref(const PoolSpec& c, bool max, const std::vector<double>& x, std::int64_t& ho,
              std::int64_t& wo, std::vector<double>& y, std::vector<std::int32_t>& idx) {
  const std::size_t r = c.shape.size();
  const std::int64_t h = c.shape[r - 2], w = c.shape[r - 1];
  const std::int64_t planes = numel(c.shape) / (h * w);
  // (adaptive pooling, or output sizes given for asymmetric padding)
  ho = c.oh ? c.oh : pool_out(h, c.kh, c.sh, c.ph, c.dh, c.ceil);
  wo = c.ow ? c.ow : pool_out(w, c.kw, c.sw, c.pw, c.dw, c.ceil);
  y.assign(static_cast<std::size_t>(planes * ho * wo), 0);
  idx.assign(y.size(), 0);
  for (std::int64_t pl = 0; pl < planes; ++pl) {
    for (std::int64_t i = 0; i < ho; ++i) {
      for (std::int64_t j = 0; j < wo; ++j) {
        std::int64_t hs, he, ws, we;
        double div;
        if (c.adaptive) {
          hs = i * h / ho;
          he = ((i + 1) * h + ho - 1) / ho;
          ws = j * w / wo;
          we = ((j + 1) * w + wo - 1) / wo;
          div = static_cast<double>((he - hs) * (we - ws));
        } else {
          hs = i * c.sh - c.ph;
          ws = j * c.sw - c.pw;
          he = std::min(hs + (c.kh - 1) * c.dh + 1, h + c.ph);
          we = std::min(ws + (c.kw - 1) * c.dw + 1, w + c.pw);
          const double pool = static_cast<double>((he - hs) * (we - ws));
          const std::int64_t hs0 = std::max<std::int64_t>(hs, 0),
                             ws0 = std::max<std::int64_t>(ws, 0);
          const double valid =
              static_cast<double>((std::min(he, h) - hs0) * (std::min(we, w) - ws0));
          div = c.divisor ? static_cast<double>(c.divisor) : c.include_pad ? pool : valid;
        }
        double best = -INFINITY, sum = 0;
        std::int32_t at = 0;
        const std::int64_t step_h = c.adaptive ? 1 : c.dh, step_w = c.adaptive ? 1 : c.dw;
        for (std::int64_t a = hs; a < he; a += step_h) {
          for (std::int64_t b = ws; b < we; b += step_w) {
            if (a < 0 || a >= h || b < 0 || b >= w) continue;
            const double v = x[static_cast<std::size_t>((pl * h + a) * w + b)];
            sum += v;
            if (v > best) {
              best = v;
              at = static_cast<std::int32_t>(a * w + b);
            }
          }
        }
        const auto o = static_cast<std::size_t>((pl * ho + i) * wo + j);
        y[o] = max ? best : sum / div;
        idx[o] = at;
      }
    }
  }
}

class PoolTest : public ShapeOpsTest {
 protected:
  // Device input of `type` from values (rounded to the type); returns the rounded values.
  std::uint8_t* input(const std::vector<std::int64_t>& shape, aclDataType type,
                      std::vector<double>& vals, int seed, bool ties = false) {
    const std::int64_t n = numel(shape);
    const std::size_t es = type == ACL_FLOAT ? 4 : 2;
    auto* p = static_cast<std::uint8_t*>(alloc(static_cast<std::size_t>(n) * es));
    vals.resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      // Integers with repeats (ties for max pooling) plus a fraction.
      const float f = ties ? static_cast<float>((i * i + seed) % 3)  // many equal maxima
                           : static_cast<float>(((i * 37 + seed) % 101) - 50) * 0.25f +
                                 static_cast<float>((i * 13) % 7) * 0.01f;
      aclnn::store(type, p, i, f);  // rounded to the type, as the device holds it
      vals[static_cast<std::size_t>(i)] = static_cast<double>(aclnn::load(type, p, i));
    }
    return p;
  }
  static double value(const std::uint8_t* p, aclDataType type, std::int64_t i) {
    return static_cast<double>(aclnn::load(type, p, i));
  }
  std::vector<std::int64_t> out_dims(const PoolSpec& c, std::int64_t ho, std::int64_t wo) {
    std::vector<std::int64_t> d(c.shape.begin(), c.shape.end() - 2);
    d.push_back(ho);
    d.push_back(wo);
    return d;
  }
};

TEST_F(PoolTest, MaxPool2dWithIndicesIsExact) {
  const std::vector<std::pair<PoolSpec, aclDataType>> cases = {
      {{{1, 2, 9, 9}, 3, 3, 2, 2, 1, 1}, ACL_FLOAT},
      {{{2, 3, 7, 8}, 2, 2, 2, 2, 0, 0, 1, 1, true}, ACL_FLOAT},  // ceil mode
      {{{1, 1, 10, 12}, 3, 3, 1, 1, 1, 1, 2, 2}, ACL_FLOAT},      // dilation
      {{{3, 5, 6}, 2, 3, 1, 2, 1, 1}, ACL_FLOAT},                 // 3-D, unequal kernel
      {{{1, 8, 112, 112}, 3, 3, 2, 2, 1, 1}, ACL_FLOAT16},        // ResNet stem
      {{{2, 9, 10}, 3, 2, 2, 2, 1, 1}, ACL_BF16},
  };
  for (const bool ties : {false, true}) {
    for (const auto& [c, type] : cases) {
      SCOPED_TRACE("H " + std::to_string(c.shape[c.shape.size() - 2]) + " k " +
                   std::to_string(c.kh));
      std::vector<double> xv, want;
      std::vector<std::int32_t> want_idx;
      std::int64_t ho, wo;
      auto* x = input(c.shape, type, xv, 5, ties);
      pool_ref(c, true, xv, ho, wo, want, want_idx);
      const std::size_t es = type == ACL_FLOAT ? 4 : 2;
      auto* y = static_cast<std::uint8_t*>(alloc(want.size() * es));
      auto* yi = static_cast<std::int32_t*>(alloc(want.size() * 4));
      uint64_t ws = 0;
      aclOpExecutor* ex = nullptr;
      ASSERT_EQ(
          aclnnMaxPool2dWithIndicesGetWorkspaceSize(
              tensor(c.shape, type, x), ints({c.kh, c.kw}), ints({c.sh, c.sw}), ints({c.ph, c.pw}),
              ints({c.dh, c.dw}), c.ceil, tensor(out_dims(c, ho, wo), type, y),
              tensor(out_dims(c, ho, wo), ACL_INT32, yi), &ws, &ex),
          ACLNN_SUCCESS);
      ASSERT_EQ(run(aclnnMaxPool2dWithIndices, ws, ex), ACL_SUCCESS);
      for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(value(y, type, static_cast<std::int64_t>(i)), want[i]) << "element " << i;
        ASSERT_EQ(yi[i], want_idx[i]) << "element " << i;
      }
    }
  }
}

TEST_F(PoolTest, MaxPoolTakesOnnxPadsAndCeilMode) {
  {  // the documented example: 2x2 windows, stride 2, ceil mode on 3x3 planes
    auto* x = static_cast<float*>(alloc(36 * 4));
    auto* y = static_cast<float*>(alloc(16 * 4));
    for (int i = 0; i < 36; ++i) x[i] = static_cast<float>(i + 1);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnMaxPoolGetWorkspaceSize(tensor({2, 2, 3, 3}, ACL_FLOAT, x), ints({2, 2}),
                                           ints({2, 2}), 0, ints({0, 0, 0, 0}), ints({1, 1}), 1,
                                           tensor({2, 2, 2, 2}, ACL_FLOAT, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnMaxPool, ws, ex), ACL_SUCCESS);
    const float want[16] = {5, 6, 8, 9, 14, 15, 17, 18, 23, 24, 26, 27, 32, 33, 35, 36};
    for (int i = 0; i < 16; ++i) EXPECT_EQ(y[i], want[i]) << i;
  }
  {  // (top, left, bottom, right) = (1, 0, 0, 1): Ho = (5 + 1 - 3) / 2 + 1, Wo = (6 + 1 - 3) / 2 +
     // 1
    PoolSpec c{{1, 3, 5, 6}, 3, 3, 2, 2, 1, 0};
    c.oh = 2;
    c.ow = 3;
    std::vector<double> xv, want;
    std::vector<std::int32_t> unused;
    std::int64_t ho, wo;
    auto* x = input(c.shape, ACL_FLOAT16, xv, 2);
    pool_ref(c, true, xv, ho, wo, want, unused);
    auto* y = static_cast<std::uint8_t*>(alloc(want.size() * 2));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnMaxPoolGetWorkspaceSize(tensor(c.shape, ACL_FLOAT16, x), ints({3}), ints({2}), 0,
                                           ints({1, 0, 0, 1}), ints({}), 0,
                                           tensor({1, 3, 2, 3}, ACL_FLOAT16, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnMaxPool, ws, ex), ACL_SUCCESS);
    for (std::size_t i = 0; i < want.size(); ++i)
      EXPECT_EQ(value(y, ACL_FLOAT16, static_cast<std::int64_t>(i)), want[i]) << i;
  }
  void* b = alloc(4096);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* x = tensor({1, 1, 4, 4}, ACL_FLOAT, b);
  aclTensor* y = tensor({1, 1, 2, 2}, ACL_FLOAT, b);
  EXPECT_EQ(
      aclnnMaxPoolGetWorkspaceSize(x, ints({2}), ints({2}), 1, ints({}), ints({}), 0, y, &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);  // autoPad
  EXPECT_EQ(
      aclnnMaxPoolGetWorkspaceSize(x, ints({2}), ints({2}), 0, ints({}), ints({2}), 0, y, &ws, &ex),
      ACLNN_ERR_PARAM_INVALID);  // dilation
  EXPECT_EQ(aclnnMaxPoolGetWorkspaceSize(x, ints({2}), ints({2}), 0, ints({1, 1, 1}), ints({}), 0,
                                         y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // three pads
  EXPECT_EQ(aclnnMaxPoolGetWorkspaceSize(x, ints({2}), ints({2}), 0, ints({2, 0, 1, 0}), ints({}),
                                         0, y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // pads beyond the kernel
  EXPECT_EQ(
      aclnnMaxPoolGetWorkspaceSize(x, nullptr, ints({2}), 0, ints({}), ints({}), 0, y, &ws, &ex),
      ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(PoolTest, AvgPool2dMatchesTheReference) {
  struct Case {
    PoolSpec spec;
    aclDataType type;
    double tol;
  };
  std::vector<Case> cases = {
      {{{1, 2, 9, 9}, 3, 3, 2, 2, 1, 1}, ACL_FLOAT, 1e-5},
      {{{1, 2, 9, 9}, 3, 3, 2, 2, 1, 1}, ACL_FLOAT, 1e-5},
      {{{1, 1, 7, 7}, 3, 3, 2, 2, 1, 1, 1, 1, true}, ACL_FLOAT, 1e-5},
      {{{2, 3, 8, 10}, 2, 3, 2, 1, 1, 1}, ACL_FLOAT, 1e-5},
      {{{1, 4, 14, 14}, 2, 2, 2, 2, 0, 0}, ACL_FLOAT16, 2e-3},
      {{{4, 6, 6}, 3, 3, 3, 3, 0, 0}, ACL_BF16, 1e-2},
  };
  cases[1].spec.include_pad = false;
  cases[3].spec.divisor = 5;
  for (const Case& c : cases) {
    SCOPED_TRACE("case type " + std::to_string(c.type) + " include_pad " +
                 std::to_string(c.spec.include_pad) + " divisor " + std::to_string(c.spec.divisor));
    std::vector<double> xv, want;
    std::vector<std::int32_t> unused;
    std::int64_t ho, wo;
    auto* x = input(c.spec.shape, c.type, xv, 3);
    pool_ref(c.spec, false, xv, ho, wo, want, unused);
    const std::size_t es = c.type == ACL_FLOAT ? 4 : 2;
    auto* y = static_cast<std::uint8_t*>(alloc(want.size() * es));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnAvgPool2dGetWorkspaceSize(
                  tensor(c.spec.shape, c.type, x), ints({c.spec.kh, c.spec.kw}),
                  ints({c.spec.sh, c.spec.sw}), ints({c.spec.ph, c.spec.pw}), c.spec.ceil,
                  c.spec.include_pad, c.spec.divisor, 0,
                  tensor(out_dims(c.spec, ho, wo), c.type, y), &ws, &ex),
              ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnAvgPool2d, ws, ex), ACL_SUCCESS);
    for (std::size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(value(y, c.type, static_cast<std::int64_t>(i)), want[i],
                  c.tol * (std::fabs(want[i]) + 12.5))  // inputs up to 12.5 in magnitude
          << "element " << i;
    }
  }
}

TEST_F(PoolTest, AdaptiveAvgPool2dMatchesTheReference) {
  struct Case {
    std::vector<std::int64_t> shape;
    std::int64_t oh, ow;
    aclDataType type;
    double tol;
  };
  const std::vector<Case> cases = {
      {{2, 3, 7, 7}, 1, 1, ACL_FLOAT, 1e-5},   // ResNet's global pool
      {{1, 2, 10, 9}, 3, 4, ACL_FLOAT, 1e-5},  // uneven windows
      {{1, 64, 7, 7}, 1, 1, ACL_FLOAT16, 2e-3},
      {{5, 6, 6}, 6, 6, ACL_FLOAT, 1e-5},  // identity windows, 3-D
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("out " + std::to_string(c.oh) + "x" + std::to_string(c.ow));
    PoolSpec spec{c.shape, 1, 1, 1, 1, 0, 0};
    spec.adaptive = true;
    spec.oh = c.oh;
    spec.ow = c.ow;
    std::vector<double> xv, want;
    std::vector<std::int32_t> unused;
    std::int64_t ho, wo;
    auto* x = input(c.shape, c.type, xv, 11);
    pool_ref(spec, false, xv, ho, wo, want, unused);
    const std::size_t es = c.type == ACL_FLOAT ? 4 : 2;
    auto* y = static_cast<std::uint8_t*>(alloc(want.size() * es));
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(
        aclnnAdaptiveAvgPool2dGetWorkspaceSize(tensor(c.shape, c.type, x), ints({c.oh, c.ow}),
                                               tensor(out_dims(spec, ho, wo), c.type, y), &ws, &ex),
        ACLNN_SUCCESS);
    ASSERT_EQ(run(aclnnAdaptiveAvgPool2d, ws, ex), ACL_SUCCESS);
    for (std::size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(value(y, c.type, static_cast<std::int64_t>(i)), want[i],
                  c.tol * (std::fabs(want[i]) + 12.5))
          << "element " << i;
    }
  }
}

TEST_F(PoolTest, PoolingRejectsBadArguments) {
  void* b = alloc(8192);
  aclTensor* x = tensor({1, 2, 8, 8}, ACL_FLOAT, b);
  aclTensor* y = tensor({1, 2, 4, 4}, ACL_FLOAT, b);
  aclTensor* yi = tensor({1, 2, 4, 4}, ACL_INT32, b);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  auto maxpool = [&](const aclTensor* self, aclIntArray* k, aclIntArray* pad, aclTensor* out,
                     aclTensor* idx) {
    return aclnnMaxPool2dWithIndicesGetWorkspaceSize(self, k, ints({2, 2}), pad, ints({1, 1}),
                                                     false, out, idx, &ws, &ex);
  };
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({0, 0}), y, yi), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnMaxPool2dWithIndices(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(maxpool(nullptr, ints({2, 2}), ints({0, 0}), y, yi), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(maxpool(x, nullptr, ints({0, 0}), y, yi), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({0, 0}), y, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(maxpool(x, ints({0, 2}), ints({0, 0}), y, yi), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({2, 0}), y, yi), ACLNN_ERR_PARAM_INVALID);  // pad > k/2
  EXPECT_EQ(maxpool(x, ints({2, 2, 2}), ints({0, 0}), y, yi), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({0, 0}), tensor({1, 2, 5, 4}, ACL_FLOAT, b), yi),
            ACLNN_ERR_PARAM_INVALID);  // out shape
  EXPECT_EQ(maxpool(x, ints({2, 2}), ints({0, 0}), y, tensor({1, 2, 4, 4}, ACL_INT64, b)),
            ACLNN_ERR_PARAM_INVALID);  // indices type
  EXPECT_EQ(maxpool(tensor({1, 2, 8, 8}, ACL_INT32, b), ints({2, 2}), ints({0, 0}),
                    tensor({1, 2, 4, 4}, ACL_INT32, b), yi),
            ACLNN_ERR_PARAM_INVALID);  // self type
  EXPECT_EQ(maxpool(tensor({16, 8}, ACL_FLOAT, b), ints({2, 2}), ints({0, 0}), y, yi),
            ACLNN_ERR_PARAM_INVALID);  // 2-D self
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x, ints({2, 2}), ints({2, 2}), ints({0, 0}), false, true,
                                           0, 0, y, &ws, &ex),
            ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAvgPool2d(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x, ints({2, 2}), ints({2, 2}), ints({0, 0}), false, true,
                                           -1, 0, y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // negative divisor
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x, ints({2, 2}), ints({2, 2}), ints({0, 0}), false, true,
                                           0, 7, y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // cubeMathType
  EXPECT_EQ(aclnnAvgPool2dGetWorkspaceSize(x, ints({2, 2}), nullptr, ints({0, 0}), false, true, 0,
                                           0, y, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x, ints({4, 4}), y, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdaptiveAvgPool2d(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x, ints({0, 4}), y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x, ints({3, 4}), y, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);  // out shape
  EXPECT_EQ(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x, nullptr, y, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing
