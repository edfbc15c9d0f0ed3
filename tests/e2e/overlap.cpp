// SPDX-License-Identifier: Apache-2.0
// Streams run in parallel: an H2D copy on one stream and a D2H copy on another overlap (the
// PCIe link is full duplex), so both finish in about the time of one; two H2D copies on two
// streams share the link and take about twice as long; one stream is FIFO.
// Run with NPUSIM_CONFIG=tiny.
#include "e2e_common.h"

namespace {
constexpr size_t kBytes = 16u << 20;

struct Pair {
  aclrtStream a, b;
  aclrtEvent start, end_a, end_b;
};

double run(Pair& p, void* dst_a, const void* src_a, aclrtMemcpyKind ka, void* dst_b,
           const void* src_b, aclrtMemcpyKind kb) {
  E2E_CHECK(aclrtRecordEvent(p.start, p.a));
  E2E_CHECK(aclrtStreamWaitEvent(p.b, p.start));
  E2E_CHECK(aclrtMemcpyAsync(dst_a, kBytes, src_a, kBytes, ka, p.a));
  E2E_CHECK(aclrtMemcpyAsync(dst_b, kBytes, src_b, kBytes, kb, p.b));
  E2E_CHECK(aclrtRecordEvent(p.end_a, p.a));
  E2E_CHECK(aclrtRecordEvent(p.end_b, p.b));
  E2E_CHECK(aclrtSynchronizeDevice());
  float ea = e2e_elapsed_ms(p.start, p.end_a), eb = e2e_elapsed_ms(p.start, p.end_b);
  return ea > eb ? ea : eb;
}
}  // namespace

int main() {
  E2E_CHECK(aclInit(nullptr));
  E2E_CHECK(aclrtSetDevice(0));
  void *h1, *h2, *d1, *d2;
  E2E_CHECK(aclrtMallocHost(&h1, kBytes));
  E2E_CHECK(aclrtMallocHost(&h2, kBytes));
  E2E_CHECK(aclrtMalloc(&d1, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  E2E_CHECK(aclrtMalloc(&d2, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  Pair p{};
  E2E_CHECK(aclrtCreateStream(&p.a));
  E2E_CHECK(aclrtCreateStream(&p.b));
  E2E_CHECK(aclrtCreateEventWithFlag(&p.start, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
  E2E_CHECK(aclrtCreateEventWithFlag(&p.end_a, ACL_EVENT_TIME_LINE));
  E2E_CHECK(aclrtCreateEventWithFlag(&p.end_b, ACL_EVENT_TIME_LINE));

  const double one_ms = kBytes / 10e9 * 1e3;  // one 16 MiB copy at 10 GB/s
  double both_dirs = run(p, d1, h1, ACL_MEMCPY_HOST_TO_DEVICE, h2, d2, ACL_MEMCPY_DEVICE_TO_HOST);
  double same_dir = run(p, d1, h1, ACL_MEMCPY_HOST_TO_DEVICE, d2, h2, ACL_MEMCPY_HOST_TO_DEVICE);
  std::printf("one copy %.3f ms; H2D||D2H %.3f ms; H2D||H2D %.3f ms\n", one_ms, both_dirs, same_dir);
  E2E_EXPECT(e2e_near(both_dirs, one_ms, 0.05));
  E2E_EXPECT(e2e_near(same_dir, 2 * one_ms, 0.05));

  // FIFO within a stream: the second copy overwrites the first.
  aclrtStream s = p.a;
  E2E_CHECK(aclrtMemsetAsync(d1, kBytes, 1, kBytes, s));
  E2E_CHECK(aclrtMemsetAsync(d1, kBytes, 2, kBytes, s));
  E2E_CHECK(aclrtMemcpyAsync(h1, kBytes, d1, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s));
  E2E_CHECK(aclrtSynchronizeStream(s));
  E2E_EXPECT(static_cast<unsigned char*>(h1)[kBytes - 1] == 2);

  E2E_CHECK(aclrtDestroyStream(p.a));
  E2E_CHECK(aclrtDestroyStream(p.b));
  E2E_CHECK(aclrtResetDeviceForce(0));
  E2E_CHECK(aclFinalize());
  std::printf("PASS overlap\n");
  return 0;
}
