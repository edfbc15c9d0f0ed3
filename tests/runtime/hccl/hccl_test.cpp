// SPDX-License-Identifier: Apache-2.0
// npusim's HCCL against FakeBackend: every collective with 2..8 ranks (one host thread per rank,
// as the CANN examples run them), results bit for bit (fp32 sums in the documented order,
// integers exact), both AllReduce algorithms, point to point, the rendezvous (and a rank that
// never comes), ranks waiting for each other on the device, and the error codes.
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
#include "tests/runtime/hccl/hccl_support.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

constexpr std::uint32_t kDevices = 8;

// A value of rank r, element i that makes fp32 sums depend on their order.
float value(std::uint32_t r, std::size_t i) {
  return static_cast<float>(std::sin(0.37 * static_cast<double>(i) + 1.3 * r) *
                            std::pow(10.0, static_cast<int>((i + r) % 7) - 3));
}

std::uint32_t bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

class HcclTest : public AclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.soc.num_devices = kDevices;
    config.hccl.ring_threshold.value = ring_threshold_;
  }
  void TearDown() override {
    set_hang_timeout(30);
    AclTest::TearDown();
  }

  // Runs `body` on n ranks (run_ranks_sync); every rank's stream must synchronise.
  void run_ranks(std::uint32_t n, const RankBody& body) {
    for (aclError e : run_ranks_sync(n, body)) EXPECT_EQ(e, ACL_SUCCESS);
  }

  std::uint64_t ring_threshold_ = 1 << 20;
};

// Mesh order: ((x0 + x1) + x2) + ... in rank order.
float mesh_sum(std::uint32_t n, std::size_t i) {
  float acc = value(0, i);
  for (std::uint32_t r = 1; r < n; ++r) acc += value(r, i);
  return acc;
}

// Ring order: chunk c (elements [c*count/n, (c+1)*count/n), balanced) starts at rank c.
float ring_sum(std::uint32_t n, std::size_t count, std::size_t i) {
  std::uint32_t chunk = 0;
  for (std::uint32_t c = 0; c < n; ++c) {
    const std::size_t begin = c * (count / n) + std::min<std::size_t>(c, count % n);
    if (i >= begin) chunk = c;
  }
  float acc = value(chunk, i);
  for (std::uint32_t k = 1; k < n; ++k) acc += value((chunk + k) % n, i);
  return acc;
}

void all_reduce_fp32(HcclTest& t, std::uint32_t n, std::size_t count, bool in_place,
                     const std::function<float(std::uint32_t, std::size_t)>& want,
                     const std::function<void(const std::function<void(Rank&)>&)>& run) {
  (void)t;
  run([&](Rank& r) {
    std::vector<float> in(count);
    for (std::size_t i = 0; i < count; ++i) in[i] = value(r.id, i);
    void* send = to_device(in);
    void* recv = in_place ? send : to_device(std::vector<float>(count, -1.0f));
    ASSERT_EQ(
        HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
        HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);
    std::vector<float> out = to_host<float>(recv, count);
    for (std::size_t i = 0; i < count; ++i) {
      ASSERT_EQ(bits(out[i]), bits(want(n, i))) << "rank " << r.id << " element " << i;
    }
    aclrtFree(send);
    if (!in_place) aclrtFree(recv);
  });
}

TEST_F(HcclTest, AllReduceMeshSumsInRankOrderForTwoToEightRanks) {
  for (std::uint32_t n = 2; n <= kDevices; ++n) {
    all_reduce_fp32(*this, n, 1000, false, mesh_sum,
                    [&](const std::function<void(Rank&)>& body) { run_ranks(n, body); });
  }
}

TEST_F(HcclTest, AllReduceInPlace) {
  all_reduce_fp32(*this, 4, 333, true, mesh_sum,
                  [&](const std::function<void(Rank&)>& body) { run_ranks(4, body); });
}

class HcclRingTest : public HcclTest {
 protected:
  HcclRingTest() { ring_threshold_ = 0; }  // every AllReduce runs the ring
};

TEST_F(HcclRingTest, AllReduceRingSumsEachChunkAlongTheRing) {
  for (std::uint32_t n : {2u, 3u, 5u, 8u}) {
    const std::size_t count = 1003;  // chunks of different sizes
    all_reduce_fp32(
        *this, n, count, false,
        [&](std::uint32_t ranks, std::size_t i) { return ring_sum(ranks, count, i); },
        [&](const std::function<void(Rank&)>& body) { run_ranks(n, body); });
  }
}

TEST_F(HcclRingTest, AllReduceRingInPlaceAndFewerElementsThanRanks) {
  all_reduce_fp32(
      *this, 8, 5, true, [&](std::uint32_t ranks, std::size_t i) { return ring_sum(ranks, 5, i); },
      [&](const std::function<void(Rank&)>& body) { run_ranks(8, body); });
  all_reduce_fp32(
      *this, 6, 4096, true,
      [&](std::uint32_t ranks, std::size_t i) { return ring_sum(ranks, 4096, i); },
      [&](const std::function<void(Rank&)>& body) { run_ranks(6, body); });
}

TEST_F(HcclTest, AllReduceIntegersAreExactForEveryOp) {
  run_ranks(5, [](Rank& r) {
    const std::size_t count = 64;
    std::vector<int32_t> in(count);
    for (std::size_t i = 0; i < count; ++i) {
      in[i] = static_cast<int32_t>((i * 7919 + r.id * 104729) % 2001) - 1000 +
              (i == 3 ? INT32_MAX / 2 : 0);  // element 3 wraps when summed
    }
    void* send = to_device(in);
    void* sum = to_device(std::vector<int32_t>(count));
    void* max = to_device(std::vector<int32_t>(count));
    void* min = to_device(std::vector<int32_t>(count));
    ASSERT_EQ(
        HcclAllReduce(send, sum, count, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, r.comm, r.stream),
        HCCL_SUCCESS);
    ASSERT_EQ(
        HcclAllReduce(send, max, count, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MAX, r.comm, r.stream),
        HCCL_SUCCESS);
    ASSERT_EQ(
        HcclAllReduce(send, min, count, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MIN, r.comm, r.stream),
        HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);
    auto s = to_host<int32_t>(sum, count), mx = to_host<int32_t>(max, count),
         mn = to_host<int32_t>(min, count);
    for (std::size_t i = 0; i < count; ++i) {
      uint32_t want_sum = 0;
      int32_t want_max = INT32_MIN, want_min = INT32_MAX;
      for (std::uint32_t k = 0; k < r.n; ++k) {
        const int32_t v = static_cast<int32_t>((i * 7919 + k * 104729) % 2001) - 1000 +
                          (i == 3 ? INT32_MAX / 2 : 0);
        want_sum += static_cast<uint32_t>(v);
        want_max = std::max(want_max, v);
        want_min = std::min(want_min, v);
      }
      ASSERT_EQ(s[i], static_cast<int32_t>(want_sum)) << i;
      ASSERT_EQ(mx[i], want_max) << i;
      ASSERT_EQ(mn[i], want_min) << i;
    }
    aclrtFree(send);
    aclrtFree(sum);
    aclrtFree(max);
    aclrtFree(min);
  });
}

// A rank that cannot create its helper streams fails the collective before queuing anything;
// the ranks stay in step (later barriers match up).
class HcclFewStreamsTest : public HcclTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming& timing) override {
    HcclTest::configure(config, timing);
    config.scheduler.max_streams = 3;  // default stream, the rank's stream, one helper
  }
};

TEST_F(HcclFewStreamsTest, NoHelperStreamFailsTheCallCleanly) {
  run_ranks(3, [](Rank& r) {
    void* buf = to_device(std::vector<float>(4, static_cast<float>(r.id)));
    EXPECT_EQ(HcclAllGather(buf, buf, 1, HCCL_DATA_TYPE_FP32, r.comm, r.stream), HCCL_E_RUNTIME);
    EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);  // no helper needed
    EXPECT_EQ(HcclBarrier(r.comm, r.stream), HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);  // in step: the barriers match
    EXPECT_EQ(to_host<float>(buf, 4), std::vector<float>(4, static_cast<float>(r.id)));
    aclrtFree(buf);
  });
}

// PROD (integers wrap, fp16 rounded to nearest even per step, in rank order) and fp64.
TEST_F(HcclTest, AllReduceProdAndFp64) {
  run_ranks(3, [](Rank& r) {
    std::vector<int8_t> i8 = {static_cast<int8_t>(r.id + 2), -3, 100};
    std::vector<uint16_t> h(2);
    const float hv[3] = {1.5f, -2.25f, 0.333f};
    h[0] = ascendc::Fp16Format::from_float(hv[r.id]);
    h[1] = ascendc::Fp16Format::from_float(1000.0f);  // 1e9 overflows fp16: inf
    std::vector<double> f64 = {0.1 * (r.id + 1), -1e300, static_cast<double>(r.id)};
    void* a = to_device(i8);
    void* b = to_device(h);
    void* c = to_device(f64);
    void* d = to_device(f64);
    ASSERT_EQ(HcclAllReduce(a, a, 3, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_PROD, r.comm, r.stream),
              HCCL_SUCCESS);
    ASSERT_EQ(HcclAllReduce(b, b, 2, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_PROD, r.comm, r.stream),
              HCCL_SUCCESS);
    ASSERT_EQ(HcclAllReduce(c, c, 3, HCCL_DATA_TYPE_FP64, HCCL_REDUCE_SUM, r.comm, r.stream),
              HCCL_SUCCESS);
    ASSERT_EQ(HcclAllReduce(d, d, 3, HCCL_DATA_TYPE_FP64, HCCL_REDUCE_MIN, r.comm, r.stream),
              HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);
    EXPECT_EQ(to_host<int8_t>(a, 3), (std::vector<int8_t>{24, -27, static_cast<int8_t>(64)}));
    auto hp = to_host<uint16_t>(b, 2);
    using F = ascendc::Fp16Format;
    const uint16_t want0 =
        F::from_float(F::to_float(F::from_float(F::to_float(F::from_float(1.5f)) *
                                                F::to_float(F::from_float(-2.25f)))) *
                      F::to_float(F::from_float(0.333f)));
    EXPECT_EQ(hp[0], want0);
    EXPECT_EQ(hp[1], 0x7C00);  // +inf
    auto sum = to_host<double>(c, 3);
    EXPECT_EQ(sum[0], (0.1 * 1 + 0.1 * 2) + 0.1 * 3);
    EXPECT_EQ(sum[1], -3e300);
    EXPECT_EQ(sum[2], 3.0);
    auto mn = to_host<double>(d, 3);
    EXPECT_EQ(mn[0], 0.1);
    EXPECT_EQ(mn[2], 0.0);
    for (void* x : {a, b, c, d}) aclrtFree(x);
  });
}

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

TEST_F(HcclTest, MeshAllReduceIsCopiesReducesAndNotifyTasks) {
  run_ranks(2, [](Rank& r) {
    void* send = to_device(std::vector<float>(8, 1.0f));
    void* recv = to_device(std::vector<float>(8));
    ASSERT_EQ(HcclAllReduce(send, recv, 8, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, r.comm, r.stream),
              HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(r.stream), ACL_SUCCESS);
    aclrtFree(send);
    aclrtFree(recv);
  });
  int peer_copies = 0, reduces = 0, waits = 0;
  for (const auto& t : fake().tasks()) {
    if (t.name == "HcclAllReduce mesh Memcpy" && t.kind == TaskKind::kCopy) ++peer_copies;
    if (t.name == "HcclAllReduce mesh Reduce" && t.kind == TaskKind::kReduce) ++reduces;
    if (t.name == "HcclAllReduce mesh Notify Wait" && t.kind == TaskKind::kValueWait) ++waits;
  }
  EXPECT_EQ(peer_copies, 2 * 3);  // per rank: the peer's input, its own, the result
  EXPECT_EQ(reduces, 2);          // per rank: one reduction of the two inputs
  EXPECT_EQ(waits, 2 * 4);        // per rank: two handshakes, the helper's fork, the join
}

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
}  // namespace npusim::rt::testing
