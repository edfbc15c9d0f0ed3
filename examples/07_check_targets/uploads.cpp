// SPDX-License-Identifier: Apache-2.0
// The workload held to targets: four 8 MiB host-to-device copies queued on one stream, then one
// synchronize. `npusim check` judges the run's outputs (stats.json, timeline.json) against
// targets.yaml; nothing in this program knows about the targets.
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "acl_check.h"  // CHECK(call): stop with the code and the runtime's message

int main() {
  constexpr size_t kChunk = 8u << 20;
  constexpr int kChunks = 4;
  aclrtStream stream = OpenDevice0();  // aclInit, device 0, a stream (acl_check.h)
  void* host = nullptr;
  void* dev = nullptr;
  CHECK(aclrtMallocHost(&host, kChunk * kChunks));
  CHECK(aclrtMalloc(&dev, kChunk * kChunks, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int i = 0; i < kChunks; ++i) {
    char* d = static_cast<char*>(dev) + i * kChunk;
    const char* h = static_cast<const char*>(host) + i * kChunk;
    CHECK(aclrtMemcpyAsync(d, kChunk, h, kChunk, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  }
  CHECK(aclrtSynchronizeStream(stream));
  std::printf("uploaded %d chunks of 8 MiB\n", kChunks);
  CHECK(aclrtFree(dev));
  CHECK(aclrtFreeHost(host));
  CloseDevice0(stream);
  return 0;
}
