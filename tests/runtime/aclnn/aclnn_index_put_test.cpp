// SPDX-License-Identifier: Apache-2.0
// aclnnIndexPutImpl on FakeBackend: an AI CPU task (not an AI Core kernel) that replaces or
// accumulates selfRef[indices] with values, checked against a host reference; its counted work;
// an index out of range; bad arguments.
#include <cstdint>
#include <cstring>
#include <vector>

#include "aclnnop/aclnn_index_put_impl.h"
#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing {
namespace {

class IndexPutTest : public OperatorTest {
 protected:
  void TearDown() override {
    for (aclTensorList* l : lists_) EXPECT_EQ(aclDestroyTensorList(l), ACLNN_SUCCESS);
    lists_.clear();
    OperatorTest::TearDown();
  }
  // A device buffer holding `v`.
  template <class T>
  void* upload(const std::vector<T>& v) {
    void* p = alloc(v.size() * sizeof(T));
    if (!v.empty()) {
      EXPECT_EQ(aclrtMemcpy(p, v.size() * sizeof(T), v.data(), v.size() * sizeof(T),
                            ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
    }
    return p;
  }
  template <class T>
  std::vector<T> download(void* p, std::size_t n) {
    std::vector<T> v(n);
    EXPECT_EQ(aclrtMemcpy(v.data(), n * sizeof(T), p, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return v;
  }
  // A list of 1-D INT64 index tensors (owned by the list, destroyed at TearDown).
  aclTensorList* index_list(const std::vector<std::vector<std::int64_t>>& idx) {
    std::vector<aclTensor*> ts;
    for (const auto& i : idx) {
      const std::int64_t n = static_cast<std::int64_t>(i.size());
      ts.push_back(aclCreateTensor(&n, 1, ACL_INT64, nullptr, 0, ACL_FORMAT_ND, &n, 1, upload(i)));
    }
    aclTensorList* l = aclCreateTensorList(ts.data(), ts.size());
    EXPECT_NE(l, nullptr);
    lists_.push_back(l);
    return l;
  }
  aclError run(aclTensor* self, aclTensorList* idx, aclTensor* values, bool accumulate) {
    uint64_t ws = 1;
    aclOpExecutor* ex = nullptr;
    EXPECT_EQ(aclnnIndexPutImplGetWorkspaceSize(self, idx, values, accumulate, false, &ws, &ex),
              ACLNN_SUCCESS);
    EXPECT_EQ(ws, 0u);
    EXPECT_EQ(aclnnIndexPutImpl(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
    return aclrtSynchronizeStream(stream_);
  }
  // The last AI CPU task run.
  const FakeBackend::TaskTrace* last_task() {
    for (auto it = fake().tasks().rbegin(); it != fake().tasks().rend(); ++it) {
      if (it->kind == TaskKind::kAiCpu) return &*it;
    }
    return nullptr;
  }

  std::vector<aclTensorList*> lists_;
};

TEST_F(IndexPutTest, ReplacesRowsPickedByTwoIndexTensorsOnTheAiCpu) {
  // self [3, 4, 2] float; indices (dim 0, dim 1) pick 3 rows of 2; values [3, 2].
  std::vector<float> host(24);
  for (int i = 0; i < 24; ++i) host[i] = static_cast<float>(i);
  void* s = upload(host);
  const std::vector<std::int64_t> i0 = {0, 2, -1}, i1 = {3, 1, 0};
  const std::vector<float> vals = {100, 101, 200, 201, 300, 301};
  ASSERT_EQ(run(tensor({3, 4, 2}, ACL_FLOAT, s), index_list({i0, i1}),
                tensor({3, 2}, ACL_FLOAT, upload(vals)), false),
            ACL_SUCCESS);
  std::vector<float> expect = host;
  for (int n = 0; n < 3; ++n) {
    const std::int64_t row = ((i0[n] + 3) % 3) * 4 + i1[n];
    expect[row * 2] = vals[n * 2];
    expect[row * 2 + 1] = vals[n * 2 + 1];
  }
  EXPECT_EQ(download<float>(s, 24), expect);
  const FakeBackend::TaskTrace* t = last_task();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->name, "IndexPut");
  for (const FakeBackend::TaskTrace& k : fake().tasks()) EXPECT_NE(k.kind, TaskKind::kKernel);
  EXPECT_GT(t->aicpu.basic_blocks, 0u);
  // At least the 6 index reads, 6 value reads and 6 writes of 8 + 4 + 4 bytes.
  EXPECT_GE(t->aicpu.bytes, 6u * 8u + 6u * 4u + 6u * 4u);
}

TEST_F(IndexPutTest, AccumulatesDuplicatesAndBroadcastsValues) {
  std::vector<std::int64_t> host = {1, 2, 3, 4, 5};
  void* s = upload(host);
  // Index 1 twice and 4 once; one value (7) broadcast to every picked element.
  ASSERT_EQ(run(tensor({5}, ACL_INT64, s), index_list({{1, 4, 1}}),
                tensor({1}, ACL_INT64, upload(std::vector<std::int64_t>{7})), true),
            ACL_SUCCESS);
  EXPECT_EQ(download<std::int64_t>(s, 5), (std::vector<std::int64_t>{1, 16, 3, 4, 12}));
}

TEST_F(IndexPutTest, CountedWorkGrowsWithTheIndicesAndRepeatsExactly) {
  std::vector<std::int32_t> host(1000, 0);
  void* s = upload(host);
  std::vector<std::int64_t> idx100(100), idx200(200);
  for (int i = 0; i < 200; ++i) {
    if (i < 100) idx100[i] = i;
    idx200[i] = i * 3;
  }
  auto work = [&](const std::vector<std::int64_t>& idx) {
    std::vector<std::int32_t> v(idx.size(), 1);
    const std::int64_t n = static_cast<std::int64_t>(idx.size());
    EXPECT_EQ(run(tensor({1000}, ACL_INT32, s), index_list({idx}), tensor({n}, ACL_INT32, upload(v)),
                  true),
              ACL_SUCCESS);
    return last_task()->aicpu;
  };
  const models::AiCpuCount a = work(idx100), b = work(idx100), c = work(idx200);
  EXPECT_EQ(a.basic_blocks, b.basic_blocks);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_GT(c.basic_blocks, a.basic_blocks);
  // Per element: an 8-byte index, a 4-byte value, a 4-byte read and a 4-byte write of self.
  EXPECT_EQ(c.bytes - a.bytes, 100u * (8u + 4u + 4u + 4u));
}

TEST_F(IndexPutTest, AnIndexOutOfRangeEndsTheTaskWithTheAiCpuException) {
  void* s = upload(std::vector<float>(4, 0.0f));
  EXPECT_EQ(run(tensor({4}, ACL_FLOAT, s), index_list({{1, 4}}),
                tensor({2}, ACL_FLOAT, upload(std::vector<float>{1, 2})), false),
            ACL_ERROR_RT_AICPU_EXCEPTION);
}

TEST_F(IndexPutTest, BadArgumentsAreRejected) {
  void* b = alloc(256);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclTensor* self = tensor({4, 2}, ACL_FLOAT, b);
  // values of another type, of a wrong size; too many index tensors; BOOL masks.
  EXPECT_EQ(aclnnIndexPutImplGetWorkspaceSize(self, index_list({{0}}), tensor({2}, ACL_INT32, b),
                                              false, false, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnIndexPutImplGetWorkspaceSize(self, index_list({{0, 1}}),
                                              tensor({3}, ACL_FLOAT, b), false, false, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnIndexPutImplGetWorkspaceSize(self, index_list({{0}, {0}, {0}}),
                                              tensor({1}, ACL_FLOAT, b), false, false, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  const std::int64_t n = 4;
  aclTensor* mask = aclCreateTensor(&n, 1, ACL_BOOL, nullptr, 0, ACL_FORMAT_ND, &n, 1, b);
  aclTensorList* masks = aclCreateTensorList(&mask, 1);
  lists_.push_back(masks);
  EXPECT_EQ(aclnnIndexPutImplGetWorkspaceSize(self, masks, tensor({1}, ACL_FLOAT, b), false, false,
                                              &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnIndexPutImplGetWorkspaceSize(nullptr, index_list({{0}}),
                                              tensor({1}, ACL_FLOAT, b), false, false, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnIndexPutImplGetWorkspaceSize(self, nullptr, tensor({1}, ACL_FLOAT, b), false,
                                              false, &ws, &ex),
            ACLNN_ERR_PARAM_NULLPTR);
}

}  // namespace
}  // namespace npusim::rt::testing
