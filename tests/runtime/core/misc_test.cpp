// SPDX-License-Identifier: Apache-2.0
// Allocator descriptors, data buffers, last task id.
#include "acl/acl_rt_allocator.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

void* alloc_fn(aclrtAllocator, size_t) { return nullptr; }
void free_fn(aclrtAllocator, aclrtAllocatorBlock) {}
void* advise_fn(aclrtAllocator, size_t, aclrtAllocatorAddr) { return nullptr; }
void* addr_fn(aclrtAllocatorBlock) { return nullptr; }

using MiscTest = DeviceTest;

TEST_F(MiscTest, AllocatorDescriptorRoundTrip) {
  int state = 0;
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(desc, nullptr);
  EXPECT_EQ(aclrtAllocatorRegister(stream_, desc), ACL_ERROR_INVALID_PARAM);  // incomplete
  ASSERT_EQ(aclrtAllocatorSetObjToDesc(desc, &state), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetAllocFuncToDesc(desc, alloc_fn), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetFreeFuncToDesc(desc, free_fn), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, advise_fn), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, addr_fn), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorRegister(stream_, desc), ACL_SUCCESS);
  aclrtAllocatorDesc d = nullptr;
  aclrtAllocator obj = nullptr;
  aclrtAllocatorAllocFunc a = nullptr;
  aclrtAllocatorFreeFunc f = nullptr;
  aclrtAllocatorAllocAdviseFunc adv = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc g = nullptr;
  ASSERT_EQ(aclrtAllocatorGetByStream(stream_, &d, &obj, &a, &f, &adv, &g), ACL_SUCCESS);
  EXPECT_EQ(d, desc);
  EXPECT_EQ(obj, &state);
  EXPECT_EQ(a, &alloc_fn);
  EXPECT_EQ(f, &free_fn);
  EXPECT_EQ(adv, &advise_fn);
  EXPECT_EQ(g, &addr_fn);
  EXPECT_EQ(aclrtAllocatorGetByStream(nullptr, &d, &obj, &a, &f, &adv, &g),
            ACL_ERROR_INVALID_PARAM);  // nothing on the default stream
  ASSERT_EQ(aclrtAllocatorUnregister(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorUnregister(stream_), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtAllocatorSetObjToDesc(desc, &state), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtAllocatorSetAllocFuncToDesc(nullptr, alloc_fn), ACL_ERROR_INVALID_PARAM);
}

TEST_F(MiscTest, DataBuffers) {
  int data[4] = {};
  aclDataBuffer* b = aclCreateDataBuffer(data, sizeof data);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(b), data);
  EXPECT_EQ(aclGetDataBufferSizeV2(b), sizeof data);
  ASSERT_EQ(aclUpdateDataBuffer(b, data + 1, 4), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferSizeV2(b), 4u);
  ASSERT_EQ(aclDestroyDataBuffer(b), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(b), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);
  EXPECT_EQ(aclCreateDataBuffer(nullptr, 8), nullptr);
}

TEST_F(MiscTest, ThreadLastTaskId) {
  uint32_t id = 99;
  EXPECT_EQ(aclrtGetThreadLastTaskId(&id), ACL_ERROR_RT_PARAM_INVALID);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev, 64, 0, 64, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev, 64, 0, 64, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetThreadLastTaskId(&id), ACL_SUCCESS);
  EXPECT_EQ(id, 1u);
}

}  // namespace
}  // namespace npusim::rt::testing
