// SPDX-License-Identifier: Apache-2.0
// Tensor data transfer as CANN programs use it (-lacl_tdt_channel -lacl_tdt_queue -lascendcl): a
// producer thread sends 8 datasets of 1 MiB through a channel of capacity 2 to a consumer thread
// (so it blocks whenever the channel is full), and enqueues 8 entries into a queue routed to a
// second queue the consumer dequeues from. The threads race in wall time; e2e.sh runs this three
// times and compares the timelines byte for byte. The values are checked here.
#include <cstdint>
#include <thread>
#include <vector>

#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "e2e_common.h"

namespace {

constexpr int kCount = 8;
constexpr size_t kFloats = 1u << 18;  // 1 MiB

acltdtChannelHandle* g_channel = nullptr;
uint32_t g_src = 0, g_dst = 0;

void producer() {
  E2E_CHECK(aclrtSetDevice(0));
  std::vector<float> values(kFloats);
  int64_t dims[1] = {static_cast<int64_t>(kFloats)};
  for (int i = 0; i < kCount; ++i) {
    for (size_t k = 0; k < kFloats; ++k) values[k] = static_cast<float>(i * 1000 + k % 1000);
    acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT,
                                                values.data(), values.size() * sizeof(float));
    acltdtDataset* d = acltdtCreateDataset();
    E2E_CHECK(acltdtAddDataItem(d, item));
    E2E_CHECK(acltdtSendTensor(g_channel, d, -1));
    E2E_CHECK(acltdtDestroyDataItem(item));
    E2E_CHECK(acltdtDestroyDataset(d));
    const int32_t v = i * 7;
    E2E_CHECK(acltdtEnqueueData(g_src, &v, sizeof v, nullptr, 0, -1, 0));
  }
}

void consumer() {
  E2E_CHECK(aclrtSetDevice(0));
  acltdtDataset* got = acltdtCreateDataset();
  for (int i = 0; i < kCount; ++i) {
    E2E_CHECK(acltdtReceiveTensor(g_channel, got, -1));
    E2E_EXPECT(acltdtGetDatasetSize(got) == 1);
    acltdtDataItem* item = acltdtGetDataItem(got, 0);
    E2E_EXPECT(acltdtGetDataSizeFromItem(item) == kFloats * sizeof(float));
    const auto* f = static_cast<const float*>(acltdtGetDataAddrFromItem(item));
    E2E_EXPECT(f[0] == static_cast<float>(i * 1000) && f[kFloats - 1] == i * 1000 + 143.0F);
    int32_t v = -1;
    size_t size = 0;
    E2E_CHECK(acltdtDequeueData(g_dst, &v, sizeof v, &size, nullptr, 0, -1));
    E2E_EXPECT(v == i * 7 && size == sizeof v);
  }
  E2E_CHECK(acltdtDestroyDataset(got));
}

}  // namespace

int main() {
  E2E_CHECK(aclInit(nullptr));
  E2E_CHECK(aclrtSetDevice(0));
  g_channel = acltdtCreateChannelWithCapacity(0, "e2e_channel", 2);
  E2E_EXPECT(g_channel != nullptr);
  E2E_CHECK(acltdtCreateQueue(nullptr, &g_src));
  E2E_CHECK(acltdtCreateQueue(nullptr, &g_dst));
  acltdtQueueRoute* route = acltdtCreateQueueRoute(g_src, g_dst);
  acltdtQueueRouteList* routes = acltdtCreateQueueRouteList();
  E2E_CHECK(acltdtAddQueueRoute(routes, route));
  E2E_CHECK(acltdtBindQueueRoutes(routes));
  std::thread c(consumer);
  std::thread p(producer);
  p.join();
  c.join();
  size_t left = 99;
  E2E_CHECK(acltdtQueryChannelSize(g_channel, &left));
  E2E_EXPECT(left == 0);
  E2E_CHECK(acltdtUnbindQueueRoutes(routes));
  E2E_CHECK(acltdtDestroyQueueRouteList(routes));
  E2E_CHECK(acltdtDestroyQueueRoute(route));
  for (uint32_t queue : {g_dst, g_src}) E2E_CHECK(acltdtDestroyQueue(queue));
  E2E_CHECK(acltdtStopChannel(g_channel));
  E2E_CHECK(acltdtDestroyChannel(g_channel));
  e2e_finish(0);
  return 0;
}
