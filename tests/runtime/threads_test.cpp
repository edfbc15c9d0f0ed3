// SPDX-License-Identifier: Apache-2.0
// Several host threads on the inline thread model: a wait parks its thread until another thread
// acts; a wait no thread can satisfy is reported (at once when every thread waits, after
// NPUSIM_HANG_TIMEOUT when some thread is busy elsewhere).
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/runtime.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

void set_hang_timeout(double seconds) {
  Runtime& rt = Runtime::instance();
  std::lock_guard<std::mutex> lock(rt.mutex());
  rt.set_hang_timeout_seconds(seconds);
}

class ThreadsTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&flag_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&b_), ACL_SUCCESS);
  }
  void TearDown() override {
    set_hang_timeout(30);
    AclTest::TearDown();
  }
  void* flag_ = nullptr;
  aclrtStream a_ = nullptr;
  aclrtStream b_ = nullptr;
};

// The shape of the memory/9 sample: one thread waits for a value another thread writes later.
TEST_F(ThreadsTest, WaiterIsReleasedByALaterWriterThread) {
  aclError wait_rc = -1, sync_a = -1, write_rc = -1, sync_b = -1;
  std::thread waiter([&] {
    aclrtSetDevice(0);
    wait_rc = aclrtValueWait(flag_, 100, ACL_STREAM_WAIT_VALUE_EQ, a_);
    sync_a = aclrtSynchronizeStream(a_);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::thread writer([&] {
    aclrtSetDevice(0);
    write_rc = aclrtValueWrite(flag_, 100, 0, b_);
    sync_b = aclrtSynchronizeStream(b_);
  });
  writer.join();
  waiter.join();
  EXPECT_EQ(wait_rc, ACL_SUCCESS);
  EXPECT_EQ(sync_a, ACL_SUCCESS);
  EXPECT_EQ(write_rc, ACL_SUCCESS);
  EXPECT_EQ(sync_b, ACL_SUCCESS);
  uint64_t v = 0;
  ASSERT_EQ(aclrtMemcpy(&v, 8, flag_, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(v, 100u);
}

TEST_F(ThreadsTest, ExitedThreadsDoNotDelayDeadlockReports) {
  std::thread t([] { aclrtSetDevice(0); });
  t.join();  // registered, then gone
  ASSERT_EQ(aclrtValueWait(flag_, 1, ACL_STREAM_WAIT_VALUE_EQ, a_), ACL_SUCCESS);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(aclrtSynchronizeStream(a_), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ASSERT_EQ(aclrtDestroyStreamForce(a_), ACL_SUCCESS);
}

TEST_F(ThreadsTest, WaitersWithNobodyToWakeThemHitTheHangTimeout) {
  set_hang_timeout(0.3);
  aclError r1 = -1, r2 = -1;
  auto waiter = [&](aclrtStream s, aclError* rc) {
    aclrtSetDevice(0);
    aclrtValueWait(flag_, 5, ACL_STREAM_WAIT_VALUE_EQ, s);
    *rc = aclrtSynchronizeStream(s);
  };
  auto start = std::chrono::steady_clock::now();
  std::thread t1(waiter, a_, &r1);
  std::thread t2(waiter, b_, &r2);
  t1.join();  // this thread is live but not in an API call: the waiters must time out
  t2.join();
  EXPECT_EQ(r1, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_EQ(r2, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  ASSERT_EQ(aclrtDestroyStreamForce(a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStreamForce(b_), ACL_SUCCESS);
}

TEST_F(ThreadsTest, ThreadsHaveTheirOwnSyncStreamsAndClocks) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  std::thread t([&] {
    aclrtSetDevice(0);
    aclrtMemcpy(flag_, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE);
  });
  t.join();
  ASSERT_EQ(aclrtMemcpy(flag_, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(fake().tasks().size(), 2u);
  EXPECT_NE(fake().tasks()[0].stream, fake().tasks()[1].stream);
  EXPECT_GE(fake().tasks()[0].stream, kSyncStream);
  std::vector<std::uint32_t> threads;
  for (const auto& a : fake().api_calls()) {
    if (a.name == "AscendCL@aclrtMemcpy") threads.push_back(a.thread);
  }
  ASSERT_EQ(threads.size(), 2u);
  EXPECT_NE(threads[0], threads[1]);  // one timeline thread per host thread
  // The main thread's copy starts after the other thread's (host clocks meet the device clock).
  EXPECT_GE(fake().tasks()[1].record.submit, fake().tasks()[0].record.end);
}

}  // namespace
}  // namespace npusim::rt::testing
