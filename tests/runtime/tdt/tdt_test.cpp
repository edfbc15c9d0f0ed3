// SPDX-License-Identifier: Apache-2.0
// Tensor data transfer (acl/acl_tdt.h, acl/acl_tdt_queue.h; runtime/tdt/tdt.h) against
// FakeBackend: values, FIFO order, capacity, timeouts in simulated time, the copies' simulated
// cost, blocked threads woken by other threads, routes, and the error codes of bad input.
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

// One float tensor of the given values and dims.
acltdtDataset* float_dataset(std::vector<float>& values, std::vector<int64_t> dims) {
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims.data(), dims.size(),
                                              ACL_FLOAT, values.data(), values.size() * 4);
  acltdtDataset* d = acltdtCreateDataset();
  EXPECT_EQ(acltdtAddDataItem(d, item), ACL_SUCCESS);
  return d;
}

void destroy_with_items(acltdtDataset* d) {
  const size_t n = acltdtGetDatasetSize(d);
  std::vector<acltdtDataItem*> items;
  for (size_t i = 0; i < n; ++i) items.push_back(acltdtGetDataItem(d, i));
  for (acltdtDataItem* item : items) EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(d), ACL_SUCCESS);
}

float first_value(const acltdtDataset* d) {
  return *static_cast<const float*>(acltdtGetDataAddrFromItem(acltdtGetDataItem(d, 0)));
}

std::string recent_message() {
  const char* m = aclGetRecentErrMsg();
  return m == nullptr ? std::string() : std::string(m);
}

class TdtTest : public DeviceTest {
 protected:
  void TearDown() override {
    for (acltdtChannelHandle* c : channels_) acltdtDestroyChannel(c);
    DeviceTest::TearDown();
  }
  acltdtChannelHandle* channel(const char* name, size_t capacity) {
    acltdtChannelHandle* c = acltdtCreateChannelWithCapacity(0, name, capacity);
    EXPECT_NE(c, nullptr);
    channels_.push_back(c);
    return c;
  }
  size_t size_of(acltdtChannelHandle* c) {
    size_t n = 99;
    EXPECT_EQ(acltdtQueryChannelSize(c, &n), ACL_SUCCESS);
    return n;
  }
  // The last API span named `name` (any thread).
  FakeBackend::ApiTrace span(const char* name, int from_end = 0) {
    const auto& calls = fake().api_calls();
    for (auto it = calls.rbegin(); it != calls.rend(); ++it) {
      if (it->name == std::string("AscendCL@") + name && from_end-- == 0) return *it;
    }
    ADD_FAILURE() << "no span " << name;
    return {};
  }
  const FakeBackend::TaskTrace* task(const char* name) {
    for (const auto& t : fake().tasks()) {
      if (t.name == name) return &t;
    }
    return nullptr;
  }
  const models::HostConfig& host() { return fake().config().host; }

  std::vector<acltdtChannelHandle*> channels_;
};

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
  const auto timed = span("acltdtSendTensor");
  EXPECT_EQ(timed.end - timed.start, 5 * sim::kMs);
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
  const auto timed = span("acltdtReceiveTensor");
  EXPECT_EQ(timed.end - timed.start, 3 * sim::kMs);
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
  const auto recv = span("acltdtReceiveTensor");
  EXPECT_EQ(recv.end - recv.start, 2 * sim::kMs + host().sync_call.ps);
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

// ---- Queues ----

class TdtQueueTest : public TdtTest {
 protected:
  void TearDown() override {
    for (uint32_t q : queues_) acltdtDestroyQueue(q);
    TdtTest::TearDown();
  }
  uint32_t queue(const char* name, uint32_t depth) {
    acltdtQueueAttr* attr = acltdtCreateQueueAttr();
    const char* p = name;
    EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof p, &p), ACL_SUCCESS);
    EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &depth),
              ACL_SUCCESS);
    uint32_t qid = 12345;
    EXPECT_EQ(acltdtCreateQueue(attr, &qid), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
    queues_.push_back(qid);
    return qid;
  }
  aclError put(uint32_t q, int32_t value, int32_t timeout = 0) {
    return acltdtEnqueueData(q, &value, sizeof value, nullptr, 0, timeout, 0);
  }
  int32_t take(uint32_t q) {
    int32_t value = -1;
    size_t size = 0;
    EXPECT_EQ(acltdtDequeueData(q, &value, sizeof value, &size, nullptr, 0, 0), ACL_SUCCESS);
    EXPECT_EQ(size, sizeof value);
    return value;
  }
  std::vector<uint32_t> queues_;
};

TEST_F(TdtQueueTest, AttributesKeepACopyOfTheNameAndTheDepth) {
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  char name[] = "attr_queue";
  const char* p = name;
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof p, &p), ACL_SUCCESS);
  name[0] = 'X';
  uint32_t depth = 4;
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &depth),
            ACL_SUCCESS);
  const char* got = nullptr;
  size_t real = 0;
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof got, &real, &got), ACL_SUCCESS);
  EXPECT_STREQ(got, "attr_queue");
  EXPECT_EQ(real, sizeof got);
  uint32_t d = 0;
  ASSERT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof d, &real, &d), ACL_SUCCESS);
  EXPECT_EQ(d, 4u);
  EXPECT_EQ(real, 4u);
  // Bad lengths, values and types.
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 8, &depth),
            ACL_ERROR_INVALID_PARAM);
  uint32_t zero = 0;
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &zero), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &real, &d),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtSetQueueAttr(attr, static_cast<acltdtQueueAttrType>(7), 4, &depth),
            ACL_ERROR_INVALID_PARAM);
  std::string long_name(128, 'n');
  const char* lp = long_name.c_str();
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof lp, &lp),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TdtQueueTest, EntriesKeepTheirOrderDataAndUserData) {
  const uint32_t q = queue("fifo_queue", 4);
  for (int32_t v : {11, 22, 33}) {
    const char user[4] = {'u', static_cast<char>('0' + v / 11), 0, 0};
    ASSERT_EQ(acltdtEnqueueData(q, &v, sizeof v, user, sizeof user, 0, 0), ACL_SUCCESS);
  }
  for (int32_t want : {11, 22, 33}) {
    int32_t v = 0;
    size_t size = 0;
    char user[8];
    std::memset(user, 'x', sizeof user);
    ASSERT_EQ(acltdtDequeueData(q, &v, sizeof v, &size, user, sizeof user, -1), ACL_SUCCESS);
    EXPECT_EQ(v, want);
    EXPECT_EQ(size, 4u);
    EXPECT_EQ(user[0], 'u');
    EXPECT_EQ(user[1], static_cast<char>('0' + want / 11));
    EXPECT_EQ(user[4], 0);  // past what was enqueued: zeros
  }
  const FakeBackend::TaskTrace* h2d = task("TDT_ENQUEUE_H2D");
  ASSERT_NE(h2d, nullptr);
  EXPECT_EQ(h2d->record.end - h2d->record.start, 1 * sim::kUs + 400);  // 4 bytes
  EXPECT_NE(task("TDT_DEQUEUE_D2H"), nullptr);
}

TEST_F(TdtQueueTest, DepthTimeoutsAndErrorCodes) {
  const uint32_t q = queue("depth_queue", 2);
  ASSERT_EQ(put(q, 1), ACL_SUCCESS);
  ASSERT_EQ(put(q, 2), ACL_SUCCESS);
  EXPECT_EQ(put(q, 3), ACL_ERROR_RT_QUEUE_FULL);
  EXPECT_EQ(put(q, 3, 4), ACL_ERROR_RT_QUEUE_FULL);
  const auto timed = span("acltdtEnqueueData");
  EXPECT_EQ(timed.end - timed.start, 4 * sim::kMs);
  EXPECT_EQ(put(q, 3, -1), ACL_ERROR_RT_QUEUE_FULL);  // deadlock, reported at once
  // Too small a buffer: the entry stays and its size is reported.
  char small[2];
  size_t size = 0;
  EXPECT_EQ(acltdtDequeueData(q, small, sizeof small, &size, nullptr, 0, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(take(q), 1);
  EXPECT_EQ(take(q), 2);
  int32_t v = 0;
  EXPECT_EQ(acltdtDequeueData(q, &v, 4, &size, nullptr, 0, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_EQ(acltdtDequeueData(q, &v, 4, &size, nullptr, 0, 2), ACL_ERROR_RT_QUEUE_EMPTY);
  EXPECT_EQ(acltdtDequeueData(q, &v, 4, &size, nullptr, 0, -1), ACL_ERROR_RT_QUEUE_EMPTY);
  // Bad arguments.
  EXPECT_EQ(put(4242, 1), ACL_ERROR_INVALID_QUEUE_ID);
  EXPECT_EQ(acltdtDequeueData(4242, &v, 4, &size, nullptr, 0, 0), ACL_ERROR_INVALID_QUEUE_ID);
  EXPECT_EQ(acltdtDestroyQueue(4242), ACL_ERROR_INVALID_QUEUE_ID);
  char user[97] = {};
  EXPECT_EQ(acltdtEnqueueData(q, &v, 4, user, sizeof user, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtEnqueueData(q, &v, 4, nullptr, 0, 0, 1), ACL_ERROR_INVALID_PARAM);  // rsv
  EXPECT_EQ(acltdtEnqueueData(q, nullptr, 4, nullptr, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtEnqueueData(q, &v, 4, nullptr, 0, -5, 0), ACL_ERROR_INVALID_PARAM);
  uint32_t other = 0;
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  const char* p = "depth_queue";
  ASSERT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof p, &p), ACL_SUCCESS);
  EXPECT_EQ(acltdtCreateQueue(attr, &other), ACL_ERROR_INVALID_PARAM);  // the name is taken
  EXPECT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
  EXPECT_EQ(acltdtCreateQueue(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(TdtQueueTest, DeviceMemoryMovesOverTheDevicesDma) {
  const uint32_t q = queue("device_queue", 2);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int32_t value = 99;
  ASSERT_EQ(aclrtMemcpy(dev, 64, &value, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(acltdtEnqueueData(q, dev, 4, nullptr, 0, 0, 0), ACL_SUCCESS);
  const FakeBackend::TaskTrace* d2d = task("TDT_ENQUEUE_D2D");
  ASSERT_NE(d2d, nullptr);
  EXPECT_EQ(d2d->record.end - d2d->record.start, 1 * sim::kUs + 400);
  EXPECT_EQ(take(q), 99);
  EXPECT_EQ(acltdtEnqueueData(q, dev, 1 << 20, nullptr, 0, 0, 0),
            ACL_ERROR_INVALID_PARAM);  // runs past the allocation
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST_F(TdtQueueTest, AutomaticNamesAndLowestFreeIds) {
  uint32_t a = 0, b = 0;
  ASSERT_EQ(acltdtCreateQueue(nullptr, &a), ACL_SUCCESS);
  ASSERT_EQ(acltdtCreateQueue(nullptr, &b), ACL_SUCCESS);
  EXPECT_EQ(b, a + 1);
  ASSERT_EQ(acltdtDestroyQueue(a), ACL_SUCCESS);
  uint32_t c = 0;
  ASSERT_EQ(acltdtCreateQueue(nullptr, &c), ACL_SUCCESS);
  EXPECT_EQ(c, a);  // reused
  for (int i = 0; i < 8; ++i) ASSERT_EQ(put(c, i), ACL_SUCCESS);  // default depth 8
  EXPECT_EQ(put(c, 8), ACL_ERROR_RT_QUEUE_FULL);
  uint32_t perm = 0;
  ASSERT_EQ(acltdtAttachQueue(c, 0, &perm), ACL_SUCCESS);
  EXPECT_EQ(perm, 7u);
  EXPECT_EQ(acltdtGrantQueue(c, 1234, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 0), ACL_SUCCESS);
  EXPECT_EQ(acltdtGrantQueue(c, 1234, 8, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGrantQueue(4242, 1234, 1, 0), ACL_ERROR_INVALID_QUEUE_ID);
  ASSERT_EQ(acltdtDestroyQueue(b), ACL_SUCCESS);
  ASSERT_EQ(acltdtDestroyQueue(c), ACL_SUCCESS);
}

TEST_F(TdtQueueTest, ABlockedDequeueIsWokenByAnEnqueueOnAnotherThread) {
  const uint32_t q = queue("wake_queue", 2);
  int32_t got = -1;
  aclError r = -1;
  std::thread consumer([&] {
    aclrtSetDevice(0);
    size_t size = 0;
    r = acltdtDequeueData(q, &got, sizeof got, &size, nullptr, 0, -1);
  });
  int32_t device = -1;
  for (int i = 0; i < 20; ++i) aclrtGetDevice(&device);
  ASSERT_EQ(put(q, 5, -1), ACL_SUCCESS);
  consumer.join();
  EXPECT_EQ(r, ACL_SUCCESS);
  EXPECT_EQ(got, 5);
  EXPECT_GT(span("acltdtDequeueData").end, span("acltdtEnqueueData").end);
}

TEST_F(TdtQueueTest, AclFinalizeReleasesTheChannelsAndQueuesLeft) {
  acltdtChannelHandle* c = acltdtCreateChannelWithCapacity(0, "left", 2);
  ASSERT_NE(c, nullptr);
  uint32_t q = 0;
  ASSERT_EQ(acltdtCreateQueue(nullptr, &q), ACL_SUCCESS);
  ASSERT_EQ(put(q, 1), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  size_t n = 0;
  EXPECT_EQ(acltdtQueryChannelSize(c, &n), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(put(q, 2), ACL_ERROR_INVALID_QUEUE_ID);
  EXPECT_EQ(acltdtDestroyQueue(q), ACL_ERROR_INVALID_QUEUE_ID);
  acltdtChannelHandle* again = channel("left", 2);  // the name is free again
  EXPECT_NE(again, nullptr);
}

// ---- Routes ----

struct RouteList {
  acltdtQueueRouteList* list = acltdtCreateQueueRouteList();
  ~RouteList() { acltdtDestroyQueueRouteList(list); }
  void add(uint32_t src, uint32_t dst) {
    acltdtQueueRoute* r = acltdtCreateQueueRoute(src, dst);
    EXPECT_EQ(acltdtAddQueueRoute(list, r), ACL_SUCCESS);
    EXPECT_EQ(acltdtDestroyQueueRoute(r), ACL_SUCCESS);  // the list keeps a copy
  }
};

// Routes matching (mode, src, dst) as "src>dst:status" strings.
std::vector<std::string> query(int mode, uint32_t src, uint32_t dst) {
  acltdtQueueRouteQueryInfo* info = acltdtCreateQueueRouteQueryInfo();
  acltdtQueueRouteQueryMode m = static_cast<acltdtQueueRouteQueryMode>(mode);
  EXPECT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof m, &m),
            ACL_SUCCESS);
  EXPECT_EQ(
      acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 4, &src),
      ACL_SUCCESS);
  EXPECT_EQ(
      acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, 4, &dst),
      ACL_SUCCESS);
  RouteList out;
  EXPECT_EQ(acltdtQueryQueueRoutes(info, out.list), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRouteQueryInfo(info), ACL_SUCCESS);
  std::vector<std::string> found;
  acltdtQueueRoute* view = acltdtCreateQueueRoute(0, 0);
  for (size_t i = 0; i < acltdtGetQueueRouteNum(out.list); ++i) {
    EXPECT_EQ(acltdtGetQueueRoute(out.list, i, view), ACL_SUCCESS);
    uint32_t s = 0, d = 0;
    int32_t status = -1;
    size_t real = 0;
    EXPECT_EQ(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 4, &real, &s),
              ACL_SUCCESS);
    EXPECT_EQ(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_DST_UINT32, 4, &real, &d),
              ACL_SUCCESS);
    EXPECT_EQ(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &real, &status),
              ACL_SUCCESS);
    found.push_back(std::to_string(s) + ">" + std::to_string(d) + ":" + std::to_string(status));
  }
  EXPECT_EQ(acltdtDestroyQueueRoute(view), ACL_SUCCESS);
  return found;
}

std::string route(uint32_t s, uint32_t d, int status) {
  return std::to_string(s) + ">" + std::to_string(d) + ":" + std::to_string(status);
}

TEST_F(TdtQueueTest, ABoundRouteForwardsEntriesAndQueriesFindIt) {
  const uint32_t a = queue("route_a", 4);
  const uint32_t b = queue("route_b", 4);
  const uint32_t c = queue("route_c", 4);
  ASSERT_EQ(put(a, 1), ACL_SUCCESS);  // queued before the route exists
  RouteList ab;
  ab.add(a, b);
  ASSERT_EQ(acltdtBindQueueRoutes(ab.list), ACL_SUCCESS);
  ASSERT_EQ(put(a, 2), ACL_SUCCESS);
  EXPECT_EQ(take(b), 1);
  EXPECT_EQ(take(b), 2);
  int32_t v = 0;
  size_t size = 0;
  EXPECT_EQ(acltdtDequeueData(a, &v, 4, &size, nullptr, 0, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  RouteList bc;
  bc.add(b, c);
  ASSERT_EQ(acltdtBindQueueRoutes(bc.list), ACL_SUCCESS);
  EXPECT_EQ(query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST, a, b),
            std::vector<std::string>{route(a, b, 1)});
  EXPECT_EQ(query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC, b, 0), std::vector<std::string>{route(b, c, 1)});
  EXPECT_EQ(query(ACL_TDT_QUEUE_ROUTE_QUERY_DST, 0, b), std::vector<std::string>{route(a, b, 1)});
  EXPECT_EQ(query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST, a, c), std::vector<std::string>{});
  ASSERT_EQ(put(a, 3), ACL_SUCCESS);  // a -> b -> c
  EXPECT_EQ(take(c), 3);
  // A route closing a cycle is refused.
  RouteList ca;
  ca.add(c, a);
  EXPECT_EQ(acltdtBindQueueRoutes(ca.list), ACL_ERROR_INVALID_PARAM);
  RouteList self;
  self.add(a, a);
  EXPECT_EQ(acltdtBindQueueRoutes(self.list), ACL_ERROR_INVALID_PARAM);
  RouteList missing;
  missing.add(a, 4242);
  EXPECT_EQ(acltdtBindQueueRoutes(missing.list), ACL_ERROR_INVALID_QUEUE_ID);
  // Unbinding stops the forwarding.
  ASSERT_EQ(acltdtUnbindQueueRoutes(bc.list), ACL_SUCCESS);
  EXPECT_EQ(query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC, b, 0), std::vector<std::string>{});
  ASSERT_EQ(put(a, 4), ACL_SUCCESS);
  EXPECT_EQ(take(b), 4);
  ASSERT_EQ(acltdtUnbindQueueRoutes(ab.list), ACL_SUCCESS);
}

TEST_F(TdtQueueTest, AFullDestinationHoldsEntriesInTheSourceUntilItHasRoom) {
  const uint32_t a = queue("hold_a", 4);
  const uint32_t b = queue("hold_b", 1);
  RouteList ab;
  ab.add(a, b);
  ASSERT_EQ(acltdtBindQueueRoutes(ab.list), ACL_SUCCESS);
  for (int32_t v : {1, 2, 3}) ASSERT_EQ(put(a, v), ACL_SUCCESS);
  EXPECT_EQ(take(b), 1);  // makes room: 2 moves on
  EXPECT_EQ(take(b), 2);
  EXPECT_EQ(take(b), 3);
  ASSERT_EQ(acltdtUnbindQueueRoutes(ab.list), ACL_SUCCESS);
}

TEST_F(TdtQueueTest, DestroyingAQueueLeavesItsRoutesAbnormal) {
  const uint32_t a = queue("abn_a", 2);
  const uint32_t b = queue("abn_b", 2);
  RouteList ab;
  ab.add(a, b);
  ASSERT_EQ(acltdtBindQueueRoutes(ab.list), ACL_SUCCESS);
  ASSERT_EQ(acltdtDestroyQueue(b), ACL_SUCCESS);
  queues_.pop_back();
  EXPECT_EQ(query(ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL, 0, 0),
            std::vector<std::string>{route(a, b, 2)});
  ASSERT_EQ(put(a, 1), ACL_SUCCESS);  // no forwarding into a destroyed queue
  EXPECT_EQ(take(a), 1);
  ASSERT_EQ(acltdtUnbindQueueRoutes(ab.list), ACL_SUCCESS);
  EXPECT_EQ(query(ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL, 0, 0), std::vector<std::string>{});
}

TEST_F(TdtQueueTest, BadRouteHandlesAndQueriesAreReported) {
  EXPECT_EQ(acltdtBindQueueRoutes(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(acltdtGetQueueRouteNum(nullptr), 0u);
  acltdtQueueRoute* r = acltdtCreateQueueRoute(1, 2);
  uint32_t s = 0;
  size_t real = 0;
  EXPECT_EQ(acltdtGetQueueRouteParam(r, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 2, &real, &s),
            ACL_ERROR_INVALID_PARAM);
  RouteList list;
  EXPECT_EQ(acltdtGetQueueRoute(list.list, 0, r), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acltdtDestroyQueueRoute(r), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyQueueRoute(r), ACL_ERROR_INVALID_PARAM);
  acltdtQueueRouteQueryInfo* info = acltdtCreateQueueRouteQueryInfo();
  EXPECT_EQ(acltdtQueryQueueRoutes(info, list.list), ACL_ERROR_INVALID_PARAM);  // no mode
  int mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  ASSERT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4, &mode),
            ACL_SUCCESS);
  EXPECT_EQ(acltdtQueryQueueRoutes(info, list.list), ACL_ERROR_INVALID_PARAM);  // no source
  mode = 3;
  EXPECT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4, &mode),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(acltdtDestroyQueueRouteQueryInfo(info), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing
