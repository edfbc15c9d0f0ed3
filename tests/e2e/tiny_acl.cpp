// SPDX-License-Identifier: Apache-2.0
// The smallest useful ACL program (aclInit, one device buffer, one copy each way, aclFinalize):
// the link_hygiene case runs it under valgrind's callgrind, which instruction-count benches use;
// it must start and exit cleanly with no DVPP codec (FFmpeg, libjpeg, libpng) loaded.
#include <cstdio>
#include <cstring>

#include "acl/acl.h"

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  constexpr size_t kBytes = 4096;
  unsigned char host[kBytes];
  unsigned char back[kBytes] = {};
  for (size_t i = 0; i < kBytes; ++i) host[i] = static_cast<unsigned char>(i * 7);
  void* dev = nullptr;
  if (aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 2;
  if (aclrtMemcpy(dev, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 3;
  if (aclrtMemcpy(back, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return 4;
  if (std::memcmp(host, back, kBytes) != 0) return 5;
  if (aclrtFree(dev) != ACL_SUCCESS || aclrtResetDevice(0) != ACL_SUCCESS) return 6;
  if (aclFinalize() != ACL_SUCCESS) return 7;
  std::puts("tiny_acl: OK");
  return 0;
}
