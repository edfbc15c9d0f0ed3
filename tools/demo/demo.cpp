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

// The demo's memory: three pinned host buffers and three device buffers of kBytes each.
struct Buffers {
  void *host_in = nullptr, *host_out = nullptr, *host_back = nullptr;
  void *dev_a = nullptr, *dev_b = nullptr, *dev_c = nullptr;
};

// host_in holds a pattern, host_out zeros, dev_c 0x5a bytes.
Buffers allocate() {
  Buffers b;
  CHECK(aclrtMallocHost(&b.host_in, kBytes));
  CHECK(aclrtMallocHost(&b.host_out, kBytes));
  CHECK(aclrtMallocHost(&b.host_back, kBytes));
  auto* in = static_cast<unsigned char*>(b.host_in);
  for (size_t i = 0; i < kBytes; ++i) in[i] = static_cast<unsigned char>(i * 7 + 3);
  std::memset(b.host_out, 0, kBytes);
  CHECK(aclrtMalloc(&b.dev_a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&b.dev_b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&b.dev_c, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemset(b.dev_c, kBytes, 0x5a, kBytes));
  return b;
}

// Streams "up" (priority 0) and "down" (priority 3); the events record simulated time.
void create_streams(aclrtStream& up, aclrtStream& down, aclrtEvent (&ev)[6]) {
  CHECK(aclrtCreateStreamWithConfig(&up, 0, 0));
  CHECK(aclrtCreateStreamWithConfig(&down, 3, 0));
  for (auto& e : ev) CHECK(aclrtCreateEventWithFlag(&e, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC));
}

void destroy_streams(aclrtStream up, aclrtStream down, aclrtEvent (&ev)[6]) {
  for (auto& e : ev) CHECK(aclrtDestroyEvent(e));
  CHECK(aclrtDestroyStream(up));
  CHECK(aclrtDestroyStream(down));
}

// The copies of both streams, with events around each phase.
void queue_copies(const Buffers& b, aclrtStream up, aclrtStream down, aclrtEvent (&ev)[6]) {
  // Stream "up": H2D, then D2D on the SDMA engine.
  CHECK(aclrtRecordEvent(ev[0], up));
  CHECK(aclrtMemcpyAsync(b.dev_a, kBytes, b.host_in, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, up));
  CHECK(aclrtRecordEvent(ev[1], up));
  CHECK(aclrtMemcpyAsync(b.dev_b, kBytes, b.dev_a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, up));
  CHECK(aclrtRecordEvent(ev[2], up));
  // Stream "down": a D2H that overlaps the H2D (the link is full duplex) ...
  CHECK(aclrtRecordEvent(ev[3], down));
  CHECK(aclrtMemcpyAsync(b.host_out, kBytes, b.dev_c, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, down));
  CHECK(aclrtRecordEvent(ev[4], down));
  // ... then waits for stream "up" and copies the result back.
  CHECK(aclrtStreamWaitEvent(down, ev[2]));
  CHECK(aclrtMemcpyAsync(b.host_back, kBytes, b.dev_b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, down));
  CHECK(aclrtRecordEvent(ev[5], down));
}

// The data came back unchanged, and the D2H copied dev_c's bytes.
bool data_ok(const Buffers& b) {
  bool ok = std::memcmp(b.host_back, b.host_in, kBytes) == 0;
  const auto* out = static_cast<const unsigned char*>(b.host_out);
  for (size_t i = 0; ok && i < kBytes; i += 4096) ok = out[i] == 0x5a;
  return ok;
}

void print_times(aclrtEvent (&ev)[6]) {
  std::printf("simulated times (64 MiB each):\n");
  report("H2D on stream up", elapsed_ms(ev[0], ev[1]), kBytes);
  report("D2D (SDMA) on stream up", elapsed_ms(ev[1], ev[2]), kBytes);
  report("D2H on stream down, overlapping", elapsed_ms(ev[3], ev[4]), kBytes);
  report("D2H after the cross-stream wait", elapsed_ms(ev[2], ev[5]), kBytes);
  report("whole run", elapsed_ms(ev[0], ev[5]), 4 * kBytes);
}

void release(const Buffers& b) {
  CHECK(aclrtFree(b.dev_a));
  CHECK(aclrtFree(b.dev_b));
  CHECK(aclrtFree(b.dev_c));
  CHECK(aclrtFreeHost(b.host_in));
  CHECK(aclrtFreeHost(b.host_out));
  CHECK(aclrtFreeHost(b.host_back));
}

}  // namespace

int main() {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  std::printf("npusim demo on %s\n", aclrtGetSocName());
  const Buffers b = allocate();
  aclrtStream up = nullptr, down = nullptr;
  aclrtEvent ev[6];
  create_streams(up, down, ev);
  queue_copies(b, up, down, ev);
  CHECK(aclrtSynchronizeStream(down));
  const bool ok = data_ok(b);
  print_times(ev);
  std::printf("data check: %s\n", ok ? "OK" : "MISMATCH");
  destroy_streams(up, down, ev);
  release(b);
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return ok ? 0 : 1;
}
