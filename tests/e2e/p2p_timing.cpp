// SPDX-License-Identifier: Apache-2.0
// A 64 MiB copy from device 0 to device 1 over HCCS (the "tiny" chip with two devices: 56 GB/s per
// link direction, 1.5 us latency) takes latency + size / bandwidth = 1.5 us + 1.1984 ms within 1%,
// once device 0 enabled peer access to device 1; the bytes arrive intact. Before that the copy is
// refused with 107000. Run with NPUSIM_CONFIG=tiny NPUSIM_SET=soc.num_devices=2.
#include <cstring>
#include <vector>

#include "e2e_common.h"

int main() {
  constexpr size_t kBytes = 64u << 20;
  E2E_CHECK(aclInit(nullptr));
  uint32_t count = 0;
  E2E_CHECK(aclrtGetDeviceCount(&count));
  E2E_EXPECT(count == 2);
  int32_t can = 0;
  E2E_CHECK(aclrtDeviceCanAccessPeer(&can, 0, 1));
  E2E_EXPECT(can == 1);
  void *host = nullptr, *back = nullptr, *d0 = nullptr, *d1 = nullptr;
  E2E_CHECK(aclrtSetDevice(1));
  E2E_CHECK(aclrtMalloc(&d1, kBytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
  E2E_CHECK(aclrtSetDevice(0));
  E2E_CHECK(aclrtMalloc(&d0, kBytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
  E2E_CHECK(aclrtMallocHost(&host, kBytes));
  E2E_CHECK(aclrtMallocHost(&back, kBytes));
  auto* h = static_cast<unsigned char*>(host);
  for (size_t i = 0; i < kBytes; ++i) h[i] = static_cast<unsigned char>(i ^ (i >> 11));
  E2E_CHECK(aclrtMemcpy(d0, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclrtStream s = nullptr;
  E2E_CHECK(aclrtCreateStream(&s));
  E2E_EXPECT(aclrtMemcpyAsync(d1, kBytes, d0, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s) == 107000);
  E2E_CHECK(aclrtDeviceEnablePeerAccess(1, 0));
  aclrtEvent e0, e1;
  e2e_create_events({&e0, &e1});
  const float got_ms = e2e_timed_ms(s, e0, e1, [&] {
    E2E_CHECK(aclrtMemcpyAsync(d1, kBytes, d0, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
  });
  const double want_ms = 1.5e-3 + kBytes / 56e9 * 1e3;
  std::printf("P2P 64 MiB over HCCS: %.4f ms (model %.4f ms)\n", got_ms, want_ms);
  E2E_EXPECT(e2e_near(got_ms, want_ms, 0.01));

  E2E_CHECK(aclrtSetDevice(1));
  E2E_CHECK(aclrtMemcpy(back, kBytes, d1, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  E2E_EXPECT(std::memcmp(back, host, kBytes) == 0);
  e2e_free({d1});
  E2E_CHECK(aclrtResetDevice(1));
  E2E_CHECK(aclrtSetDevice(0));
  E2E_CHECK(aclrtDeviceDisablePeerAccess(1));
  e2e_destroy_events({e0, e1});
  E2E_CHECK(aclrtDestroyStream(s));
  e2e_free({d0});
  e2e_free_host({host, back});
  return e2e_pass(0, "p2p_timing");
}
