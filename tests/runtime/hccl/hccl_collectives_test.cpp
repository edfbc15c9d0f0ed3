// SPDX-License-Identifier: Apache-2.0
// npusim's HCCL against FakeBackend: AllGather, ReduceScatter, Broadcast, Reduce, Scatter, the
// AlltoAll family, point to point (and size / count mismatches), and ranks waiting for each other
// on the device.
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

TEST_F(HcclTest, AllGatherReduceScatterBroadcastReduceScatter) {
  const std::uint32_t n = 4;
  const std::size_t count = 10;
  run_ranks(n, [&](Rank& r) {
    std::vector<float> mine(count * n);
    for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = value(r.id, i);
    void* send = to_device(mine);
    // AllGather of the first `count` elements of every rank.
    void* gathered = to_device(std::vector<float>(count * n));
    ASSERT_EQ(HcclAllGather(send, gathered, count, HCCL_DATA_TYPE_FP32, r.comm, r.stream),
              HCCL_SUCCESS);
    // ReduceScatter: rank r gets the sum of slice r of everyone's count*n elements.
    void* scattered = to_device(std::vector<float>(count));
    ASSERT_EQ(HcclReduceScatter(send, scattered, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                                r.comm, r.stream),
              HCCL_SUCCESS);
    // Broadcast from rank 2.
    void* bcast = to_device(r.id == 2 ? mine : std::vector<float>(count * n));
    ASSERT_EQ(HcclBroadcast(bcast, count * n, HCCL_DATA_TYPE_FP32, 2, r.comm, r.stream),
              HCCL_SUCCESS);
    // Reduce (max) to rank 1.
    void* reduced = to_device(std::vector<float>(count, -7.0f));
    ASSERT_EQ(
        HcclReduce(send, reduced, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, 1, r.comm, r.stream),
        HCCL_SUCCESS);
    // Scatter from rank 3.
    void* part = to_device(std::vector<float>(count));
    ASSERT_EQ(HcclScatter(r.id == 3 ? send : nullptr, part, count, HCCL_DATA_TYPE_FP32, 3, r.comm,
                          r.stream),
              HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);

    auto g = to_host<float>(gathered, count * n);
    for (std::uint32_t k = 0; k < n; ++k) {
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(bits(g[k * count + i]), bits(value(k, i)));
    }
    auto rs = to_host<float>(scattered, count);
    for (std::size_t i = 0; i < count; ++i) {
      float acc = value(0, r.id * count + i);
      for (std::uint32_t k = 1; k < n; ++k) acc += value(k, r.id * count + i);
      ASSERT_EQ(bits(rs[i]), bits(acc)) << i;
    }
    auto b = to_host<float>(bcast, count * n);
    for (std::size_t i = 0; i < count * n; ++i) ASSERT_EQ(bits(b[i]), bits(value(2, i)));
    auto red = to_host<float>(reduced, count);
    for (std::size_t i = 0; i < count; ++i) {
      float want = -7.0f;
      if (r.id == 1) {
        want = value(0, i);
        for (std::uint32_t k = 1; k < n; ++k) want = std::max(want, value(k, i));
      }
      ASSERT_EQ(bits(red[i]), bits(want)) << "rank " << r.id << " element " << i;
    }
    auto p = to_host<float>(part, count);
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(bits(p[i]), bits(value(3, r.id * count + i)));
    for (void* x : {send, gathered, scattered, bcast, reduced, part}) aclrtFree(x);
  });
}

TEST_F(HcclTest, AlltoAllFamilies) {
  const std::uint32_t n = 3;
  run_ranks(n, [&](Rank& r) {
    // AlltoAll: 2 elements per pair; value = 100 * from + 10 * to + i.
    std::vector<int32_t> in(2 * n);
    for (std::uint32_t to = 0; to < n; ++to) {
      for (int i = 0; i < 2; ++i) in[to * 2 + i] = static_cast<int32_t>(100 * r.id + 10 * to + i);
    }
    void* send = to_device(in);
    void* recv = to_device(std::vector<int32_t>(2 * n));
    ASSERT_EQ(HcclAlltoAll(send, 2, HCCL_DATA_TYPE_INT32, recv, 2, HCCL_DATA_TYPE_INT32, r.comm,
                           r.stream),
              HCCL_SUCCESS);
    // AlltoAllV: rank i sends i+1+j elements to rank j, packed; receives packed by source.
    std::vector<uint64_t> sc(n), sd(n), rc(n), rd(n);
    std::vector<int32_t> vin;
    uint64_t off = 0;
    for (std::uint32_t j = 0; j < n; ++j) {
      sc[j] = r.id + 1 + j;
      sd[j] = off;
      for (uint64_t e = 0; e < sc[j]; ++e)
        vin.push_back(static_cast<int32_t>(1000 * r.id + 100 * j + e));
      off += sc[j];
    }
    uint64_t roff = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      rc[i] = i + 1 + r.id;
      rd[i] = roff;
      roff += rc[i];
    }
    void* vsend = to_device(vin);
    void* vrecv = to_device(std::vector<int32_t>(roff));
    ASSERT_EQ(HcclAlltoAllV(vsend, sc.data(), sd.data(), HCCL_DATA_TYPE_INT32, vrecv, rc.data(),
                            rd.data(), HCCL_DATA_TYPE_INT32, r.comm, r.stream),
              HCCL_SUCCESS);
    // AlltoAllVC with the same counts as a matrix.
    std::vector<uint64_t> matrix(n * n);
    for (std::uint32_t i = 0; i < n; ++i) {
      for (std::uint32_t j = 0; j < n; ++j) matrix[i * n + j] = i + 1 + j;
    }
    void* crecv = to_device(std::vector<int32_t>(roff));
    ASSERT_EQ(HcclAlltoAllVC(vsend, matrix.data(), HCCL_DATA_TYPE_INT32, crecv,
                             HCCL_DATA_TYPE_INT32, r.comm, r.stream),
              HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);
    auto out = to_host<int32_t>(recv, 2 * n);
    for (std::uint32_t from = 0; from < n; ++from) {
      for (int i = 0; i < 2; ++i) {
        ASSERT_EQ(out[from * 2 + i], static_cast<int32_t>(100 * from + 10 * r.id + i));
      }
    }
    for (void* buf : {vrecv, crecv}) {
      auto v = to_host<int32_t>(buf, roff);
      for (std::uint32_t i = 0; i < n; ++i) {
        for (uint64_t e = 0; e < rc[i]; ++e) {
          ASSERT_EQ(v[rd[i] + e], static_cast<int32_t>(1000 * i + 100 * r.id + e));
        }
      }
    }
    for (void* x : {send, recv, vsend, vrecv, crecv}) aclrtFree(x);
  });
}

TEST_F(HcclTest, SendRecvPairsAndBatchRing) {
  const std::uint32_t n = 6;
  run_ranks(n, [&](Rank& r) {
    const std::size_t count = 17;
    std::vector<double> mine(count);
    for (std::size_t i = 0; i < count; ++i) mine[i] = 1000.0 * r.id + i + 0.25;
    void* buf = to_device(mine);
    void* got = to_device(std::vector<double>(count));
    // Pairs (0->1, 2->3, 4->5), twice, on the FP64 type (no reduction: every type moves).
    for (int round = 0; round < 2; ++round) {
      if (r.id % 2 == 0) {
        ASSERT_EQ(HcclSend(buf, count, HCCL_DATA_TYPE_FP64, r.id + 1, r.comm, r.stream),
                  HCCL_SUCCESS);
      } else {
        ASSERT_EQ(HcclRecv(got, count, HCCL_DATA_TYPE_FP64, r.id - 1, r.comm, r.stream),
                  HCCL_SUCCESS);
      }
    }
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);
    if (r.id % 2 == 1) {
      auto v = to_host<double>(got, count);
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(v[i], 1000.0 * (r.id - 1) + i + 0.25);
    }
    // Ring: everyone sends to next and receives from previous in one batch.
    void* ring = to_device(std::vector<double>(count));
    HcclSendRecvItem items[2] = {{HCCL_SEND, buf, count, HCCL_DATA_TYPE_FP64, (r.id + 1) % n},
                                 {HCCL_RECV, ring, count, HCCL_DATA_TYPE_FP64, (r.id + n - 1) % n}};
    ASSERT_EQ(HcclBatchSendRecv(items, 2, r.comm, r.stream), HCCL_SUCCESS);
    ASSERT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);
    auto v = to_host<double>(ring, count);
    const std::uint32_t prev = (r.id + n - 1) % n;
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(v[i], 1000.0 * prev + i + 0.25);
    for (void* x : {buf, got, ring}) aclrtFree(x);
  });
}

// A receive of another size than the send fails on the receiver's stream (nothing copied); the
// sender's stream goes on.
TEST_F(HcclTest, SendRecvSizeMismatchFailsTheReceive) {
  std::vector<void*> buf(2);
  const auto sync = run_ranks_sync(
      2,
      [&](Rank& r) {
        buf[r.id] = to_device(std::vector<int32_t>(16, r.id == 0 ? 7 : 9));
        if (r.id == 0) {
          ASSERT_EQ(HcclSend(buf[0], 16, HCCL_DATA_TYPE_INT32, 1, r.comm, r.stream), HCCL_SUCCESS);
        } else {
          ASSERT_EQ(HcclRecv(buf[1], 8, HCCL_DATA_TYPE_INT32, 0, r.comm, r.stream), HCCL_SUCCESS);
        }
      },
      [&](Rank& r) {
        if (r.id == 1) {
          EXPECT_EQ(to_host<int32_t>(buf[1], 16), std::vector<int32_t>(16, 9));  // untouched
        }
        aclrtFree(buf[r.id]);
      });
  EXPECT_EQ(sync[0], ACL_SUCCESS);
  EXPECT_EQ(sync[1], ACL_ERROR_RT_DEVICE_MEM_ERROR);
}

// AlltoAllV whose receive count differs from the peer's send count fails the receiving rank.
TEST_F(HcclTest, AlltoAllVCountMismatchFailsTheReceiver) {
  std::vector<void*> in(2), out(2);
  const auto sync = run_ranks_sync(
      2,
      [&](Rank& r) {
        in[r.id] = to_device(std::vector<int32_t>(4, static_cast<int32_t>(r.id)));
        out[r.id] = to_device(std::vector<int32_t>(4, -1));
        std::vector<uint64_t> sc = {1, 1}, sd = {0, 1}, rc = {1, 1}, rd = {0, 1};
        if (r.id == 1) rc[0] = 2;  // rank 0 sends 1 element to rank 1, which expects 2
        ASSERT_EQ(HcclAlltoAllV(in[r.id], sc.data(), sd.data(), HCCL_DATA_TYPE_INT32, out[r.id],
                                rc.data(), rd.data(), HCCL_DATA_TYPE_INT32, r.comm, r.stream),
                  HCCL_SUCCESS);
      },
      [&](Rank& r) {
        aclrtFree(in[r.id]);
        aclrtFree(out[r.id]);
      });
  EXPECT_EQ(sync[0], ACL_SUCCESS);
  EXPECT_EQ(sync[1], ACL_ERROR_RT_DEVICE_MEM_ERROR);
}

// A rank that is late (a long copy queued before the collective) holds every rank's AllReduce:
// the ranks wait for each other on the device, in simulated time.
TEST_F(HcclTest, RanksWaitOnTheDeviceForAStraggler) {
  std::vector<SimTime> done(3);
  std::vector<SimTime> submitted(3);
  run_ranks(3, [&](Rank& r) {
    const std::size_t count = 256;
    void* send = to_device(std::vector<float>(count, 1.0f));
    void* recv = to_device(std::vector<float>(count));
    void* big = nullptr;
    if (r.id == 2) {  // 64 MiB D2D copy first: 1 us + 64 MiB / 10 GB/s on the fake chip
      ASSERT_EQ(aclrtMalloc(&big, 128u << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpyAsync(big, 64u << 20, static_cast<char*>(big) + (64u << 20), 64u << 20,
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, r.stream),
                ACL_SUCCESS);
    }
    submitted[r.id] = host_clock();
    ASSERT_EQ(
        HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
        HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);
    done[r.id] = host_clock();
    auto out = to_host<float>(recv, count);
    EXPECT_EQ(out[0], 3.0f);
    aclrtFree(send);
    aclrtFree(recv);
    if (big != nullptr) aclrtFree(big);
  });
  // 64 MiB at 10000 B/us = 6710.9 us: no rank finishes its AllReduce before the straggler's copy.
  const SimTime copy_end = submitted[2] + 6710 * sim::kUs;
  for (std::uint32_t r = 0; r < 3; ++r) EXPECT_GT(done[r], copy_end) << "rank " << r;
}

}  // namespace
}  // namespace npusim::rt::testing::hccl_test
