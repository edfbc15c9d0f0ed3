// SPDX-License-Identifier: Apache-2.0
// Tensor data transfer queues and routes (acl/acl_tdt_queue.h; runtime/tdt/tdt.h) against
// FakeBackend: attributes, order, depth, timeouts, device memory over DMA, ids, blocked threads
// woken by other threads, routes that forward entries, and the error codes of bad input.
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tests/runtime/tdt/tdt_support.h"

namespace npusim::rt::testing::tdt_test {
namespace {

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
  EXPECT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &zero),
            ACL_ERROR_INVALID_PARAM);
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
  EXPECT_EQ(span_time("acltdtEnqueueData"), 4 * sim::kMs);
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

// A route src -> dst, bound at construction.
struct BoundRoute : RouteList {
  BoundRoute(uint32_t src, uint32_t dst) {
    add(src, dst);
    EXPECT_EQ(acltdtBindQueueRoutes(list), ACL_SUCCESS);
  }
  void unbind() { ASSERT_EQ(acltdtUnbindQueueRoutes(list), ACL_SUCCESS); }
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
  BoundRoute ab(a, b);
  ASSERT_EQ(put(a, 2), ACL_SUCCESS);
  EXPECT_EQ(take(b), 1);
  EXPECT_EQ(take(b), 2);
  int32_t v = 0;
  size_t size = 0;
  EXPECT_EQ(acltdtDequeueData(a, &v, 4, &size, nullptr, 0, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  BoundRoute bc(b, c);
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
  bc.unbind();
  EXPECT_EQ(query(ACL_TDT_QUEUE_ROUTE_QUERY_SRC, b, 0), std::vector<std::string>{});
  ASSERT_EQ(put(a, 4), ACL_SUCCESS);
  EXPECT_EQ(take(b), 4);
  ab.unbind();
}

TEST_F(TdtQueueTest, AFullDestinationHoldsEntriesInTheSourceUntilItHasRoom) {
  const uint32_t a = queue("hold_a", 4), b = queue("hold_b", 1);
  BoundRoute ab(a, b);
  for (int32_t v : {1, 2, 3}) ASSERT_EQ(put(a, v), ACL_SUCCESS);
  EXPECT_EQ(take(b), 1);  // makes room: 2 moves on
  EXPECT_EQ(take(b), 2);
  EXPECT_EQ(take(b), 3);
  ab.unbind();
}

TEST_F(TdtQueueTest, DestroyingAQueueLeavesItsRoutesAbnormal) {
  const uint32_t a = queue("abn_a", 2), b = queue("abn_b", 2);
  BoundRoute ab(a, b);
  ASSERT_EQ(acltdtDestroyQueue(b), ACL_SUCCESS);
  queues_.pop_back();
  EXPECT_EQ(query(ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL, 0, 0),
            std::vector<std::string>{route(a, b, 2)});
  ASSERT_EQ(put(a, 1), ACL_SUCCESS);  // no forwarding into a destroyed queue
  EXPECT_EQ(take(a), 1);
  ab.unbind();
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
}  // namespace npusim::rt::testing::tdt_test
