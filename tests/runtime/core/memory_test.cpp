// SPDX-License-Identifier: Apache-2.0
// Allocation: alignment, size rounding, capacity, frees, memory info.
#include <cstdint>
#include <cstring>
#include <string>

#include "runtime/core/memory.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

class MemoryTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  size_t used() {
    size_t free = 0, total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
    return total - free;
  }
};

TEST_F(MemoryTest, DeviceMemoryIsAlignedRealAndPadded) {
  struct Case {
    size_t size;
    aclrtMemMallocPolicy policy;
    bool align32;
    size_t charged;
  };
  const Case cases[] = {
      {1, ACL_MEM_MALLOC_HUGE_FIRST, false, 64},      // 32 + 32
      {100, ACL_MEM_MALLOC_NORMAL_ONLY, false, 160},  // 128 + 32
      {100, ACL_MEM_MALLOC_HUGE_FIRST, true, 128},    // aclrtMallocAlign32: no padding
      {100, ACL_MEM_MALLOC_HUGE1G_ONLY, false, 128},  // 1 GiB pages: no padding
      {3 << 20, ACL_MEM_MALLOC_HUGE_ONLY, false, (3 << 20) + 32},
      // An out-of-range policy falls back to page size by allocation size (documented).
      {64, static_cast<aclrtMemMallocPolicy>(0x77), false, 96},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.size);
    size_t before = used();
    void* p = nullptr;
    aclError r =
        c.align32 ? aclrtMallocAlign32(&p, c.size, c.policy) : aclrtMalloc(&p, c.size, c.policy);
    ASSERT_EQ(r, ACL_SUCCESS);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
    EXPECT_EQ(used() - before, c.charged);
    std::memset(p, 0x3C, c.size);  // real process memory
    ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(used(), before);
  }
}

TEST_F(MemoryTest, CapacityIsTheConfiguredHbm) {
  size_t free = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
  EXPECT_EQ(total, models::ChipConfig{}.hbm.size.value);
  void* big = nullptr;
  ASSERT_EQ(aclrtMalloc(&big, total - 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // NORESERVE
  void* more = nullptr;
  EXPECT_EQ(aclrtMalloc(&more, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  ASSERT_EQ(aclrtFree(big), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&more, total + 1, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_RT_MEMORY_ALLOCATION);
}

TEST_F(MemoryTest, MemInfoByAttribute) {
  size_t free = 1, total = 1;
  ASSERT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free, &total), ACL_SUCCESS);
  EXPECT_EQ(total, 0u);  // HBM-only chip
  EXPECT_EQ(free, 0u);
  for (aclrtMemAttr a : {ACL_HBM_MEM_HUGE, ACL_HBM_MEM_NORMAL, ACL_MEM_NORMAL, ACL_MEM_HUGE}) {
    ASSERT_EQ(aclrtGetMemInfo(a, &free, &total), ACL_SUCCESS);
    EXPECT_GT(total, 0u);
  }
  EXPECT_EQ(aclrtGetMemInfo(static_cast<aclrtMemAttr>(99), &free, &total), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST_F(MemoryTest, BadFreesAreErrors) {
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(static_cast<char*>(p) + 64), ACL_ERROR_RT_MEMORY_FREE);  // not the start
  EXPECT_EQ(aclrtFreeHost(p), ACL_ERROR_RT_MEMORY_FREE);                       // wrong kind
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE);  // double free
  int local = 0;
  EXPECT_EQ(aclrtFree(&local), ACL_ERROR_RT_MEMORY_FREE);
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(nullptr, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
}

TEST_F(MemoryTest, PinnedHostMemory) {
  void* h = nullptr;
  ASSERT_EQ(aclrtMallocHost(&h, 1000), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(h) % 64, 0u);
  std::memset(h, 1, 1000);
  EXPECT_EQ(aclrtFree(h), ACL_ERROR_RT_MEMORY_FREE);
  EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(h), ACL_ERROR_RT_MEMORY_FREE);
  EXPECT_EQ(aclrtMallocHost(&h, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocHost(nullptr, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(MemoryTest, HardwareSyncAddrIsOneZeroedRuntimeArea) {
  const size_t before = used();
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(aclrtGetHardwareSyncAddr(&a), ACL_SUCCESS);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 64, 0u);
  const auto* bytes = static_cast<const unsigned char*>(a);
  size_t nonzero = 0;
  for (size_t i = 0; i < kHardwareSyncBytes; ++i) nonzero += bytes[i] != 0;
  EXPECT_EQ(nonzero, 0u);
  ASSERT_EQ(aclrtGetHardwareSyncAddr(&b), ACL_SUCCESS);
  EXPECT_EQ(b, a);            // one area per device
  EXPECT_EQ(used(), before);  // the runtime's, not charged to the program
  EXPECT_EQ(aclrtFree(a), ACL_ERROR_RT_MEMORY_FREE);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtGetHardwareSyncAddr"), std::string::npos);
  EXPECT_EQ(aclrtGetHardwareSyncAddr(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetHardwareSyncAddr(&b), ACL_ERROR_RT_CONTEXT_NULL);
}

class Memory310PTest : public MemoryTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override { config.soc.npu_arch = 2002; }
};

TEST_F(Memory310PTest, HardwareSyncAddrIsA2A3Only) {
  void* a = nullptr;
  EXPECT_EQ(aclrtGetHardwareSyncAddr(&a), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("Ascend310P"), std::string::npos);
}

TEST_F(MemoryTest, MallocNeedsACurrentContext) {
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
}

}  // namespace
}  // namespace npusim::rt::testing
