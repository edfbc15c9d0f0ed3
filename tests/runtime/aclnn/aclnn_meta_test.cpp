// SPDX-License-Identifier: Apache-2.0
// The operator library's meta API (runtime/aclnn/meta.cpp) and executors (op_api.cpp): object
// lifetimes and queries, repeatable executors, device addresses fixed at launch.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "aclnnop/aclnn_mul.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

class AclnnMetaTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtMalloc(&dev_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtFree(dev_);
    DeviceTest::TearDown();
  }
  float* f32(std::size_t at) { return reinterpret_cast<float*>(static_cast<char*>(dev_) + at); }
  aclTensor* vec(int64_t n, std::size_t at) {
    return aclCreateTensor(&n, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &n, 1,
                           static_cast<char*>(dev_) + at);
  }
  void* dev_ = nullptr;
};

TEST_F(AclnnMetaTest, TensorQueriesReturnWhatWasCreated) {
  const int64_t dims[3] = {2, 3, 4};
  const int64_t strides[3] = {1, 8, 2};  // a permuted view
  const int64_t storage[1] = {64};
  aclTensor* t = aclCreateTensor(dims, 3, ACL_FLOAT16, strides, 5, ACL_FORMAT_NCHW, storage, 1,
                                 dev_);
  ASSERT_NE(t, nullptr);
  int64_t* got = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetViewShape(t, &got, &n), ACLNN_SUCCESS);
  ASSERT_EQ(n, 3u);
  EXPECT_EQ(got[0], 2);
  EXPECT_EQ(got[2], 4);
  delete[] got;
  ASSERT_EQ(aclGetViewStrides(t, &got, &n), ACLNN_SUCCESS);
  EXPECT_EQ(got[1], 8);
  delete[] got;
  ASSERT_EQ(aclGetStorageShape(t, &got, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(got[0], 64);
  delete[] got;
  int64_t offset = 0;
  ASSERT_EQ(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, 5);
  aclDataType type = ACL_FLOAT;
  ASSERT_EQ(aclGetDataType(t, &type), ACLNN_SUCCESS);
  EXPECT_EQ(type, ACL_FLOAT16);
  aclFormat format = ACL_FORMAT_ND;
  ASSERT_EQ(aclGetFormat(t, &format), ACLNN_SUCCESS);
  EXPECT_EQ(format, ACL_FORMAT_NCHW);
  void* raw = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(t, &raw), ACLNN_SUCCESS);
  EXPECT_EQ(raw, dev_);
  // Re-described in place.
  ASSERT_EQ(aclInitTensor(t, dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, dev_),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclGetViewStrides(t, &got, &n), ACLNN_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(got[0], 3);  // contiguous [2, 3]
  delete[] got;
  EXPECT_EQ(aclGetViewShape(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetViewOffset(t, &offset), ACLNN_ERR_PARAM_INVALID);  // destroyed
}

TEST_F(AclnnMetaTest, ArraysAndListsOwnWhatTheyHold) {
  const int64_t ints[3] = {1, -2, 3};
  const float floats[2] = {0.5f, 1.5f};
  const bool bools[4] = {true, false, true, true};
  aclIntArray* ia = aclCreateIntArray(ints, 3);
  aclFloatArray* fa = aclCreateFloatArray(floats, 2);
  aclBoolArray* ba = aclCreateBoolArray(bools, 4);
  ASSERT_NE(ia, nullptr);
  uint64_t size = 0;
  ASSERT_EQ(aclGetIntArraySize(ia, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u);
  ASSERT_EQ(aclGetFloatArraySize(fa, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u);
  ASSERT_EQ(aclGetBoolArraySize(ba, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(aclCreateIntArray(nullptr, 2), nullptr);
  EXPECT_EQ(aclDestroyIntArray(ia), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyIntArray(ia), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyFloatArray(fa), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(ba), ACLNN_SUCCESS);

  aclTensor* a = vec(4, 0);
  aclTensor* b = vec(4, 64);
  const aclTensor* members[2] = {a, b};
  aclTensorList* list = aclCreateTensorList(members, 2);
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(a), ACLNN_ERR_PARAM_INVALID);  // went with the list
  float one = 1.0f;
  aclScalar* s = aclCreateScalar(&one, ACL_FLOAT);
  const aclScalar* scalars[1] = {s};
  aclScalarList* sl = aclCreateScalarList(scalars, 1);
  ASSERT_EQ(aclGetScalarListSize(sl, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 1u);
  EXPECT_EQ(aclDestroyScalarList(sl), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalar(s), ACLNN_ERR_PARAM_INVALID);
  const aclTensor* stale[1] = {a};
  EXPECT_EQ(aclCreateTensorList(stale, 1), nullptr);
}

TEST_F(AclnnMetaTest, RepeatableExecutorRunsUntilDestroyedWithAddressesFixedAtLaunch) {
  aclTensor* x = vec(4, 0);
  aclTensor* y = vec(4, 64);
  aclTensor* out = vec(4, 128);
  for (int i = 0; i < 4; ++i) {
    f32(0)[i] = static_cast<float>(i);
    f32(64)[i] = 2.0f;
    f32(256)[i] = 10.0f;  // a second x
  }
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnMulGetWorkspaceSize(x, y, out, &ws, &ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnMul(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  // Changed after the first launch, before it ran: the first launch keeps its addresses.
  ASSERT_EQ(aclSetInputTensorAddr(ex, 0, x, static_cast<char*>(dev_) + 256), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(ex, 0, out, static_cast<char*>(dev_) + 384), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnMul(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);  // queued launches keep it alive
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(f32(128)[3], 6.0f);
  EXPECT_EQ(f32(384)[3], 20.0f);
  EXPECT_EQ(aclnnMul(nullptr, 0, ex, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetInputTensorAddr(ex, 0, x, dev_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR);
  // aclSetTensorAddr counts inputs then outputs; out of range is refused.
  ASSERT_EQ(aclnnMulGetWorkspaceSize(x, y, out, &ws, &ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_ERR_PARAM_INVALID);  // not repeatable
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetTensorAddr(ex, 2, out, static_cast<char*>(dev_) + 512), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetTensorAddr(ex, 3, out, dev_), ACLNN_ERR_PARAM_INVALID);
  ASSERT_EQ(aclnnMul(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(f32(512)[1], 2.0f);  // x (original address) * y
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
  for (aclTensor* t : {x, y, out}) EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

TEST_F(AclnnMetaTest, AclnnInitTakesNoFileOrAReadableOne) {
  EXPECT_EQ(aclnnInit(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnInit("/nonexistent/npusim/aclnn.json"), ACLNN_ERR_PARAM_INVALID);
  const std::string name = "/tmp/npusim_aclnn_init_" + std::to_string(getpid()) + ".json";
  const char* path = name.c_str();
  std::FILE* f = std::fopen(path, "w");
  ASSERT_NE(f, nullptr);
  std::fputs("{}\n", f);
  std::fclose(f);
  EXPECT_EQ(aclnnInit(path), ACLNN_SUCCESS);  // read; its settings are not applied (logged)
  std::remove(path);
  EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing
