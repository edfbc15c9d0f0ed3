// SPDX-License-Identifier: Apache-2.0
// One host thread per device (8 devices), each doing copies, memsets, events and synchronizes on
// its own device, plus cross-device work: a peer copy into the next device's memory and a wait for
// the previous device's event. The threads race in wall time; the simulated result must not
// depend on it (e2e.sh runs this 10 times and compares timeline.json and stats.json byte for
// byte). The data each thread gets back is checked too. Run with NPUSIM_SET=soc.num_devices=8.
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "e2e_common.h"

namespace {

constexpr int kDevices = 8;
constexpr size_t kBase = 256u << 10;  // thread i copies (i + 1) * kBase bytes
constexpr size_t kMost = kDevices * kBase;

struct Shared {
  void* dev[kDevices] = {};   // per device: its own data
  void* peer[kDevices] = {};  // per device: what the previous device copies in
  aclrtEvent event[kDevices] = {};
  aclrtContext ctx[kDevices] = {};
};

Shared g;

void worker(int i) {
  const size_t bytes = (i + 1) * kBase;
  E2E_CHECK(aclrtSetCurrentContext(g.ctx[i]));
  aclrtStream s = nullptr;
  E2E_CHECK(aclrtCreateStream(&s));
  std::vector<unsigned char> host(bytes), back(bytes);
  for (size_t k = 0; k < bytes; ++k) host[k] = static_cast<unsigned char>(k * 7 + i);
  aclrtEvent start, stop;
  e2e_create_events({&start, &stop});
  for (int round = 0; round < 3; ++round) {
    E2E_CHECK(aclrtRecordEvent(start, s));
    E2E_CHECK(aclrtMemcpyAsync(g.dev[i], bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, s));
    E2E_CHECK(aclrtMemsetAsync(static_cast<char*>(g.dev[i]) + kMost, 4096, round, 4096, s));
    E2E_CHECK(aclrtRecordEvent(g.event[i], s));
    // Cross-device: wait for the previous device's latest record, then copy to the next device.
    E2E_CHECK(aclrtStreamWaitEvent(s, g.event[(i + kDevices - 1) % kDevices]));
    const int next = (i + 1) % kDevices;
    E2E_CHECK(aclrtMemcpyAsync(g.peer[next], bytes, g.dev[i], bytes, ACL_MEMCPY_DEVICE_TO_DEVICE,
                               s));
    E2E_CHECK(aclrtRecordEvent(stop, s));
    if (round == 1) {
      E2E_CHECK(aclrtSynchronizeEvent(stop));
      float ms = 0;
      E2E_CHECK(aclrtEventElapsedTime(&ms, start, stop));
      E2E_EXPECT(ms > 0);
    } else {
      E2E_CHECK(aclrtSynchronizeStream(s));
    }
    E2E_CHECK(aclrtMemcpy(back.data(), bytes, g.dev[i], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    E2E_EXPECT(std::memcmp(back.data(), host.data(), bytes) == 0);
  }
  e2e_destroy_events({start, stop});
  E2E_CHECK(aclrtDestroyStream(s));
}

}  // namespace

int main() {
  E2E_CHECK(aclInit(nullptr));
  uint32_t count = 0;
  E2E_CHECK(aclrtGetDeviceCount(&count));
  E2E_EXPECT(count == kDevices);
  for (int i = 0; i < kDevices; ++i) {
    E2E_CHECK(aclrtSetDevice(i));
    E2E_CHECK(aclrtGetCurrentContext(&g.ctx[i]));
    E2E_CHECK(aclrtMalloc(&g.dev[i], kMost + 4096, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    E2E_CHECK(aclrtMalloc(&g.peer[i], kMost, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    E2E_CHECK(aclrtCreateEvent(&g.event[i]));
    E2E_CHECK(aclrtDeviceEnablePeerAccess((i + 1) % kDevices, 0));
    E2E_CHECK(aclrtDeviceEnablePeerAccess((i + kDevices - 1) % kDevices, 0));
  }
  std::vector<std::thread> threads;
  for (int i = 0; i < kDevices; ++i) threads.emplace_back(worker, i);
  for (auto& t : threads) t.join();
  // The last round's peer copies arrived: device i + 1 holds device i's data.
  for (int i = 0; i < kDevices; ++i) {
    const size_t bytes = (i + 1) * kBase;
    std::vector<unsigned char> back(bytes);
    E2E_CHECK(aclrtSetCurrentContext(g.ctx[(i + 1) % kDevices]));
    E2E_CHECK(aclrtMemcpy(back.data(), bytes, g.peer[(i + 1) % kDevices], bytes,
                          ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t k = 0; k < bytes; ++k) E2E_EXPECT(back[k] == static_cast<unsigned char>(k * 7 + i));
  }
  for (int i = 0; i < kDevices; ++i) {
    E2E_CHECK(aclrtSetCurrentContext(g.ctx[i]));
    e2e_free({g.dev[i], g.peer[i]});
    E2E_CHECK(aclrtDestroyEvent(g.event[i]));
    E2E_CHECK(aclrtResetDevice(i));
  }
  E2E_CHECK(aclFinalize());
  std::printf("PASS threads\n");
  return 0;
}
