// SPDX-License-Identifier: Apache-2.0
// Bad tensors given to the operator library (issue 23, items 8 and 14): a shape whose element
// count, byte size or extent overflows int64, a view past its storage or past its buffer, and a
// tensor in another device's memory without peer access. Each is the documented error, never a
// crash (a shape such as [INT64_MAX, 2] used to end the process with SIGFPE in phase one).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

class AclnnBadInputTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    float one = 1.0f;
    alpha_ = aclCreateScalar(&one, ACL_FLOAT);
  }
  void TearDown() override {
    for (aclTensor* t : tensors_) EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
    aclDestroyScalar(alpha_);
    aclrtFree(dev_);
    DeviceTest::TearDown();
  }
  // A contiguous FLOAT tensor over `data` (storage shape = its shape); nullptr when refused.
  aclTensor* create(std::vector<int64_t> shape, void* data) {
    aclTensor* t = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, nullptr, 0,
                                   ACL_FORMAT_ND, shape.data(), shape.size(), data);
    if (t != nullptr) tensors_.push_back(t);
    return t;
  }
  aclnnStatus add(const aclTensor* a, const aclTensor* b, aclTensor* out, aclOpExecutor** ex) {
    uint64_t ws = 0;
    return aclnnAddGetWorkspaceSize(a, b, alpha_, out, &ws, ex);
  }
  static std::string message() { return aclGetRecentErrMsg(); }
  void* dev_ = nullptr;
  aclScalar* alpha_ = nullptr;
  std::vector<aclTensor*> tensors_;
};

TEST_F(AclnnBadInputTest, ShapesWhoseSizesOverflowAreRefusedAtCreation) {
  const int64_t big = int64_t{1} << 31;
  EXPECT_EQ(create({big, big}, dev_), nullptr);  // 2^62 floats: 2^64 bytes
  EXPECT_NE(message().find("byte size overflows"), std::string::npos) << message();
  EXPECT_EQ(create({kMax, 2}, dev_), nullptr);  // the element count itself overflows
  EXPECT_NE(message().find("element count overflows"), std::string::npos) << message();
  // Without a storage shape, and with strides whose reach overflows.
  const int64_t dims[2] = {kMax, 2};
  EXPECT_EQ(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, dev_),
            nullptr);
  const int64_t two[2] = {2, 2}, strides[2] = {kMax, 1};
  EXPECT_EQ(aclCreateTensor(two, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, nullptr, 0, dev_),
            nullptr);
  EXPECT_NE(message().find("extent overflows"), std::string::npos) << message();
  // aclInitTensor refuses the same and leaves the tensor as it was.
  aclTensor* t = create({4}, dev_);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(aclInitTensor(t, dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, dev_),
            ACLNN_ERR_PARAM_INVALID);
  int64_t* got = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetViewShape(t, &got, &n), ACLNN_SUCCESS);
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(got[0], 4);
  delete[] got;
}

TEST_F(AclnnBadInputTest, AViewPastItsStorageShapeIsRefused) {
  const int64_t dims[1] = {4}, storage[1] = {4}, offset_ok[1] = {8};
  aclTensor* fits = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 4, ACL_FORMAT_ND, offset_ok, 1,
                                    dev_);  // elements 4..7 of 8
  ASSERT_NE(fits, nullptr);
  tensors_.push_back(fits);
  EXPECT_EQ(aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 1, ACL_FORMAT_ND, storage, 1, dev_),
            nullptr);  // elements 1..4 of 4
  EXPECT_NE(message().find("storage shape holds 4 elements"), std::string::npos) << message();
  const int64_t strided[1] = {2};
  EXPECT_EQ(aclCreateTensor(dims, 1, ACL_FLOAT, strided, 0, ACL_FORMAT_ND, storage, 1, dev_),
            nullptr);  // elements 0, 2, 4, 6 of 4
}

// [1024, 1024] floats (4 MiB) over a 4 KiB buffer: phase one refuses it; an address set later
// that puts a fitting tensor past its buffer's end is refused by phase two.
TEST_F(AclnnBadInputTest, ATensorLargerThanItsBufferFailsBothPhases) {
  aclTensor* huge = create({1024, 1024}, dev_);
  ASSERT_NE(huge, nullptr);  // its storage shape says it fits; its buffer does not
  aclTensor* out = create({1024}, dev_);
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(add(huge, huge, create({1024, 1024}, dev_), &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message().find("input 0 spans 4194304 bytes"), std::string::npos) << message();
  aclTensor* a = create({1024}, dev_);  // exactly the buffer
  ASSERT_EQ(add(a, a, out, &ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetInputTensorAddr(ex, 1, a, static_cast<char*>(dev_) + 3072), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message().find("input 1 spans 4096 bytes"), std::string::npos) << message();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
}

// An operator on device 0's stream reading device 1's memory needs device 0 to have enabled peer
// access to device 1, as a copy between them does (runtime/core/peer.h).
TEST_F(AclnnBadInputTest, AnotherDevicesMemoryNeedsPeerAccess) {
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* remote = nullptr;
  ASSERT_EQ(aclrtMalloc(&remote, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<float> twos(8, 2.0f);
  ASSERT_EQ(aclrtMemcpy(remote, 4096, twos.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  std::vector<float> ones(8, 1.0f);
  ASSERT_EQ(aclrtMemcpy(dev_, 4096, ones.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclTensor* local = create({8}, dev_);
  aclTensor* peer = create({8}, remote);
  aclTensor* out = create({8}, static_cast<char*>(dev_) + 1024);
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(add(local, peer, out, &ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnAdd(nullptr, 0, ex, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(message().find("needs peer access"), std::string::npos) << message();
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  ASSERT_EQ(add(local, peer, out, &ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnAdd(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<float> sum(8);
  ASSERT_EQ(aclrtMemcpy(sum.data(), 32, static_cast<char*>(dev_) + 1024, 32,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(sum, std::vector<float>(8, 3.0f));
  ASSERT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
  aclrtFree(remote);
}

}  // namespace
}  // namespace npusim::rt::testing
