// SPDX-License-Identifier: Apache-2.0
// The fixture of the shape family's tests (aclnn_shape_test.cpp, aclnn_rope_test.cpp,
// aclnn_pool_test.cpp): operators run on the Ascend C twin through FakeBackend.
#pragma once

#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "tests/runtime/aclnn_support.h"

namespace npusim::rt::testing::shape_test {

inline std::int64_t numel(const std::vector<std::int64_t>& shape) {
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
  // A tensor over 8 KiB of scratch memory shared by the argument checks (no kernel runs on it).
  aclTensor* arg(const std::vector<std::int64_t>& shape, aclDataType type = ACL_FLOAT) {
    if (scratch_ == nullptr) scratch_ = alloc(8192);
    return tensor(shape, type, scratch_);
  }

  void* scratch_ = nullptr;
};

}  // namespace npusim::rt::testing::shape_test
