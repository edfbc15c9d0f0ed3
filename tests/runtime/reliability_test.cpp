// SPDX-License-Identifier: Apache-2.0
// Reliability regressions (issue 7): objects another host thread destroys while a call waits,
// bad pointers and sizes that must be reported, never followed.
#include <chrono>
#include <mutex>
#include <thread>

#include "runtime/runtime.h"
#include "tests/runtime/test_support.h"

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

}  // namespace
}  // namespace npusim::rt::testing
