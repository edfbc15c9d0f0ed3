// SPDX-License-Identifier: Apache-2.0
// A small CANN host program built against the Debian package's /opt/npusim tree (extracted into a
// scratch root by tests/package/package.sh): one 1 MiB copy each way on a stream, timed with
// events in simulated time, the data checked on the way back.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"

#define CHECK(call)                                                              \
  do {                                                                           \
    const aclError err_ = (call);                                                \
    if (err_ != ACL_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, err_); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

int main() {
  constexpr size_t kBytes = 1u << 20;
  std::vector<unsigned char> in(kBytes), back(kBytes, 0);
  for (size_t i = 0; i < kBytes; ++i) in[i] = static_cast<unsigned char>(i * 13 + 1);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  void* dev = nullptr;
  aclrtStream stream = nullptr;
  aclrtEvent start = nullptr, end = nullptr;
  CHECK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtCreateStream(&stream));
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&end));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(aclrtMemcpyAsync(dev, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  CHECK(aclrtMemcpyAsync(back.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));
  std::printf("soc %s\n", aclrtGetSocName());
  std::printf("roundtrip %s in %.3f us\n", in == back ? "ok" : "CORRUPT", ms * 1e3);
  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtFree(dev));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return in == back ? 0 : 2;
}
