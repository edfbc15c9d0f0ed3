// SPDX-License-Identifier: Apache-2.0
// The fixtures of the tensor data transfer tests (tdt_test.cpp, tdt_queue_test.cpp): channels
// and queues a test creates, destroyed at TearDown, and dataset helpers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing::tdt_test {

// One float tensor of the given values and dims.
inline acltdtDataset* float_dataset(std::vector<float>& values, std::vector<int64_t> dims) {
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims.data(), dims.size(),
                                              ACL_FLOAT, values.data(), values.size() * 4);
  acltdtDataset* d = acltdtCreateDataset();
  EXPECT_EQ(acltdtAddDataItem(d, item), ACL_SUCCESS);
  return d;
}

inline void destroy_with_items(acltdtDataset* d) {
  const size_t n = acltdtGetDatasetSize(d);
  std::vector<acltdtDataItem*> items;
  for (size_t i = 0; i < n; ++i) items.push_back(acltdtGetDataItem(d, i));
  for (acltdtDataItem* item : items) EXPECT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
  EXPECT_EQ(acltdtDestroyDataset(d), ACL_SUCCESS);
}

inline float first_value(const acltdtDataset* d) {
  return *static_cast<const float*>(acltdtGetDataAddrFromItem(acltdtGetDataItem(d, 0)));
}

inline std::string recent_message() {
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
  // How long the last API span named `name` lasted, in simulated time.
  SimTime span_time(const char* name) {
    const FakeBackend::ApiTrace s = span(name);
    return s.end - s.start;
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

}  // namespace npusim::rt::testing::tdt_test
