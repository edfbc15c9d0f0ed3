// SPDX-License-Identifier: Apache-2.0
// The base of the operator tests (tests/runtime/aclnn_*_test.cpp): device buffers, tensors and
// int arrays a test creates, all released at TearDown (a destroy that fails is a test failure).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "aclnn/acl_meta.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {

/// An operator's second phase (aclnnXxx(workspace, size, executor, stream)).
using Phase2 = aclnnStatus (*)(void*, std::uint64_t, aclOpExecutor*, aclrtStream);

/// Runs `phase2` of executor `ex` on `stream` with a workspace of `ws` bytes (none when 0) and
/// synchronises; either failing fails the test.
inline void run_phase2(Phase2 phase2, std::uint64_t ws, aclOpExecutor* ex, aclrtStream stream) {
  void* w = nullptr;
  if (ws > 0) {
    ASSERT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ASSERT_EQ(phase2(w, ws, ex, stream), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  if (w != nullptr) aclrtFree(w);
}

class OperatorTest : public DeviceTest {
 protected:
  void TearDown() override {
    for (aclTensor* t : tensors_) EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
    for (aclIntArray* a : arrays_) EXPECT_EQ(aclDestroyIntArray(a), ACLNN_SUCCESS);
    for (void* p : buffers_) aclrtFree(p);
    tensors_.clear();
    arrays_.clear();
    buffers_.clear();
    DeviceTest::TearDown();
  }
  /// Zeroed device memory: `bytes` and 64 more (kernels may read a burst past a short tensor).
  void* alloc(std::size_t bytes) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, bytes + 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (p != nullptr) std::memset(p, 0, bytes + 64);
    buffers_.push_back(p);
    return p;
  }
  /// `t`, destroyed at TearDown.
  aclTensor* keep(aclTensor* t) {
    EXPECT_NE(t, nullptr);
    if (t != nullptr) tensors_.push_back(t);
    return t;
  }
  /// A contiguous tensor over `data`.
  aclTensor* tensor(const std::vector<std::int64_t>& shape, aclDataType type, void* data) {
    return keep(aclCreateTensor(shape.data(), shape.size(), type, nullptr, 0, ACL_FORMAT_ND,
                                shape.data(), shape.size(), data));
  }
  aclIntArray* ints(const std::vector<std::int64_t>& v) {
    aclIntArray* a = aclCreateIntArray(v.data(), v.size());
    EXPECT_NE(a, nullptr);
    if (a != nullptr) arrays_.push_back(a);
    return a;
  }

  std::vector<aclTensor*> tensors_;
  std::vector<aclIntArray*> arrays_;
  std::vector<void*> buffers_;
};

}  // namespace npusim::rt::testing
