// SPDX-License-Identifier: Apache-2.0
// Reliability regressions (issue 7): objects another host thread destroys while a call waits,
// bad pointers and sizes that must be reported, never followed.
#include <chrono>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "runtime/core/runtime.h"
#include "tests/runtime/test_support.h"

int32_t EndlessDo(uint32_t block_dim, void* stream, void* x);  // watchdog_kernels.cpp

namespace npusim::rt::testing {
namespace {

class DestroyWhileWaiting : public AclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.scheduler.stream_depth = 2;
  }
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&flag_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&s_), ACL_SUCCESS);
    // The stream holds on a value nobody writes: nothing on it can finish.
    ASSERT_EQ(aclrtValueWait(flag_, 1, ACL_STREAM_WAIT_VALUE_EQ, s_), ACL_SUCCESS);
  }
  /// Runs `waiting` in a thread, lets it park, then destroys the stream from this thread.
  aclError destroy_while(const std::function<aclError()>& waiting) {
    aclError rc = -1;
    std::thread t([&] {
      aclrtSetDevice(0);
      rc = waiting();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // `waiting` parks meanwhile
    EXPECT_EQ(aclrtDestroyStreamForce(s_), ACL_SUCCESS);
    t.join();
    return rc;
  }
  void* flag_ = nullptr;
  aclrtStream s_ = nullptr;
};

TEST_F(DestroyWhileWaiting, ASynchronizeReportsTheStreamGone) {
  EXPECT_EQ(destroy_while([&] { return aclrtSynchronizeStream(s_); }), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(DestroyWhileWaiting, ASubmitWaitingForAFreeSlotReportsTheStreamGone) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev, 64, 0, 64, s_), ACL_SUCCESS);  // the queue (depth 2) is full
  EXPECT_EQ(destroy_while([&] { return aclrtMemsetAsync(dev, 64, 0, 64, s_); }),
            ACL_ERROR_RT_PARAM_INVALID);
}


class MemoryLimits : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
};

TEST_F(MemoryLimits, A2dCopyWhosePitchRunsPastTheAddressSpaceIsRefused) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<char> host(4096);
  const std::size_t huge = std::size_t{1} << 63;
  EXPECT_EQ(aclrtMemcpy2d(host.data(), huge, dev, 64, 16, 2, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy2d(dev, 64, host.data(), huge, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  // pitch * (height - 1) wraps around 2^64
  EXPECT_EQ(aclrtMemcpy2d(host.data(), huge, dev, 64, 16, 3, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_INVALID_PARAM);
}

// Device memory lives in its own address range, so a freed or past-the-end device pointer is
// recognised as one and never taken for host memory by ACL_MEMCPY_DEFAULT.
TEST_F(MemoryLimits, DefaultCopiesRefuseFreedAndPastTheEndDevicePointers) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<char> host(4096, 1);
  auto* end = static_cast<char*>(dev) + (1 << 20);
  EXPECT_EQ(aclrtMemcpy(end, 64, host.data(), 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(host.data(), 64, end, 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(host.data(), 64, dev, 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(dev, 64, host.data(), 64, ACL_MEMCPY_DEFAULT, s),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

/// The process's kernel memory mappings (lines of /proc/self/maps).
std::size_t mappings() {
  std::ifstream maps("/proc/self/maps");
  std::size_t n = 0;
  for (std::string line; std::getline(maps, line);) ++n;
  return n;
}

// Issue 23 item 12: past 8,192 live page-granular allocations every aclrtMalloc of 2 KiB or more
// failed with 207001 although HBM was free. The first 8,192 keep their guard pages; later ones
// are packed into shared slabs, so the kernel's mapping limit (65,530) is never approached.
TEST_F(MemoryLimits, LiveAllocationsAreBoundedByHbmNotByTheKernelsMappingLimit) {
  const std::size_t before = mappings();
  std::vector<void*> big(20000);
  for (void*& p : big) ASSERT_EQ(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* two_k = nullptr;
  ASSERT_EQ(aclrtMalloc(&two_k, 2048, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  // 8,192 guarded allocations cost two mappings each; the 11,809 packed ones share a few slabs.
  EXPECT_LT(mappings(), before + 2 * 8192 + 100);
  std::vector<char> in(4096, 7), out(4096, 0);
  for (void* p : {big.front(), big[8191], big[8192], big.back(), two_k}) {
    ASSERT_EQ(aclrtMemcpy(p, 2048, in.data(), 2048, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out.data(), 2048, p, 2048, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out[2047], 7);
  }
  for (std::size_t i = 8192; i < big.size(); i += 2) ASSERT_EQ(aclrtFree(big[i]), ACL_SUCCESS);
  EXPECT_LT(mappings(), before + 2 * 8192 + 100);  // a freed packed range splits nothing
  // A freed packed range is reused with fresh (zero) contents.
  void* again = nullptr;
  ASSERT_EQ(aclrtMalloc(&again, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(again, big[8192]);  // first fit
  ASSERT_EQ(aclrtMemcpy(out.data(), 2048, again, 2048, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(out[0], 0);
  ASSERT_EQ(aclrtFree(again), ACL_SUCCESS);
  for (std::size_t i = 0; i < big.size(); ++i) {
    if (i < 8192 || i % 2 == 1) {
      ASSERT_EQ(aclrtFree(big[i]), ACL_SUCCESS);
    }
  }
  ASSERT_EQ(aclrtFree(two_k), ACL_SUCCESS);
  EXPECT_LT(mappings(), before + 100);  // every slab went back
}

TEST_F(MemoryLimits, PinnedHostMemoryIsLimitedByHostPinnedMemory) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMallocHost(&p, std::size_t{1} << 40), ACL_ERROR_RT_MEMORY_ALLOCATION);  // 1 TB
  EXPECT_EQ(p, nullptr);
  ASSERT_EQ(aclrtMallocHost(&p, 4096), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(p), ACL_SUCCESS);
}

TEST_F(MemoryLimits, TheWholeDeviceMemoryCannotBeAllocatedAndTheMessageSaysWhy) {
  size_t free = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
  void* p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, total, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find(std::to_string(total + 32) + " with the runtime's alignment and padding"),
            std::string::npos)
      << msg;
}


class BoundedState : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
};

TEST_F(BoundedState, StreamIdsOfDestroyedStreamsAreReused) {
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  int32_t first = -1;
  ASSERT_EQ(aclrtStreamGetId(s, &first), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    int32_t id = -1;
    ASSERT_EQ(aclrtStreamGetId(s, &id), ACL_SUCCESS);
    ASSERT_EQ(id, first) << "iteration " << i;
    ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  }
}

TEST_F(BoundedState, ThreadsThatExitedGiveTheirIndexToNewThreads) {
  std::vector<char> host(64);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  for (int i = 0; i < 200; ++i) {
    std::thread t([&] {
      aclrtSetDevice(0);
      EXPECT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    });
    t.join();
  }
  std::set<std::uint32_t> threads;
  for (const auto& a : fake().api_calls()) threads.insert(a.thread);
  EXPECT_EQ(threads, (std::set<std::uint32_t>{0, 1}));  // this thread and one reused index
}


class LongRun : public AclTest {
 protected:
  void configure(models::ChipConfig&, FakeTiming& timing) override {
    timing.copy_fixed = 40ULL * 86400 * sim::kSec;  // 40 simulated days per copy
  }
};

TEST_F(LongRun, SimulatedTimePastTheClocksRangeIsAnErrorNotSilence) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<char> host(64);
  EXPECT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  // 120 days > 106: the call that reaches it, and every later one, fails.
  EXPECT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("days"), std::string::npos);
  EXPECT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_INTERNAL_ERROR);
}


class TwoDevices : public AclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override { config.soc.num_devices = 2; }
};

TEST_F(TwoDevices, CopiesAcrossDevicesAndStreamsOfAnotherDeviceAreRefused) {
  void *d0 = nullptr, *d1 = nullptr;
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&d1, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream s1 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&d0, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream s0 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d1, 4096, d0, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpyAsync(d1, 4096, d0, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s0),
            ACL_ERROR_RT_PARAM_INVALID);
  std::vector<char> host(4096);
  // Device 1's memory on device 0's stream:
  EXPECT_EQ(aclrtMemcpyAsync(d1, 4096, d0, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s0),
            ACL_ERROR_RT_PARAM_INVALID);
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 4096), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(d1, 4096, pinned, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpyAsync(d0, 4096, pinned, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(d1, 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}


class Watchdog : public AclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.aicore.timeout = sim::Duration{1 * sim::kMs};  // 450,000 basic blocks at 1.8 GHz
  }
};

// A kernel that never ends is stopped by the watchdog (aicore.timeout) and reported at the next
// synchronize as the vector core timeout; the stream and the process go on.
TEST_F(Watchdog, AKernelThatNeverEndsIsStoppedAndReported) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  void* x = nullptr;
  ASSERT_EQ(aclrtMalloc(&x, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(EndlessDo(1, s, x), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("kernel endless block 0 of 1 failed: timeout"), std::string::npos) << msg;
  int32_t count = 0;
  ASSERT_EQ(aclrtMemcpy(&count, 4, x, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_GT(count, 1000);  // it did run, up to the limit
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);  // the error was reported once
}

}  // namespace
}  // namespace npusim::rt::testing
