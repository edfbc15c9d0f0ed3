// SPDX-License-Identifier: Apache-2.0
// Registered host memory (aclrtHostRegister / V2, aclrtHostGetDevicePointer, aclrtHostUnregister)
// and managed memory (aclrtMemAllocManaged): visible to kernels, to memcpy's direction inference
// and to pointer queries; the documented checks.
#include <cstdlib>
#include <vector>

#include "tests/runtime/kernel_sources.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

constexpr size_t kPage = 4096;

class HostMemoryTest : public DeviceTest {};

TEST_F(HostMemoryTest, MappedHostMemoryIsVisibleToKernels) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 8 * kPage), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % kPage, 0u);  // page-aligned, as registering needs
  ASSERT_EQ(StoreCheckedDo(1, stream_, host, 11), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);  // not mapped
  ASSERT_EQ(aclrtHostRegisterV2(host, 8 * kPage, ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  void* dev = nullptr;
  ASSERT_EQ(aclrtHostGetDevicePointer(static_cast<char*>(host) + 64, &dev, 0), ACL_SUCCESS);
  EXPECT_EQ(dev, static_cast<char*>(host) + 64);
  ASSERT_EQ(StoreCheckedDo(1, stream_, dev, 12), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(*reinterpret_cast<int32_t*>(static_cast<char*>(host) + 64), 12);
  aclrtPtrAttributes attr;
  ASSERT_EQ(aclrtPointerGetAttributes(dev, &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  ASSERT_EQ(aclrtHostUnregister(host), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostGetDevicePointer(host, &dev, 0), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

TEST_F(HostMemoryTest, PageableMemoryCanBeRegisteredPinnedAndMapped) {
  void* host = std::aligned_alloc(kPage, 2 * kPage);
  ASSERT_EQ(aclrtHostRegisterV2(host, 2 * kPage, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED),
            ACL_SUCCESS);
  ASSERT_EQ(StoreCheckedDo(1, stream_, host, 21), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(*static_cast<int32_t*>(host), 21);
  // Registered memory is pinned: an asynchronous copy from it does not wait.
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, kPage, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  SimTime before = host_clock();
  ASSERT_EQ(aclrtMemcpyAsync(d, kPage, host, kPage, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  EXPECT_LT(host_clock() - before, 5 * sim::kUs);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtHostUnregister(host), ACL_SUCCESS);
  std::free(host);
}

TEST_F(HostMemoryTest, RegistrationChecks) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 4 * kPage), ACL_SUCCESS);
  char* p = static_cast<char*>(host);
  void* dev = nullptr;
  EXPECT_EQ(aclrtHostRegisterV2(p + 64, kPage, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtHostRegisterV2(p, 0, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegisterV2(nullptr, kPage, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegisterV2(p, kPage, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostRegisterV2(p, kPage, ACL_HOST_REG_IOMEMORY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtHostRegisterV2(p, kPage, ACL_HOST_REG_PINNED), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtHostRegisterV2(p, 8 * kPage, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtHostRegisterV2(p, 2 * kPage, ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostRegisterV2(p + kPage, kPage, ACL_HOST_REG_MAPPED),
            ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  EXPECT_EQ(aclrtHostGetDevicePointer(p, &dev, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtHostUnregister(p + kPage), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  ASSERT_EQ(aclrtHostRegister(p + 2 * kPage, kPage, ACL_HOST_REGISTER_MAPPED, &dev), ACL_SUCCESS);
  EXPECT_EQ(dev, p + 2 * kPage);
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, kPage, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostRegisterV2(d, kPage, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);  // drops the registrations inside it
  EXPECT_EQ(aclrtHostUnregister(p), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
}

TEST_F(HostMemoryTest, ManagedMemoryIsSharedByHostCodeKernelsAndCopies) {
  int32_t* m = nullptr;
  ASSERT_EQ(aclrtMemAllocManaged(reinterpret_cast<void**>(&m), 100, ACL_RT_MEM_ATTACH_GLOBAL),
            ACL_SUCCESS);
  m[0] = 5;  // host code uses it directly
  ASSERT_EQ(AddOneDo(3, stream_, m), ACL_SUCCESS);
  ASSERT_EQ(StoreCheckedDo(1, stream_, m + 1, 9), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(m[0], 8);
  EXPECT_EQ(m[1], 9);
  int32_t host[2] = {0, 0};
  ASSERT_EQ(aclrtMemcpy(host, 8, m, 8, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(host[1], 9);
  ASSERT_EQ(aclrtMemcpy(host, 8, m, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  host[0] = 42;
  ASSERT_EQ(aclrtMemcpy(m, 8, host, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(m[0], 42);
  ASSERT_EQ(aclrtMemcpy(m + 4, 8, m, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(m[4], 42);
  ASSERT_EQ(aclrtMemset(m, 100, 0, 100), ACL_SUCCESS);
  aclrtPtrAttributes attr;
  ASSERT_EQ(aclrtPointerGetAttributes(m, &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
  void* base = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtMemGetAddressRange(m + 10, &base, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 2u << 20);  // rounded up to 2 MiB
  EXPECT_EQ(aclrtFreeHost(m), ACL_ERROR_RT_MEMORY_FREE);
  EXPECT_EQ(aclrtFree(m), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(m), ACL_ERROR_RT_MEMORY_FREE);
}

TEST_F(HostMemoryTest, ManagedAllocationChecks) {
  void* m = nullptr;
  EXPECT_EQ(aclrtMemAllocManaged(&m, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemAllocManaged(&m, 64, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemAllocManaged(nullptr, 64, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
}

class Ascend910Test : public DeviceTest {
  void configure(models::ChipConfig& config, FakeTiming&) override { config.soc.npu_arch = 1001; }
};

TEST_F(Ascend910Test, ManagedMemoryIsNotSupported) {
  void* m = nullptr;
  EXPECT_EQ(aclrtMemAllocManaged(&m, 64, ACL_RT_MEM_ATTACH_GLOBAL),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

}  // namespace
}  // namespace npusim::rt::testing
