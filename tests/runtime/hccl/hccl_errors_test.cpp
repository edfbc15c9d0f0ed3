// SPDX-License-Identifier: Apache-2.0
// npusim's HCCL against FakeBackend: the rendezvous (HcclCommInitAll, root infos, a rank that
// never comes) and the error codes of every entry point.
#include "hccl/hccl.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "npusim/ascendc/half.h"
#include "runtime/core/runtime.h"
#include "tests/runtime/hccl/hccl_fixture.h"

namespace npusim::rt::testing::hccl_test {
namespace {

TEST_F(HcclTest, InitAllCreatesEveryRankFromOneThread) {
  int32_t devices[4] = {0, 1, 2, 3};
  HcclComm comms[4] = {};
  ASSERT_EQ(HcclCommInitAll(4, devices, comms), HCCL_SUCCESS);
  std::vector<void*> bufs(4);
  std::vector<aclrtStream> streams(4);
  for (int i = 0; i < 4; ++i) {
    uint32_t size = 0, rank = 9;
    EXPECT_EQ(HcclGetRankSize(comms[i], &size), HCCL_SUCCESS);
    EXPECT_EQ(HcclGetRankId(comms[i], &rank), HCCL_SUCCESS);
    EXPECT_EQ(size, 4u);
    EXPECT_EQ(rank, static_cast<uint32_t>(i));
    ASSERT_EQ(aclrtSetDevice(i), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&streams[i]), ACL_SUCCESS);
    bufs[i] = to_device(std::vector<int64_t>(3, i + 1));
  }
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(aclrtSetDevice(i), ACL_SUCCESS);
    ASSERT_EQ(HcclAllReduce(bufs[i], bufs[i], 3, HCCL_DATA_TYPE_INT64, HCCL_REDUCE_SUM, comms[i],
                            streams[i]),
              HCCL_SUCCESS);
  }
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(aclrtSetDevice(i), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(streams[i]), ACL_SUCCESS);
    EXPECT_EQ(to_host<int64_t>(bufs[i], 3), std::vector<int64_t>(3, 10));
    EXPECT_EQ(HcclCommDestroy(comms[i]), HCCL_SUCCESS);
    aclrtFree(bufs[i]);
    aclrtDestroyStream(streams[i]);
  }
  int32_t twice[2] = {1, 1};
  EXPECT_EQ(HcclCommInitAll(2, twice, comms), HCCL_E_PARA);
  int32_t out_of_range[1] = {8};
  EXPECT_EQ(HcclCommInitAll(1, out_of_range, comms), HCCL_E_PARA);
}

TEST_F(HcclTest, RootInfoOfAFormedDomainIsNotReused) {
  HcclRootInfo root;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  HcclComm comm = nullptr;
  ASSERT_EQ(HcclCommInitRootInfo(1, &root, 0, &comm), HCCL_SUCCESS);  // a 1-rank domain
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  void* in = to_device(std::vector<float>{1.5f, -2.0f, 3.25f});
  void* out = to_device(std::vector<float>(3));
  ASSERT_EQ(HcclAllReduce(in, out, 3, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s), HCCL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(to_host<float>(out, 3), (std::vector<float>{1.5f, -2.0f, 3.25f}));
  ASSERT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
  aclrtFree(in);
  aclrtFree(out);
  aclrtDestroyStream(s);
  EXPECT_EQ(HcclCommInitRootInfo(1, &root, 0, &comm), HCCL_E_PARA);
}

TEST_F(HcclTest, RankThatNeverJoinsIsReportedNotAHang) {
  set_hang_timeout(0.3);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  HcclRootInfo root;
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  std::vector<HcclResult> results(2, HCCL_SUCCESS);
  std::vector<std::thread> threads;
  for (std::uint32_t r = 0; r < 2; ++r) {  // ranks 0 and 1 of 3: rank 2 never comes
    threads.emplace_back([&, r] {
      aclrtSetDevice(static_cast<int32_t>(r));
      HcclComm comm = nullptr;
      results[r] = HcclCommInitRootInfo(3, &root, r, &comm);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(results[0], HCCL_E_TIMEOUT);
  EXPECT_EQ(results[1], HCCL_E_TIMEOUT);
}

TEST_F(HcclTest, ErrorCodes) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  int32_t devices[2] = {0, 1};
  HcclComm comms[2] = {};
  ASSERT_EQ(HcclCommInitAll(2, devices, comms), HCCL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void* buf = to_device(std::vector<float>(16));
  EXPECT_EQ(HcclAllReduce(buf, buf, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, nullptr, stream),
            HCCL_E_PTR);
  int junk = 0;
  EXPECT_EQ(HcclAllReduce(buf, buf, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, &junk, stream),
            HCCL_E_PARA);
  EXPECT_EQ(HcclAllReduce(buf, buf, 4, HCCL_DATA_TYPE_INT128, HCCL_REDUCE_SUM, comms[0], stream),
            HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclAllReduce(buf, buf, 16, HCCL_DATA_TYPE_FP32, static_cast<HcclReduceOp>(4), comms[0],
                          stream),
            HCCL_E_PARA);
  EXPECT_EQ(
      HcclAllReduce(buf, buf, 16, static_cast<HcclDataType>(99), HCCL_REDUCE_SUM, comms[0], stream),
      HCCL_E_PARA);
  EXPECT_EQ(HcclAllReduce(buf, buf, 100, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], stream),
            HCCL_E_PARA);  // larger than the allocation
  EXPECT_EQ(HcclAllReduce(nullptr, buf, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], stream),
            HCCL_E_PTR);
  // Memory of device 0 for the rank on device 1 (its stream is of device 0 too).
  EXPECT_EQ(HcclAllReduce(buf, buf, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[1], stream),
            HCCL_E_PARA);
  EXPECT_EQ(HcclBroadcast(buf, 16, HCCL_DATA_TYPE_FP32, 2, comms[0], stream), HCCL_E_PARA);
  EXPECT_EQ(HcclSend(buf, 16, HCCL_DATA_TYPE_FP32, 0, comms[0], stream), HCCL_E_PARA);  // itself
  EXPECT_EQ(HcclCommInitClusterInfo("cluster.json", 0, comms), HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclGetRootInfo(nullptr), HCCL_E_PTR);
  HcclRootInfo bogus{};
  HcclComm c = nullptr;
  EXPECT_EQ(HcclCommInitRootInfo(2, &bogus, 0, &c), HCCL_E_PARA);
  EXPECT_STREQ(HcclGetErrorString(HCCL_E_NOT_SUPPORT), "not support feature");
  char name[128] = {};
  EXPECT_EQ(HcclGetCommName(comms[0], name), HCCL_SUCCESS);
  EXPECT_NE(std::string(name).find("npusim_hccl"), std::string::npos);
  EXPECT_EQ(HcclCommDestroy(comms[0]), HCCL_SUCCESS);
  EXPECT_EQ(HcclCommDestroy(comms[0]), HCCL_E_PARA);  // already destroyed
  EXPECT_EQ(HcclCommDestroy(comms[1]), HCCL_SUCCESS);
  aclrtFree(buf);
  aclrtDestroyStream(stream);
}

// Every entry point with NULL, stale and out-of-range arguments: a documented HcclResult, never a
// crash, and nothing queued.
TEST_F(HcclTest, InvalidArgumentsOfEveryEntryPoint) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  int32_t devices[1] = {0};
  HcclComm comm = nullptr;
  ASSERT_EQ(HcclCommInitAll(1, devices, &comm), HCCL_SUCCESS);
  HcclComm stale = nullptr;
  ASSERT_EQ(HcclCommInitAll(1, devices, &stale), HCCL_SUCCESS);
  ASSERT_EQ(HcclCommDestroy(stale), HCCL_SUCCESS);
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  void* buf = to_device(std::vector<float>(64));
  std::vector<char> host(256);
  const std::size_t tasks_before = fake().tasks().size();
  const auto type = HCCL_DATA_TYPE_FP32;
  const auto bad_type = static_cast<HcclDataType>(-1);
  const auto sum = HCCL_REDUCE_SUM;
  uint64_t counts[1] = {4}, displs[1] = {0};
  for (HcclComm c : {static_cast<HcclComm>(nullptr), stale}) {
    const HcclResult want = c == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    uint32_t v = 0;
    EXPECT_EQ(HcclGetRankSize(c, &v), want);
    EXPECT_EQ(HcclGetRankId(c, &v), want);
    EXPECT_EQ(HcclAllReduce(buf, buf, 4, type, sum, c, s), want);
    EXPECT_EQ(HcclBroadcast(buf, 4, type, 0, c, s), want);
    EXPECT_EQ(HcclAllGather(buf, buf, 4, type, c, s), want);
    EXPECT_EQ(HcclReduceScatter(buf, buf, 4, type, sum, c, s), want);
    EXPECT_EQ(HcclReduce(buf, buf, 4, type, sum, 0, c, s), want);
    EXPECT_EQ(HcclScatter(buf, buf, 4, type, 0, c, s), want);
    EXPECT_EQ(HcclAlltoAll(buf, 4, type, buf, 4, type, c, s), want);
    EXPECT_EQ(HcclAlltoAllV(buf, counts, displs, type, buf, counts, displs, type, c, s), want);
    EXPECT_EQ(HcclAlltoAllVC(buf, counts, type, buf, type, c, s), want);
    EXPECT_EQ(HcclBarrier(c, s), want);
    EXPECT_EQ(HcclSend(buf, 4, type, 0, c, s), want);
    EXPECT_EQ(HcclRecv(buf, 4, type, 0, c, s), want);
    EXPECT_EQ(HcclBatchSendRecv(nullptr, 0, c, s), want);
    EXPECT_EQ(HcclCommDestroy(c), want);
  }
  uint32_t v = 0;
  EXPECT_EQ(HcclGetRankSize(comm, nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclGetRankId(comm, nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclGetCommName(comm, nullptr), HCCL_E_PTR);
  HcclResult async = HCCL_E_INTERNAL;
  EXPECT_EQ(HcclGetCommAsyncError(comm, &async), HCCL_SUCCESS);
  EXPECT_EQ(async, HCCL_SUCCESS);
  EXPECT_EQ(HcclAllReduce(buf, buf, 4, bad_type, sum, comm, s), HCCL_E_PARA);
  EXPECT_EQ(HcclAllGather(buf, host.data(), 4, type, comm, s), HCCL_E_PARA);  // host memory
  EXPECT_EQ(HcclBroadcast(nullptr, 4, type, 0, comm, s), HCCL_E_PTR);
  EXPECT_EQ(HcclScatter(buf, buf, 4, type, 1, comm, s), HCCL_E_PARA);      // root out of range
  EXPECT_EQ(HcclReduce(buf, buf, 4, type, sum, 7, comm, s), HCCL_E_PARA);  // root out of range
  EXPECT_EQ(HcclAlltoAllV(buf, nullptr, displs, type, buf, counts, displs, type, comm, s),
            HCCL_E_PTR);
  EXPECT_EQ(HcclAlltoAll(buf, 4, type, buf, 4, type, comm, s), HCCL_E_PARA);  // overlapping
  EXPECT_EQ(HcclAlltoAll(buf, 4, type, static_cast<char*>(buf) + 64, 2, type, comm, s),
            HCCL_E_PARA);                                      // counts differ
  EXPECT_EQ(HcclRecv(buf, 4, type, 3, comm, s), HCCL_E_PARA);  // no such rank
  HcclSendRecvItem item{static_cast<HcclSendRecvType>(9), buf, 4, type, 0};
  EXPECT_EQ(HcclBatchSendRecv(&item, 1, comm, s), HCCL_E_PARA);
  EXPECT_EQ(HcclBatchSendRecv(nullptr, 1, comm, s), HCCL_E_PTR);
  int bogus_stream = 0;
  EXPECT_EQ(HcclBarrier(comm, &bogus_stream), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitRootInfo(1, nullptr, 0, &comm), HCCL_E_PTR);
  EXPECT_EQ(HcclCommInitAll(0, devices, &comm), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitAll(1, nullptr, &comm), HCCL_E_PTR);
  EXPECT_STREQ(HcclGetErrorString(static_cast<HcclResult>(1000)), "unknown error");
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  EXPECT_EQ(fake().tasks().size(), tasks_before);  // no failed call queued a task
  (void)v;
  EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
  aclrtFree(buf);
  aclrtDestroyStream(s);
}

}  // namespace
}  // namespace npusim::rt::testing::hccl_test
