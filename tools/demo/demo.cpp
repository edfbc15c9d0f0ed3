// SPDX-License-Identifier: Apache-2.0
// npusim demo: an ordinary CANN host program (it builds against any CANN install tree).
// Two streams move data both ways over PCIe at once, a device-to-device copy runs on the SDMA
// engine, a cross-stream event orders them, and events time each phase in simulated time.
// Run it under npusim:  npusim run --out demo-out -- ./demo
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"

#define CHECK(call)                                                                  \
  do {                                                                               \
    aclError err_ = (call);                                                          \
    if (err_ != ACL_SUCCESS) {                                                       \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, err_); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

namespace {

constexpr size_t kBytes = 64u << 20;  // 64 MiB each way

float elapsed_ms(aclrtEvent from, aclrtEvent to) {
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, from, to));
  return ms;
}

void report(const char* what, float ms, size_t bytes) {
  double gbps = ms > 0 ? static_cast<double>(bytes) / (ms * 1e-3) / 1e9 : 0;
  std::printf("  %-34s %9.3f ms  %7.2f GB/s\n", what, ms, gbps);
}

}  // namespace

int main() {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  std::printf("npusim demo on %s\n", aclrtGetSocName());

  void *host_in = nullptr, *host_out = nullptr, *host_back = nullptr;
  CHECK(aclrtMallocHost(&host_in, kBytes));
  CHECK(aclrtMallocHost(&host_out, kBytes));
  CHECK(aclrtMallocHost(&host_back, kBytes));
  auto* in = static_cast<unsigned char*>(host_in);
  for (size_t i = 0; i < kBytes; ++i) in[i] = static_cast<unsigned char>(i * 7 + 3);
  std::memset(host_out, 0, kBytes);

  void *dev_a = nullptr, *dev_b = nullptr, *dev_c = nullptr;
  CHECK(aclrtMalloc(&dev_a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dev_b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dev_c, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemset(dev_c, kBytes, 0x5a, kBytes));

  aclrtStream up = nullptr, down = nullptr;
  CHECK(aclrtCreateStreamWithConfig(&up, 0, 0));
  CHECK(aclrtCreateStreamWithConfig(&down, 3, 0));
  aclrtEvent ev[6];
  for (auto& e : ev) CHECK(aclrtCreateEventWithFlag(&e, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC));

  // Stream "up": H2D, then D2D on the SDMA engine.
  CHECK(aclrtRecordEvent(ev[0], up));
  CHECK(aclrtMemcpyAsync(dev_a, kBytes, host_in, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, up));
  CHECK(aclrtRecordEvent(ev[1], up));
  CHECK(aclrtMemcpyAsync(dev_b, kBytes, dev_a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, up));
  CHECK(aclrtRecordEvent(ev[2], up));
  // Stream "down": a D2H that overlaps the H2D (the link is full duplex) ...
  CHECK(aclrtRecordEvent(ev[3], down));
  CHECK(aclrtMemcpyAsync(host_out, kBytes, dev_c, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, down));
  CHECK(aclrtRecordEvent(ev[4], down));
  // ... then waits for stream "up" and copies the result back.
  CHECK(aclrtStreamWaitEvent(down, ev[2]));
  CHECK(aclrtMemcpyAsync(host_back, kBytes, dev_b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, down));
  CHECK(aclrtRecordEvent(ev[5], down));
  CHECK(aclrtSynchronizeStream(down));

  bool ok = std::memcmp(host_back, host_in, kBytes) == 0;
  const auto* out = static_cast<const unsigned char*>(host_out);
  for (size_t i = 0; ok && i < kBytes; i += 4096) ok = out[i] == 0x5a;

  std::printf("simulated times (64 MiB each):\n");
  report("H2D on stream up", elapsed_ms(ev[0], ev[1]), kBytes);
  report("D2D (SDMA) on stream up", elapsed_ms(ev[1], ev[2]), kBytes);
  report("D2H on stream down, overlapping", elapsed_ms(ev[3], ev[4]), kBytes);
  report("D2H after the cross-stream wait", elapsed_ms(ev[2], ev[5]), kBytes);
  report("whole run", elapsed_ms(ev[0], ev[5]), 4 * kBytes);
  std::printf("data check: %s\n", ok ? "OK" : "MISMATCH");

  for (auto& e : ev) CHECK(aclrtDestroyEvent(e));
  CHECK(aclrtDestroyStream(up));
  CHECK(aclrtDestroyStream(down));
  CHECK(aclrtFree(dev_a));
  CHECK(aclrtFree(dev_b));
  CHECK(aclrtFree(dev_c));
  CHECK(aclrtFreeHost(host_in));
  CHECK(aclrtFreeHost(host_out));
  CHECK(aclrtFreeHost(host_back));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return ok ? 0 : 1;
}
