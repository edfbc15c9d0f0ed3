// SPDX-License-Identifier: Apache-2.0
// The shape family of the operator library (runtime/aclnn/shape.cpp): Permute and Embedding,
// run on the Ascend C twin through FakeBackend and checked against host references (exact: data
// movement / selection). RotaryPositionEmbedding: aclnn_rope_test.cpp; pooling:
// aclnn_pool_test.cpp.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "tests/runtime/aclnn/shape_support.h"

namespace npusim::rt::testing::shape_test {
namespace {

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

}  // namespace
}  // namespace npusim::rt::testing::shape_test
