// SPDX-License-Identifier: Apache-2.0
// The workload of the sweep: one 64 MiB host-to-device copy from pinned memory, timed with
// events. Its time depends on the chip's PCIe bandwidth, the knob the sweep turns.
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "acl_check.h"  // CHECK(call): stop with the code and the runtime's message

int main() {
  constexpr size_t kBytes = 64u << 20;
  aclrtStream stream = OpenDevice0();  // aclInit, device 0, a stream (acl_check.h)
  void* host = nullptr;
  void* dev = nullptr;
  CHECK(aclrtMallocHost(&host, kBytes));
  CHECK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));

  aclrtEvent start = nullptr, end = nullptr;
  CHECK(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
  CHECK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(aclrtMemcpyAsync(dev, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));
  std::printf("upload of 64 MiB: %.3f ms simulated = %.2f GB/s\n", ms, kBytes / (ms * 1e-3) / 1e9);

  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  CHECK(aclrtFree(dev));
  CHECK(aclrtFreeHost(host));
  CloseDevice0(stream);
  return 0;
}
