// SPDX-License-Identifier: Apache-2.0
// The operator library (runtime/aclnn/): aclnnAdd / aclnnMul on device tensors, as kernel
// launches that run when the device reaches them (and so replay inside model run instances).
#include <cstring>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "runtime/core/half_float.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

class AclnnTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  void TearDown() override {
    for (aclTensor* t : tensors_) EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
    aclrtFree(dev_);
    DeviceTest::TearDown();
  }
  // A contiguous tensor at byte offset `at` of the device buffer.
  aclTensor* tensor(std::vector<int64_t> shape, aclDataType type, std::size_t at) {
    aclTensor* t = aclCreateTensor(shape.data(), shape.size(), type, nullptr, 0, ACL_FORMAT_ND,
                                   shape.data(), shape.size(), static_cast<char*>(dev_) + at);
    EXPECT_NE(t, nullptr);
    tensors_.push_back(t);
    return t;
  }
  float* f32(std::size_t at) { return reinterpret_cast<float*>(static_cast<char*>(dev_) + at); }
  void* dev_ = nullptr;
  std::vector<aclTensor*> tensors_;
};

TEST_F(AclnnTest, AddAndMulComputeWhenTheDeviceRunsThem) {
  aclTensor* a = tensor({4, 2}, ACL_FLOAT, 0);
  aclTensor* b = tensor({4, 2}, ACL_FLOAT, 64);
  aclTensor* sum = tensor({4, 2}, ACL_FLOAT, 128);
  aclTensor* prod = tensor({4, 2}, ACL_FLOAT, 192);
  for (int i = 0; i < 8; ++i) {
    f32(0)[i] = static_cast<float>(i + 1);
    f32(64)[i] = 2.0f;
  }
  float alpha_value = 1.5f;
  aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
  uint64_t ws = 1;
  aclOpExecutor* add = nullptr;
  aclOpExecutor* mul = nullptr;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(a, b, alpha, sum, &ws, &add), ACLNN_SUCCESS);
  EXPECT_EQ(ws, 0u);
  ASSERT_EQ(aclnnMulGetWorkspaceSize(sum, b, prod, &ws, &mul), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, 0, add, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnMul(nullptr, 0, mul, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(f32(192)[7], 0.0f);  // launched, not run yet
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(f32(128)[i], static_cast<float>(i + 1) + 3.0f);
    EXPECT_EQ(f32(192)[i], (static_cast<float>(i + 1) + 3.0f) * 2.0f);
  }
  int kernels = 0;
  for (const auto& t : fake().tasks()) kernels += t.kind == TaskKind::kKernel;
  EXPECT_EQ(kernels, 2);
  // An executor runs once.
  EXPECT_EQ(aclnnAdd(nullptr, 0, add, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyScalar(alpha), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalar(alpha), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(AclnnTest, BroadcastsAndConvertsTypes) {
  aclTensor* a = tensor({2, 3}, ACL_FLOAT16, 0);
  aclTensor* row = tensor({3}, ACL_INT32, 64);
  aclTensor* out = tensor({2, 3}, ACL_FLOAT, 128);
  auto* h = reinterpret_cast<std::uint16_t*>(dev_);
  auto* r = reinterpret_cast<std::int32_t*>(static_cast<char*>(dev_) + 64);
  for (int i = 0; i < 6; ++i) h[i] = float_to_half(0.5f * static_cast<float>(i));
  for (int j = 0; j < 3; ++j) r[j] = 10 * (j + 1);
  aclOpExecutor* mul = nullptr;
  uint64_t ws = 0;
  // FLOAT16 * INT32 promotes to FLOAT16 (other converted first), the FLOAT16 product is then
  // converted to out's FLOAT: both conversions go through the workspace.
  ASSERT_EQ(aclnnMulGetWorkspaceSize(a, row, out, &ws, &mul), ACLNN_SUCCESS);
  ASSERT_GT(ws, 0u);
  EXPECT_EQ(aclnnMul(nullptr, ws, mul, stream_), ACLNN_ERR_PARAM_NULLPTR);  // needs workspace
  ASSERT_EQ(aclnnMulGetWorkspaceSize(a, row, out, &ws, &mul), ACLNN_SUCCESS);
  void* work = nullptr;
  ASSERT_EQ(aclrtMalloc(&work, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclnnMul(work, ws, mul, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  aclrtFree(work);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(f32(128)[i], 0.5f * static_cast<float>(i) * 10.0f * static_cast<float>(i % 3 + 1));
  }
}

TEST_F(AclnnTest, ReplaysInsideAModel) {
  aclTensor* x = tensor({8}, ACL_FLOAT, 0);
  aclTensor* one = tensor({1}, ACL_FLOAT, 64);
  f32(64)[0] = 1.0f;
  float alpha_value = 1.0f;
  aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
  aclOpExecutor* add = nullptr;
  uint64_t ws = 0;
  ASSERT_EQ(aclnnAddGetWorkspaceSize(x, one, alpha, x, &ws, &add), ACLNN_SUCCESS);  // x += 1
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, 0, add, stream_), ACLNN_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(f32(0)[5], 3.0f);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  ASSERT_EQ(aclDestroyScalar(alpha), ACLNN_SUCCESS);
}

TEST_F(AclnnTest, MisuseIsRefused) {
  int64_t dims[2] = {2, 2};
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, dev_),
            nullptr);
  EXPECT_EQ(aclCreateTensor(dims, 2, ACL_STRING, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, dev_),
            nullptr);
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  aclTensor* a = tensor({2, 2}, ACL_FLOAT, 0);
  aclTensor* b = tensor({3}, ACL_FLOAT, 64);
  aclTensor* out = tensor({2, 2}, ACL_FLOAT, 128);
  aclOpExecutor* ex = nullptr;
  uint64_t ws = 0;
  EXPECT_EQ(aclnnMulGetWorkspaceSize(a, b, out, &ws, &ex), ACLNN_ERR_PARAM_INVALID);  // shapes
  EXPECT_EQ(aclnnMulGetWorkspaceSize(a, nullptr, out, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnMulGetWorkspaceSize(a, a, out, nullptr, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnAddGetWorkspaceSize(a, a, nullptr, out, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnMul(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

}  // namespace
}  // namespace npusim::rt::testing
