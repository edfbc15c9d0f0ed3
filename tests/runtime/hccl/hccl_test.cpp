// SPDX-License-Identifier: Apache-2.0
// npusim's HCCL against FakeBackend: AllReduce with 2..8 ranks (one host thread per rank, as
// the CANN examples run them), results bit for bit (fp32 sums in the documented order, integers
// exact), both algorithms (mesh and ring), every reduction op and type, and the tasks a mesh
// AllReduce queues. The other collectives: hccl_collectives_test.cpp; the rendezvous and the
// error codes: hccl_errors_test.cpp.
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

}  // namespace
}  // namespace npusim::rt::testing::hccl_test
