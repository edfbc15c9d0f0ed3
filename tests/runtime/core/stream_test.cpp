// SPDX-License-Identifier: Apache-2.0
// Streams: FIFO order, overlap between streams, synchronisation (with timeouts in simulated
// time), queries, destruction, configuration, deadlock detection.
#include <cstring>
#include <vector>

#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

class StreamTest : public CopyTest {
 protected:
  const FakeBackend::TaskTrace& task(size_t i) { return fake().tasks().at(i); }
};

TEST_F(StreamTest, TasksOfOneStreamRunInOrder) {
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev_, kMiB, 0, 4096, stream_), ACL_SUCCESS);
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(fake().tasks().size(), 3u);
  EXPECT_EQ(task(0).name, "MEMCPY_H2D");
  EXPECT_EQ(task(1).name, "MEMSET");
  EXPECT_EQ(task(2).name, "MEMCPY_H2D");
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(task(i).task_id, i);
  EXPECT_GE(task(1).record.start, task(0).record.end);
  EXPECT_GE(task(2).record.start, task(1).record.end);
}

TEST_F(StreamTest, TwoStreamsOverlap) {
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(copy(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ASSERT_EQ(fake().tasks().size(), 2u);
  EXPECT_NE(task(0).stream, task(1).stream);
  EXPECT_LT(task(1).record.start, task(0).record.end);  // started while the first still ran
}

TEST_F(StreamTest, AsyncReturnsAtOnceAndSyncWaitsForCompletion) {
  SimTime before = host_clock();
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  SimTime launch = models::ChipConfig{}.host.launch_call.ps;
  EXPECT_EQ(host_clock(), before + launch);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(fake().tasks().size(), 1u);
  EXPECT_EQ(task(0).record.submit, before + launch);
  EXPECT_EQ(host_clock(), task(0).record.end + models::ChipConfig{}.host.sync_call.ps);
  ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(StreamTest, QueryAdvancesToTheHostClock) {
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
  int polls = 0;
  while (status != ACL_STREAM_STATUS_COMPLETE && polls < 100000) {
    ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
    ++polls;
  }
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
  // Each poll costs api_call of host time: the copy (~106 us) completes after ~530 polls.
  EXPECT_GT(polls, 400);
  EXPECT_LT(polls, 700);
}

TEST_F(StreamTest, ApiCallsAreTracedWithTheTaskFlow) {
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const FakeBackend::ApiTrace* launch = nullptr;
  for (const auto& a : fake().api_calls()) {
    if (a.name == "AscendCL@aclrtMemcpyAsync") launch = &a;
  }
  ASSERT_NE(launch, nullptr);
  EXPECT_NE(launch->flow_id, 0u);
  EXPECT_EQ(launch->flow_id, task(0).flow_id);
  EXPECT_EQ(launch->end, task(0).record.submit);
  EXPECT_EQ(fake().api_calls().back().name, "AscendCL@aclrtSynchronizeStream");
}

class SlowCopyTest : public StreamTest {
  void configure(models::ChipConfig&, FakeTiming& timing) override {
    timing.copy_bytes_per_us = 1;  // 1 MiB takes about 1.05 s
  }
};

TEST_F(SlowCopyTest, SynchronizeWithTimeoutUsesSimulatedTime) {
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  SimTime start = host_clock();
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  SimTime after = host_clock();
  EXPECT_GE(after, start + 10 * sim::kMs);
  EXPECT_LT(after, start + 11 * sim::kMs);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 2000), ACL_SUCCESS);
  EXPECT_GT(host_clock(), start + 1000 * sim::kMs);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, -2), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(SlowCopyTest, SynchronizeDeviceWithTimeout) {
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(5), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(-1), ACL_SUCCESS);
}

TEST_F(StreamTest, WaitThatCanNeverFinishIsAnErrorNotAHang) {
  ASSERT_EQ(aclrtValueWait(dev_, 42, ACL_STREAM_WAIT_VALUE_EQ, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::strstr(msg, "deadlock"), nullptr) << msg;
  EXPECT_EQ(aclrtDestroyStream(stream_), ACL_ERROR_RT_INTERNAL_ERROR);
  EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
}

TEST_F(StreamTest, DestroyWaitsAndForceRunsWhatCanRun) {
  std::memset(host_, 0xAB, kMiB);
  std::memset(dev_, 0, kMiB);
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);  // waits: the copy ran
  EXPECT_EQ(static_cast<unsigned char*>(dev_)[kMiB - 1], 0xAB);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  std::memset(dev_, 0, kMiB);
  ASSERT_EQ(aclrtMemsetAsync(dev_, kMiB, 1, kMiB, s), ACL_SUCCESS);  // starts at once
  ASSERT_EQ(aclrtMemsetAsync(dev_, kMiB, 2, kMiB, s), ACL_SUCCESS);  // queued: still runs
  SimTime before = host_clock();
  ASSERT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char*>(dev_)[0], 2);  // both ran before the destroy returned
  EXPECT_LT(host_clock() - before, 10 * sim::kUs);  // the host does not wait for them
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(StreamTest, ForceDestroyDiscardsTasksThatCanNeverRun) {
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  std::memset(dev_, 0, kMiB);
  ASSERT_EQ(aclrtValueWait(dev_, 7, ACL_STREAM_WAIT_VALUE_EQ, s), ACL_SUCCESS);  // never holds
  ASSERT_EQ(aclrtMemsetAsync(dev_, kMiB, 3, 16, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char*>(dev_)[8], 0);  // the memset behind the wait: discarded
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST_F(StreamTest, DefaultStreamIsNullAndCannotBeDestroyed) {
  aclrtStream def = nullptr;
  ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&def), ACL_SUCCESS);
  int32_t id = -1;
  ASSERT_EQ(aclrtStreamGetId(nullptr, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 0);
  ASSERT_EQ(aclrtStreamGetId(def, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 0);
  ASSERT_EQ(aclrtStreamGetId(stream_, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 1);
  EXPECT_EQ(aclrtDestroyStream(def), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(copy(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(task(0).stream, 0u);
}

TEST_F(StreamTest, ConfigurationIsReported) {
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&s, 9, ACL_STREAM_FAST_LAUNCH), ACL_SUCCESS);
  uint32_t priority = 0, flags = 0;
  ASSERT_EQ(aclrtStreamGetPriority(s, &priority), ACL_SUCCESS);
  EXPECT_EQ(priority, 7u);  // clamped
  ASSERT_EQ(aclrtStreamGetFlags(s, &flags), ACL_SUCCESS);
  EXPECT_EQ(flags, ACL_STREAM_FAST_LAUNCH);
  EXPECT_EQ(aclrtCreateStreamWithConfig(&s, 0, 0x40000000u), ACL_ERROR_INVALID_PARAM);
  aclrtStream persistent = nullptr;  // keeps its tasks for a model run instance (model_ri_test)
  ASSERT_EQ(aclrtCreateStreamWithConfig(&persistent, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamGetFlags(persistent, &flags), ACL_SUCCESS);
  EXPECT_EQ(flags, ACL_STREAM_PERSISTENT);
  ASSERT_EQ(aclrtDestroyStream(persistent), ACL_SUCCESS);
  int32_t least = -1, greatest = -1;
  ASSERT_EQ(aclrtDeviceGetStreamPriorityRange(&least, &greatest), ACL_SUCCESS);
  EXPECT_EQ(least, 7);
  EXPECT_EQ(greatest, 0);
}

TEST_F(StreamTest, ConfigHandleBuildsAStream) {
  aclrtStreamConfigHandle* h = aclrtCreateStreamConfigHandle();
  ASSERT_NE(h, nullptr);
  uint32_t flag = ACL_STREAM_FAST_SYNC, priority = 3;
  ASSERT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, sizeof flag), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &priority, sizeof priority),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, 2), ACL_ERROR_INVALID_PARAM);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStreamV2(&s, h), ACL_SUCCESS);
  uint32_t got = 0;
  ASSERT_EQ(aclrtStreamGetPriority(s, &got), ACL_SUCCESS);
  EXPECT_EQ(got, 3u);
  ASSERT_EQ(aclrtStreamGetFlags(s, &got), ACL_SUCCESS);
  EXPECT_EQ(got, ACL_STREAM_FAST_SYNC);
  ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStreamConfigHandle(h), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStreamConfigHandle(h), ACL_ERROR_INVALID_PARAM);
}

TEST_F(StreamTest, FailureModeIsSetOnce) {
  EXPECT_EQ(aclrtSetStreamFailureMode(stream_, 7), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetStreamFailureMode(stream_, ACL_CONTINUE_ON_FAILURE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSetStreamFailureMode(nullptr, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
}

TEST_F(StreamTest, StreamAttributes) {
  aclrtStreamAttrValue v{};
  v.streamPriority = 5;
  ASSERT_EQ(aclrtSetStreamAttribute(stream_, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
  uint32_t priority = 0;
  ASSERT_EQ(aclrtStreamGetPriority(stream_, &priority), ACL_SUCCESS);
  EXPECT_EQ(priority, 5u);
  v = {};
  v.failureMode = ACL_STOP_ON_FAILURE;
  ASSERT_EQ(aclrtSetStreamAttribute(stream_, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_PARAM_INVALID);
  v = {};
  v.userCustomTag = 77;
  ASSERT_EQ(aclrtSetStreamAttribute(stream_, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
  aclrtStreamAttrValue got{};
  ASSERT_EQ(aclrtGetStreamAttribute(stream_, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &got), ACL_SUCCESS);
  EXPECT_EQ(got.userCustomTag, 77u);
  ASSERT_EQ(aclrtGetStreamAttribute(stream_, ACL_STREAM_ATTR_FAILURE_MODE, &got), ACL_SUCCESS);
  EXPECT_EQ(got.failureMode, ACL_STOP_ON_FAILURE);
  EXPECT_EQ(aclrtGetStreamAttribute(stream_, static_cast<aclrtStreamAttr>(0), &got),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  int32_t active = 0;
  ASSERT_EQ(aclrtGetPrimaryCtxState(0, nullptr, &active), ACL_SUCCESS);
  EXPECT_EQ(active, 1);
}

class FewStreamsTest : public DeviceTest {
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.scheduler.max_streams = 3;
  }
};

TEST_F(FewStreamsTest, StreamLimitIncludesDefaultStreams) {
  aclrtStream s = nullptr;  // default stream + stream_ + this one = 3
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint32_t available = 99;
  ASSERT_EQ(aclrtGetStreamAvailableNum(&available), ACL_SUCCESS);
  EXPECT_EQ(available, 0u);
  EXPECT_EQ(aclrtCreateStream(&s), ACL_ERROR_RT_NO_STREAM_RESOURCE);
  ASSERT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing

namespace npusim::rt::testing {
namespace {

class ShallowQueueTest : public DeviceTest {
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.scheduler.stream_depth = 4;
  }
};

TEST_F(ShallowQueueTest, AFullQueueBlocksTheSubmitterInSimulatedTime) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(aclrtMemsetAsync(dev, 1 << 20, i, 1 << 20, stream_), ACL_SUCCESS);
  }
  EXPECT_TRUE(fake().tasks().empty());
  ASSERT_EQ(aclrtMemsetAsync(dev, 1 << 20, 9, 1 << 20, stream_), ACL_SUCCESS);  // waits a slot
  ASSERT_EQ(fake().tasks().size(), 1u);
  EXPECT_GE(host_clock(), fake().tasks()[0].record.end);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char*>(dev)[0], 9);
}

TEST_F(ShallowQueueTest, AQueueThatCanNeverDrainIsAnError) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtValueWait(dev, 1, ACL_STREAM_WAIT_VALUE_EQ, stream_), ACL_SUCCESS);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(aclrtMemsetAsync(dev, 64, 0, 8, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemsetAsync(dev, 64, 0, 8, stream_), ACL_ERROR_RT_STREAM_TASK_FULL);
  ASSERT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing
