// SPDX-License-Identifier: Apache-2.0
// An 8-chip AllReduce with HCCL: one host thread per device, one rank per device.
//
// The main thread makes the communicator's root info (HcclGetRootInfo) and starts 8 threads.
// Each thread selects its device, joins the communicator (HcclCommInitRootInfo blocks until all
// 8 ranks have joined), fills a buffer with values that depend on its rank, and sums the buffers
// of all ranks in place (HcclAllReduce, SUM). Every rank then checks that it holds the sums, and
// times its AllReduce with events. On the default preset the 8 chips of an Atlas 800T A2-like
// server are joined by HCCS links; the collective's copies and reductions are tasks on each
// rank's streams, so the times below are simulated device time, identical on every run.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "acl_check.h"  // CHECK(call): stop with the code and the runtime's message

#define HCCL_CHECK(call)                                                          \
  do {                                                                            \
    const HcclResult rc_ = (call);                                                \
    if (rc_ != HCCL_SUCCESS) {                                                    \
      std::fprintf(stderr, "%s failed: %s\n", #call, HcclGetErrorString(rc_));    \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

namespace {

constexpr uint32_t kRanks = 8;
constexpr size_t kCount = 64 * 1024;  // floats per rank (256 KiB)

struct RankResult {
  size_t wrong = 0;
  float ms = 0;
};

// Rank r contributes r + (i % 5) at element i: the sum over ranks is 28 + 8 * (i % 5).
float contribution(uint32_t rank, size_t i) { return static_cast<float>(rank + i % 5); }
float expected_sum(size_t i) { return static_cast<float>(28 + 8 * (i % 5)); }

void rank_main(uint32_t rank, const HcclRootInfo* root, RankResult* out) {
  CHECK(aclrtSetDevice(static_cast<int32_t>(rank)));  // this thread now works on device `rank`
  HcclComm comm = nullptr;
  HCCL_CHECK(HcclCommInitRootInfo(kRanks, root, rank, &comm));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  std::vector<float> host(kCount);
  for (size_t i = 0; i < kCount; ++i) host[i] = contribution(rank, i);
  const size_t bytes = kCount * sizeof(float);
  void* buf = nullptr;
  CHECK(aclrtMalloc(&buf, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(buf, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclrtEvent start = nullptr, end = nullptr;
  CHECK(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
  CHECK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
  CHECK(aclrtRecordEvent(start, stream));
  HCCL_CHECK(HcclAllReduce(buf, buf, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtEventElapsedTime(&out->ms, start, end));

  CHECK(aclrtMemcpy(host.data(), bytes, buf, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < kCount; ++i)
    if (host[i] != expected_sum(i)) ++out->wrong;

  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  CHECK(aclrtFree(buf));
  CHECK(aclrtDestroyStream(stream));
  HCCL_CHECK(HcclCommDestroy(comm));
  CHECK(aclrtResetDevice(static_cast<int32_t>(rank)));
}

}  // namespace

int main() {
  CHECK(aclInit(nullptr));
  uint32_t devices = 0;
  CHECK(aclrtGetDeviceCount(&devices));
  if (devices < kRanks) {
    std::fprintf(stderr, "needs %u devices, the chip configuration has %u\n", kRanks, devices);
    return 1;
  }
  HcclRootInfo root;
  CHECK(aclrtSetDevice(0));  // the root info is made on rank 0's device
  HCCL_CHECK(HcclGetRootInfo(&root));

  std::vector<RankResult> results(kRanks);
  std::vector<std::thread> threads;
  for (uint32_t r = 0; r < kRanks; ++r) threads.emplace_back(rank_main, r, &root, &results[r]);
  for (std::thread& t : threads) t.join();

  // Printed after the join, in rank order (the threads finish in any wall-clock order).
  bool ok = true;
  for (uint32_t r = 0; r < kRanks; ++r) {
    std::printf("rank %u: %zu floats, %zu wrong, AllReduce %.3f ms simulated\n", r, kCount,
                results[r].wrong, results[r].ms);
    ok = ok && results[r].wrong == 0;
  }
  std::printf("AllReduce over %u chips: %s\n", kRanks, ok ? "every rank holds the sums" : "FAILED");
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return ok ? 0 : 1;
}
