// SPDX-License-Identifier: Apache-2.0
// HCCL on the simulated 910B server (SystemC backend), two host threads:
//  1. HcclBroadcast of 64 MiB from rank 0 to rank 1: the non-root rank pulls the buffer over one
//     HCCS link, so its copy takes topology.hccs_latency + 64 MiB / topology.hccs_bandwidth
//     = 1.5 us + 1198.3726 us on the default preset (e2e.sh checks that span in the timeline to
//     the ns); the whole collective, seen from rank 1's events, adds the handshakes and the other
//     thread's host lag: at most 5% more;
//  2. an 8-rank AllReduce (ring, 64 MiB per rank) gives every rank the exact sums;
//  3. a rank whose stream runs long copies first (a straggler) holds everyone's AllReduce: every
//     rank's AllReduce ends (device timestamp) after the straggler's copies;
//  4. link contention: two 64 MiB broadcasts 0 -> 1 of two communicators (HcclCommInitAll, one
//     host thread) at once share the 0->1 HCCS link burst by burst: each takes about twice as
//     long (1.5 us + 2 x 1198.4 us, within 2%).
// Run on the default preset with NPUSIM_SET soc.num_devices=8.
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "e2e_common.h"
#include "hccl/hccl.h"


namespace {

HcclRootInfo g_root2;
HcclRootInfo g_root8;
float g_bcast_ms = 0;
std::vector<float> g_allreduce_ms(8, 0);
float g_straggler_copy_ms = 0;
std::vector<uint64_t> g_end_ts(8, 0);  // device timestamp after each rank's AllReduce
uint64_t g_straggler_copy_end_ts = 0;

// A rank of a communicator: its device made current, joined, a stream and a buffer.
struct Rank {
  HcclComm comm = nullptr;
  aclrtStream s = nullptr;
  void* buf = nullptr;

  Rank(uint32_t rank, uint32_t ranks, const HcclRootInfo* root, size_t bytes) {
    E2E_CHECK(aclrtSetDevice(static_cast<int32_t>(rank)));
    E2E_CHECK(HcclCommInitRootInfo(ranks, root, rank, &comm));
    E2E_CHECK(aclrtCreateStream(&s));
    buf = e2e_malloc(bytes);
  }
  void leave() {
    E2E_CHECK(HcclCommDestroy(comm));
    e2e_free({buf});
    E2E_CHECK(aclrtDestroyStream(s));
  }
};

void broadcast_rank(uint32_t rank) {
  constexpr size_t kBytes = 64u << 20;
  Rank r(rank, 2, &g_root2, kBytes);
  const HcclComm comm = r.comm;
  const aclrtStream s = r.s;
  void* const buf = r.buf;
  E2E_CHECK(aclrtMemset(buf, kBytes, rank == 0 ? 0x5A : 0, kBytes));
  E2E_CHECK(HcclBarrier(comm, s));
  E2E_CHECK(aclrtSynchronizeStream(s));
  aclrtEvent e0, e1;
  e2e_create_events({&e0, &e1});
  E2E_CHECK(aclrtRecordEvent(e0, s));
  E2E_CHECK(HcclBroadcast(buf, kBytes, HCCL_DATA_TYPE_UINT8, 0, comm, s));
  E2E_CHECK(aclrtRecordEvent(e1, s));
  E2E_CHECK(aclrtSynchronizeStream(s));
  if (rank == 1) {
    g_bcast_ms = e2e_elapsed_ms(e0, e1);
    std::vector<unsigned char> host(kBytes);
    E2E_CHECK(aclrtMemcpy(host.data(), kBytes, buf, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < kBytes; i += 4099) E2E_EXPECT(host[i] == 0x5A);
  }
  e2e_destroy_events({e0, e1});
  r.leave();
}

void allreduce_rank(uint32_t rank) {
  constexpr size_t kCount = 16u << 20;  // 64 MiB of fp32
  Rank r(rank, 8, &g_root8, kCount * 4);
  const HcclComm comm = r.comm;
  const aclrtStream s = r.s;
  void* const buf = r.buf;
  std::vector<float> host(kCount);
  for (size_t i = 0; i < kCount; ++i) host[i] = static_cast<float>((i % 1000) + rank);
  E2E_CHECK(aclrtMemcpy(buf, kCount * 4, host.data(), kCount * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  void* big = nullptr;
  aclrtEvent c0 = nullptr, c1 = nullptr;
  if (rank == 5) {  // the straggler: 256 MiB D2D copy queued before the collective
    big = e2e_malloc(512u << 20);
    e2e_create_events({&c0, &c1});
  }
  E2E_CHECK(HcclBarrier(comm, s));
  E2E_CHECK(aclrtSynchronizeStream(s));
  aclrtEvent e0, e1;
  e2e_create_events({&e0, &e1});
  g_allreduce_ms[rank] = e2e_timed_ms(s, e0, e1, [&] {
    if (rank == 5) {  // 20 copies of 256 MiB: ~6.8 ms of HBM traffic before its AllReduce
      E2E_CHECK(aclrtRecordEvent(c0, s));
      for (int i = 0; i < 20; ++i) {
        E2E_CHECK(aclrtMemcpyAsync(big, 256u << 20, static_cast<char*>(big) + (256u << 20),
                                   256u << 20, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
      }
      E2E_CHECK(aclrtRecordEvent(c1, s));
    }
    E2E_CHECK(HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
  });
  E2E_CHECK(aclrtEventGetTimestamp(e1, &g_end_ts[rank]));
  if (rank == 5) {
    g_straggler_copy_ms = e2e_elapsed_ms(c0, c1);
    E2E_CHECK(aclrtEventGetTimestamp(c1, &g_straggler_copy_end_ts));
  }
  E2E_CHECK(aclrtMemcpy(host.data(), kCount * 4, buf, kCount * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < kCount; ++i) {
    const float want = static_cast<float>(8 * (i % 1000) + 28);  // sum of ranks 0..7 = 28
    if (host[i] != want) {
      std::fprintf(stderr, "FAIL rank %u element %zu: %f, want %f\n", rank, i, host[i], want);
      std::exit(1);
    }
  }
  e2e_destroy_events({e0, e1});
  if (rank == 5) {
    e2e_destroy_events({c0, c1});
    e2e_free({big});
  }
  r.leave();
}

}  // namespace

int main() {
  E2E_CHECK(aclInit(nullptr));
  uint32_t devices = 0;
  E2E_CHECK(aclrtGetDeviceCount(&devices));
  E2E_EXPECT(devices >= 8);
  E2E_CHECK(aclrtSetDevice(0));
  E2E_CHECK(HcclGetRootInfo(&g_root2));
  E2E_CHECK(HcclGetRootInfo(&g_root8));
  {
    std::thread a(broadcast_rank, 0), b(broadcast_rank, 1);
    a.join();
    b.join();
  }
  const double want_ms = 1.5e-3 + (64u << 20) / 56e9 * 1e3;
  std::printf("HcclBroadcast 64 MiB, 2 ranks: %.4f ms (model %.4f ms)\n", g_bcast_ms, want_ms);
  E2E_EXPECT(g_bcast_ms >= want_ms && g_bcast_ms <= want_ms * 1.05);

  std::vector<std::thread> ranks;
  for (uint32_t r = 0; r < 8; ++r) ranks.emplace_back(allreduce_rank, r);
  for (auto& t : ranks) t.join();
  for (uint32_t r = 0; r < 8; ++r) {
    std::printf(
        "rank %u: AllReduce 64 MiB ends at %llu us, rank 5's %.4f ms of copies at %llu us\n", r,
        static_cast<unsigned long long>(g_end_ts[r]), g_straggler_copy_ms,
        static_cast<unsigned long long>(g_straggler_copy_end_ts));
    E2E_EXPECT(g_end_ts[r] > g_straggler_copy_end_ts);  // everyone waited for rank 5
  }

  // Link contention: two communicators over devices 0 and 1, from this thread.
  {
    constexpr size_t kBytes = 64u << 20;
    int32_t devs[2] = {0, 1};
    HcclComm a[2], b[2];
    E2E_CHECK(HcclCommInitAll(2, devs, a));
    E2E_CHECK(HcclCommInitAll(2, devs, b));
    aclrtStream sa[2], sb[2];
    void* ba[2];
    void* bb[2];
    aclrtEvent start[2], end_a[2], end_b[2];
    for (int d = 0; d < 2; ++d) {
      E2E_CHECK(aclrtSetDevice(d));
      E2E_CHECK(aclrtCreateStream(&sa[d]));
      E2E_CHECK(aclrtCreateStream(&sb[d]));
      E2E_CHECK(aclrtMalloc(&ba[d], kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
      E2E_CHECK(aclrtMalloc(&bb[d], kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
      e2e_create_events({&start[d], &end_a[d], &end_b[d]});
    }
    for (int d = 0; d < 2; ++d) {
      E2E_CHECK(aclrtSetDevice(d));
      E2E_CHECK(aclrtRecordEvent(start[d], sa[d]));
      E2E_CHECK(HcclBroadcast(ba[d], kBytes, HCCL_DATA_TYPE_UINT8, 0, a[d], sa[d]));
      E2E_CHECK(HcclBroadcast(bb[d], kBytes, HCCL_DATA_TYPE_UINT8, 0, b[d], sb[d]));
      E2E_CHECK(aclrtRecordEvent(end_a[d], sa[d]));
      E2E_CHECK(aclrtRecordEvent(end_b[d], sb[d]));
    }
    E2E_CHECK(aclrtSetDevice(1));
    E2E_CHECK(aclrtSynchronizeStream(sa[1]));
    E2E_CHECK(aclrtSynchronizeStream(sb[1]));
    const float ta = e2e_elapsed_ms(start[1], end_a[1]);
    const float tb = e2e_elapsed_ms(start[1], end_b[1]);
    const double shared_ms = 1.5e-3 + 2 * (64u << 20) / 56e9 * 1e3;
    std::printf(
        "two concurrent 64 MiB broadcasts over one link: %.4f ms and %.4f ms (model %.4f)\n", ta,
        tb, shared_ms);
    E2E_EXPECT(e2e_near(ta, shared_ms, 0.02));
    E2E_EXPECT(e2e_near(tb, shared_ms, 0.02));
    for (int d = 0; d < 2; ++d) {
      E2E_CHECK(aclrtSetDevice(d));
      E2E_CHECK(aclrtSynchronizeStream(sa[d]));
      E2E_CHECK(aclrtSynchronizeStream(sb[d]));
      E2E_CHECK(HcclCommDestroy(a[d]));
      E2E_CHECK(HcclCommDestroy(b[d]));
      e2e_destroy_events({start[d], end_a[d], end_b[d]});
      e2e_free({ba[d], bb[d]});
      E2E_CHECK(aclrtDestroyStream(sa[d]));
      E2E_CHECK(aclrtDestroyStream(sb[d]));
    }
  }
  E2E_CHECK(aclrtResetDevice(1));
  E2E_CHECK(aclrtSetDevice(0));
  return e2e_pass(0, "hccl_timing");
}
