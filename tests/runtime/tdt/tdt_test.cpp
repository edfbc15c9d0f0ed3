// SPDX-License-Identifier: Apache-2.0
// Tensor data transfer channels (acl/acl_tdt.h; runtime/tdt/tdt.h) against FakeBackend: values,
// FIFO order, capacity, timeouts in simulated time, the copies' simulated cost, blocked threads
// woken by other threads, and the error codes of bad input. Queues and routes: tdt_queue_test.cpp.
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tests/runtime/tdt/tdt_support.h"

namespace npusim::rt::testing::tdt_test {
namespace {

TEST_F(TdtTest, SendAndReceiveRoundTripValuesDimsAndTypes) {
  acltdtChannelHandle* c = channel("round_trip", 2);
  std::vector<float> values = {1.5F, 2.5F, 3.5F, 4.5F};
  acltdtDataset* sent = float_dataset(values, {2, 2});
  ASSERT_EQ(acltdtSendTensor(c, sent, 1000), ACL_SUCCESS);
  values[0] = -1.0F;  // the channel holds its own copy
  EXPECT_EQ(size_of(c), 1u);
  acltdtDataset* got = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(c, got, 1000), ACL_SUCCESS);
  EXPECT_EQ(size_of(c), 0u);
  ASSERT_EQ(acltdtGetDatasetSize(got), 1u);
  acltdtDataItem* item = acltdtGetDataItem(got, 0);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(item), ACL_TENSOR_DATA_TENSOR);
  EXPECT_EQ(acltdtGetDataTypeFromItem(item), ACL_FLOAT);
  EXPECT_EQ(acltdtGetDataSizeFromItem(item), 16u);
  ASSERT_EQ(acltdtGetDimNumFromItem(item), 2u);
  int64_t dims[2] = {0, 0};
  ASSERT_EQ(acltdtGetDimsFromItem(item, dims, 2), ACL_SUCCESS);
  EXPECT_EQ(dims[0], 2);
  EXPECT_EQ(dims[1], 2);
  EXPECT_EQ(acltdtGetDimsFromItem(item, dims, 1), ACL_ERROR_INVALID_PARAM);
  const auto* data = static_cast<const float*>(acltdtGetDataAddrFromItem(item));
  EXPECT_EQ(std::vector<float>(data, data + 4), (std::vector<float>{1.5F, 2.5F, 3.5F, 4.5F}));
  size_t slice_num = 9, slice_id = 9;
  ASSERT_EQ(acltdtGetSliceInfoFromItem(item, &slice_num, &slice_id), ACL_SUCCESS);
  EXPECT_EQ(slice_num, 0u);
  EXPECT_EQ(slice_id, 0u);
  EXPECT_STREQ(acltdtGetDatasetName(got), "");
  EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);  // frees the received item too
  EXPECT_EQ(acltdtGetDataTypeFromItem(item), ACL_DT_UNDEFINED);  // no longer a live item
  destroy_with_items(sent);
}

TEST_F(TdtTest, DatasetsLeaveInSendOrder) {
  acltdtChannelHandle* c = channel("fifo", 4);
  std::vector<std::vector<float>> values = {{10.0F}, {20.0F}, {30.0F}};
  std::vector<acltdtDataset*> sent;
  for (auto& v : values) {
    sent.push_back(float_dataset(v, {1}));
    ASSERT_EQ(acltdtSendTensor(c, sent.back(), 0), ACL_SUCCESS);
  }
  EXPECT_EQ(size_of(c), 3u);
  acltdtDataset* got = acltdtCreateDataset();
  for (float want : {10.0F, 20.0F, 30.0F}) {
    ASSERT_EQ(acltdtReceiveTensor(c, got, 0), ACL_SUCCESS);  // a dataset is refilled
    ASSERT_EQ(acltdtGetDatasetSize(got), 1u);
    EXPECT_EQ(first_value(got), want);
  }
  EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);
  for (acltdtDataset* d : sent) destroy_with_items(d);
}

TEST_F(TdtTest, TransfersCostHostLinkTimeInSimulatedTime) {
  acltdtChannelHandle* c = channel("timed", 2);
  std::vector<float> values = {1.0F, 2.0F, 3.0F, 4.0F};
  acltdtDataset* sent = float_dataset(values, {4});
  ASSERT_EQ(acltdtSendTensor(c, sent, -1), ACL_SUCCESS);
  const FakeBackend::TaskTrace* h2d = task("TDT_SEND_H2D");
  ASSERT_NE(h2d, nullptr);
  // 16 bytes at the fake's 1 us + 10 GB/s.
  EXPECT_EQ(h2d->record.end - h2d->record.start, 1 * sim::kUs + 1600);
  const auto send = span("acltdtSendTensor");
  EXPECT_EQ(h2d->record.start, send.start + host().sync_copy_setup.ps + host().launch_call.ps);
  EXPECT_EQ(send.end, h2d->record.end + host().sync_call.ps);
  acltdtDataset* got = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(c, got, -1), ACL_SUCCESS);
  const FakeBackend::TaskTrace* d2h = task("TDT_RECV_D2H");
  ASSERT_NE(d2h, nullptr);
  EXPECT_EQ(d2h->record.end - d2h->record.start, 1 * sim::kUs + 1600);
  EXPECT_EQ(span("acltdtReceiveTensor").end, d2h->record.end + host().sync_call.ps);
  EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);
  destroy_with_items(sent);
}

TEST_F(TdtTest, AFullChannelFailsAtOnceOrAfterItsTimeoutInSimulatedTime) {
  acltdtChannelHandle* c = channel("full", 2);
  std::vector<float> v = {1.0F};
  acltdtDataset* d = float_dataset(v, {1});
  ASSERT_EQ(acltdtSendTensor(c, d, 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(c, d, 0), ACL_SUCCESS);
  EXPECT_EQ(size_of(c), 2u);
  EXPECT_EQ(acltdtSendTensor(c, d, 0), ACL_ERROR_RT_QUEUE_FULL);
  // One host thread: nothing can make room, so the whole timeout passes, in simulated time.
  EXPECT_EQ(acltdtSendTensor(c, d, 5), ACL_ERROR_RT_QUEUE_FULL);
  EXPECT_EQ(span_time("acltdtSendTensor"), 5 * sim::kMs);
  // Waiting forever can never end: it fails at once instead of hanging.
  EXPECT_EQ(acltdtSendTensor(c, d, -1), ACL_ERROR_RT_QUEUE_FULL);
  EXPECT_NE(recent_message().find("deadlock"), std::string::npos) << recent_message();
  EXPECT_EQ(acltdtSendTensor(c, d, -2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(size_of(c), 2u);
  ASSERT_EQ(acltdtCleanChannel(c), ACL_SUCCESS);
  EXPECT_EQ(size_of(c), 0u);
  EXPECT_EQ(acltdtSendTensor(c, d, 0), ACL_SUCCESS);
  destroy_with_items(d);
}

TEST_F(TdtTest, AnEmptyChannelFailsAtOnceOrAfterItsTimeout) {
  acltdtChannelHandle* c = channel("empty", 2);
  acltdtDataset* got = acltdtCreateDataset();
  EXPECT_EQ(acltdtReceiveTensor(c, got, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_EQ(acltdtReceiveTensor(c, got, 3), ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_EQ(span_time("acltdtReceiveTensor"), 3 * sim::kMs);
  EXPECT_EQ(acltdtReceiveTensor(c, got, -1), ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_NE(recent_message().find("deadlock"), std::string::npos) << recent_message();
  EXPECT_EQ(acltdtGetDatasetSize(got), 0u);
  EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);
}

TEST_F(TdtTest, AStoppedChannelFailsSendsAndReceives) {
  acltdtChannelHandle* c = channel("stopped", 2);
  std::vector<float> v = {1.0F};
  acltdtDataset* d = float_dataset(v, {1});
  ASSERT_EQ(acltdtStopChannel(c), ACL_SUCCESS);
  EXPECT_EQ(acltdtSendTensor(c, d, 0), ACL_ERROR_FAILURE);
  acltdtDataset* got = acltdtCreateDataset();
  EXPECT_EQ(acltdtReceiveTensor(c, got, 0), ACL_ERROR_FAILURE);
  EXPECT_EQ(acltdtReceiveTensor(c, d, 0), ACL_ERROR_INVALID_PARAM);  // holds the user's items
  EXPECT_EQ(acltdtStopChannel(c), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);
  destroy_with_items(d);
}

TEST_F(TdtTest, BadChannelArgumentsAreReported) {
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "c1", 1), nullptr);
  EXPECT_EQ(aclGetRecentErrMsg() != nullptr, true);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "c1", 8193), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, nullptr, 2), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "", 2), nullptr);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(99, "c1", 2), nullptr);
  acltdtChannelHandle* c = channel("c1", 2);
  EXPECT_EQ(acltdtCreateChannelWithCapacity(0, "c1", 2), nullptr);  // the name is taken
  acltdtChannelHandle* dflt = acltdtCreateChannel(0, "c2");
  ASSERT_NE(dflt, nullptr);
  ASSERT_EQ(acltdtDestroyChannel(dflt), ACL_SUCCESS);
  EXPECT_EQ(acltdtQueryChannelSize(dflt, nullptr), ACL_ERROR_INVALID_PARAM);  // destroyed
  size_t n = 0;
  EXPECT_EQ(acltdtQueryChannelSize(dflt, &n), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtQueryChannelSize(c, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSendTensor(c, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyChannel(nullptr), ACL_ERROR_INVALID_PARAM);
  // Items and datasets.
  int64_t dims[1] = {-1};
  float f = 0;
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, &f, 4), nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 1, ACL_FLOAT, &f, 4), nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 0, ACL_FLOAT, nullptr, 4),
            nullptr);
  EXPECT_EQ(acltdtCreateDataItem(ACL_TENSOR_DATA_UNDEFINED, nullptr, 0, ACL_FLOAT, &f, 4), nullptr);
  acltdtDataItem* eos =
      acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0, ACL_FLOAT, nullptr, 0);
  ASSERT_NE(eos, nullptr);
  acltdtDataset* d = acltdtCreateDataset();
  EXPECT_EQ(acltdtGetDataItem(d, 0), nullptr);
  ASSERT_EQ(acltdtAddDataItem(d, eos), ACL_SUCCESS);
  ASSERT_EQ(acltdtDestroyDataItem(eos), ACL_SUCCESS);  // leaves the dataset too
  EXPECT_EQ(acltdtGetDatasetSize(d), 0u);
  EXPECT_EQ(acltdtDestroyDataItem(eos), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtDestroyDataset(d), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(d), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetDatasetSize(nullptr), 0u);
}

TEST_F(TdtTest, AnEndOfSequenceItemCarriesNoBytesAndNoCopy) {
  acltdtChannelHandle* c = channel("eos", 2);
  acltdtDataItem* eos =
      acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0, ACL_FLOAT, nullptr, 0);
  acltdtDataset* d = acltdtCreateDataset();
  ASSERT_EQ(acltdtAddDataItem(d, eos), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(c, d, 0), ACL_SUCCESS);
  acltdtDataset* got = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(c, got, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtGetTensorTypeFromItem(acltdtGetDataItem(got, 0)),
            ACL_TENSOR_DATA_END_OF_SEQUENCE);
  EXPECT_EQ(acltdtGetDataAddrFromItem(acltdtGetDataItem(got, 0)), nullptr);
  EXPECT_EQ(task("TDT_SEND_H2D"), nullptr);
  EXPECT_EQ(task("TDT_RECV_D2H"), nullptr);
  EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);
  destroy_with_items(d);
}

// A receiver blocked forever is woken by a sender on another thread; the receive continues from
// the send call's end clock, whichever thread reaches the runtime first in wall time.
TEST_F(TdtTest, ABlockedReceiverIsWokenByASenderThreadDeterministically) {
  std::vector<SimTime> gaps;
  for (int run = 0; run < 2; ++run) {
    const std::string name = "wake" + std::to_string(run);
    acltdtChannelHandle* c = channel(name.c_str(), 2);
    std::vector<float> v = {7.0F, 8.0F};
    acltdtDataset* d = float_dataset(v, {2});
    acltdtDataset* got = acltdtCreateDataset();
    aclError received = -1;
    std::thread receiver([&] {
      if (run == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      aclrtSetDevice(0);
      received = acltdtReceiveTensor(c, got, -1);
    });
    if (run == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    int32_t device = -1;
    for (int i = 0; i < 20; ++i) aclrtGetDevice(&device);  // the sender's clock moves on
    ASSERT_EQ(acltdtSendTensor(c, d, -1), ACL_SUCCESS);
    receiver.join();
    ASSERT_EQ(received, ACL_SUCCESS);
    EXPECT_EQ(first_value(got), 7.0F);
    const auto send = span("acltdtSendTensor");
    const auto recv = span("acltdtReceiveTensor");
    EXPECT_NE(send.thread, recv.thread);
    EXPECT_LT(recv.start, send.end);  // it was waiting before the data arrived
    const FakeBackend::TaskTrace* d2h = nullptr;
    for (const auto& t : fake().tasks()) {
      if (t.name == "TDT_RECV_D2H") d2h = &t;  // this run's (the last)
    }
    ASSERT_NE(d2h, nullptr);
    // Woken at the send's end, then the blocking return, the copy's driver path and launch.
    EXPECT_EQ(d2h->record.start, send.end + host().sync_call.ps + host().sync_copy_setup.ps +
                                     host().launch_call.ps);
    gaps.push_back(recv.end - send.end);
    EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);
    destroy_with_items(d);
  }
  EXPECT_EQ(gaps[0], gaps[1]);
}

// A sender blocked on a full channel is woken when a receiver on another thread makes room.
TEST_F(TdtTest, ABlockedSenderIsWokenWhenAReceiverMakesRoom) {
  acltdtChannelHandle* c = channel("room", 2);
  std::vector<std::vector<float>> values = {{1.0F}, {2.0F}, {3.0F}};
  std::vector<acltdtDataset*> sent;
  for (auto& v : values) sent.push_back(float_dataset(v, {1}));
  ASSERT_EQ(acltdtSendTensor(c, sent[0], 0), ACL_SUCCESS);
  ASSERT_EQ(acltdtSendTensor(c, sent[1], 0), ACL_SUCCESS);
  aclError third = -1;
  std::thread sender([&] {
    aclrtSetDevice(0);
    third = acltdtSendTensor(c, sent[2], -1);
  });
  int32_t device = -1;
  for (int i = 0; i < 20; ++i) aclrtGetDevice(&device);
  acltdtDataset* got = acltdtCreateDataset();
  ASSERT_EQ(acltdtReceiveTensor(c, got, -1), ACL_SUCCESS);
  EXPECT_EQ(first_value(got), 1.0F);
  sender.join();
  EXPECT_EQ(third, ACL_SUCCESS);
  EXPECT_EQ(size_of(c), 2u);
  for (float want : {2.0F, 3.0F}) {
    ASSERT_EQ(acltdtReceiveTensor(c, got, 0), ACL_SUCCESS);
    EXPECT_EQ(first_value(got), want);
  }
  EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);
  for (acltdtDataset* d : sent) destroy_with_items(d);
}

// With another host thread alive (in pthread_join, holding nobody back) a finite wait ends at its
// deadline in simulated time.
TEST_F(TdtTest, AWaitWithAnotherThreadAliveTimesOutAtItsDeadline) {
  acltdtChannelHandle* c = channel("deadline", 2);
  acltdtDataset* got = acltdtCreateDataset();
  aclError r = -1;
  std::thread receiver([&] {
    aclrtSetDevice(0);
    r = acltdtReceiveTensor(c, got, 2);
  });
  receiver.join();
  EXPECT_EQ(r, ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_EQ(span_time("acltdtReceiveTensor"), 2 * sim::kMs + host().sync_call.ps);
  EXPECT_EQ(acltdtDestroyDataset(got), ACL_SUCCESS);
}

// Two threads both waiting forever on an empty channel: nobody can ever send, so both fail at
// once (deadlock) instead of hanging.
TEST_F(TdtTest, ThreadsThatAllWaitForeverFailWithADeadlock) {
  acltdtChannelHandle* c = channel("all_wait", 2);
  acltdtDataset* a = acltdtCreateDataset();
  acltdtDataset* b = acltdtCreateDataset();
  aclError other = -1;
  std::thread t([&] {
    aclrtSetDevice(0);
    other = acltdtReceiveTensor(c, b, -1);
  });
  const aclError mine = acltdtReceiveTensor(c, a, -1);
  t.join();
  EXPECT_EQ(mine, ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_EQ(other, ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_EQ(acltdtDestroyDataset(a), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(b), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing::tdt_test
