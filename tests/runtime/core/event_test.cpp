// SPDX-License-Identifier: Apache-2.0
// Events: the two status enums, records capturing earlier tasks, elapsed time and timestamps from
// simulated completion times, stream waits, synchronisation with timeouts, reset.
#include <cstring>

#include "tests/runtime/test_support.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // aclrtQueryEvent

namespace npusim::rt::testing {
namespace {

class EventTest : public CopyTest {
 protected:
  void SetUp() override {
    CopyTest::SetUp();
    ASSERT_EQ(aclrtCreateEvent(&event_), ACL_SUCCESS);
  }
  aclrtEventRecordedStatus status(aclrtEvent e) {
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    EXPECT_EQ(aclrtQueryEventStatus(e, &st), ACL_SUCCESS);
    return st;
  }
  // The simulated completion time of the n-th finished task named `name`.
  SimTime end_of(const char* name, int n = 0) {
    for (const auto& t : fake().tasks()) {
      if (t.name == name && n-- == 0) return t.record.end;
    }
    ADD_FAILURE() << "no task " << name;
    return 0;
  }

  aclrtEvent event_ = nullptr;
};

TEST_F(EventTest, StatusEnumsHaveOppositeValues) {
  EXPECT_EQ(status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);  // 0 before any record
  aclrtEventStatus old = ACL_EVENT_STATUS_COMPLETE;
  ASSERT_EQ(aclrtQueryEvent(event_, &old), ACL_SUCCESS);
  EXPECT_EQ(old, ACL_EVENT_STATUS_NOT_READY);  // 1
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_), ACL_SUCCESS);
  EXPECT_EQ(status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);  // the copy still runs
  ASSERT_EQ(aclrtSynchronizeEvent(event_), ACL_SUCCESS);
  EXPECT_EQ(status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);  // 1
  ASSERT_EQ(aclrtQueryEvent(event_, &old), ACL_SUCCESS);
  EXPECT_EQ(old, ACL_EVENT_STATUS_COMPLETE);  // 0
  EXPECT_EQ(static_cast<int>(ACL_EVENT_RECORDED_STATUS_COMPLETE), 1);
  EXPECT_EQ(static_cast<int>(ACL_EVENT_STATUS_COMPLETE), 0);
}

TEST_F(EventTest, ExEventsAreCompleteBeforeTheirFirstRecord) {
  aclrtEvent ex = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
  EXPECT_EQ(status(ex), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ex, stream_), ACL_SUCCESS);
  EXPECT_EQ(status(ex), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(status(ex), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_EQ(aclrtDestroyEvent(ex), ACL_SUCCESS);
}

TEST_F(EventTest, ElapsedTimeAndTimestampComeFromSimulatedCompletion) {
  aclrtEvent end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_), ACL_SUCCESS);
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(end, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  float ms = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, event_, end), ACL_SUCCESS);
  SimTime t0 = end_of("EVENT_RECORD", 0);
  SimTime t1 = end_of("EVENT_RECORD", 1);
  EXPECT_FLOAT_EQ(ms, static_cast<float>(static_cast<double>(t1 - t0) / sim::kMs));
  EXPECT_GT(ms, 0.1f);  // the 1 MiB copy at 10 GB/s takes about 0.106 ms
  uint64_t us = 0;
  ASSERT_EQ(aclrtEventGetTimestamp(end, &us), ACL_SUCCESS);
  EXPECT_EQ(us, t1 / sim::kUs);
}

TEST_F(EventTest, ElapsedTimeNeedsFinishedRecords) {
  aclrtEvent end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  float ms = 0;
  uint64_t us = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, event_, end), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtEventGetTimestamp(event_, &us), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventGetTimestamp(event_, &us), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
}

TEST_F(EventTest, StreamWaitEventOrdersTwoStreams) {
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(other, event_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev_, kMiB, 0, 64, other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  SimTime recorded = end_of("EVENT_RECORD");
  SimTime waited = end_of("EVENT_WAIT");
  EXPECT_GE(waited, recorded);
  for (const auto& t : fake().tasks()) {
    if (t.name == "MEMSET") {
      EXPECT_GE(t.record.start, recorded);
    }
  }
}

TEST_F(EventTest, WaitingOnANeverRecordedEventDoesNotBlock) {
  ASSERT_EQ(aclrtStreamWaitEvent(stream_, event_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(event_), ACL_SUCCESS);
}

TEST_F(EventTest, ResetReturnsToNotReady) {
  ASSERT_EQ(aclrtRecordEvent(event_, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_EQ(aclrtResetEvent(event_, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(event_), ACL_SUCCESS);
  EXPECT_EQ(status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_F(EventTest, SynchronizeEventThatCanNeverCompleteIsAnError) {
  ASSERT_EQ(aclrtValueWait(dev_, 7, ACL_STREAM_WAIT_VALUE_EQ, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(event_), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
  ASSERT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
}

class SlowEventTest : public EventTest {
  void configure(models::ChipConfig&, FakeTiming& timing) override { timing.copy_bytes_per_us = 1; }
};

TEST_F(SlowEventTest, SynchronizeEventWithTimeoutUsesSimulatedTime) {
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_), ACL_SUCCESS);
  SimTime start = host_clock();
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event_, 100), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
  EXPECT_GE(host_clock(), start + 100 * sim::kMs);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event_, -1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEventWithTimeout(event_, 0), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(EventTest, DestroyDoesNotWaitAndHandlesGoStale) {
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(event_), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtRecordEvent(event_, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(EventTest, EventIdsAndAvailability) {
  uint32_t id = 99, avail = 0;
  ASSERT_EQ(aclrtGetEventId(event_, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 0u);
  ASSERT_EQ(aclrtGetEventAvailNum(&avail), ACL_SUCCESS);
  EXPECT_EQ(avail, 65535u);
}

TEST_F(EventTest, WaitTimeoutsAndExternalFlagsAreNotSupportedYet) {
  EXPECT_EQ(aclrtStreamWaitEventWithTimeout(stream_, event_, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEventWithTimeout(stream_, event_, 5), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtRecordEventWithFlag(event_, stream_, ACL_EVENT_RECORD_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEventWithFlag(event_, stream_, 9), ACL_ERROR_INVALID_PARAM);
}

TEST_F(EventTest, NotifySignalsAcrossStreamsAndResets) {
  aclrtStream consumer = nullptr;
  ASSERT_EQ(aclrtCreateStream(&consumer), ACL_SUCCESS);
  aclrtNotify notify = nullptr;
  ASSERT_EQ(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
  // The wait is issued before the record: a notify waits for the signal, whenever it comes.
  ASSERT_EQ(aclrtWaitAndResetNotify(notify, consumer, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev_, kMiB, 0, 64, consumer), ACL_SUCCESS);
  ASSERT_EQ(copy(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordNotify(notify, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
  EXPECT_GE(end_of("NOTIFY_WAIT"), end_of("NOTIFY_RECORD"));
  EXPECT_GE(end_of("MEMSET"), end_of("MEMCPY_H2D"));
  // Reset by the wait: a second wait with no new record can never finish.
  ASSERT_EQ(aclrtWaitAndResetNotify(notify, consumer, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  ASSERT_EQ(aclrtRecordNotify(notify, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
  uint32_t id = 9;
  ASSERT_EQ(aclrtGetNotifyId(notify, &id), ACL_SUCCESS);
  EXPECT_EQ(id, 0u);
  EXPECT_EQ(aclrtWaitAndResetNotify(notify, consumer, 3), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  ASSERT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyNotify(notify), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCreateNotify(&notify, 5), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateNotify(nullptr, 0), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
}  // namespace npusim::rt::testing
