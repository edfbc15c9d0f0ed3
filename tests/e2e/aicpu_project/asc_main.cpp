// SPDX-License-Identifier: Apache-2.0
// The <<<>>> path of AI CPU kernels: a .aicpu kernel (aicpu_kernel_library STATIC) launched from
// a .asc source (ascendc_library); checks the result.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "launch_scale.h"

int main() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 1;
  const std::size_t n = 256;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  void* dev = nullptr;
  if (aclrtMalloc(&dev, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemcpy(dev, n * sizeof(float), host.data(), n * sizeof(float),
                  ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
    return 1;
  }
  ScaleArgs args{static_cast<float*>(dev), n, 3.0f};
  LaunchScale(&args, stream);
  args.factor = 100.0f;  // the launch copied the argument block: this change does not reach it
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
    std::printf("FAIL synchronize\n");
    return 1;
  }
  std::vector<float> out(n);
  if (aclrtMemcpy(out.data(), n * sizeof(float), dev, n * sizeof(float),
                  ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
    return 1;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (out[i] != 3.0f * static_cast<float>(i)) {
      std::printf("FAIL element %zu: %f\n", i, out[i]);
      return 1;
    }
  }
  aclrtFree(dev);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::printf("[SUCCESS] AI CPU <<<>>> ScaleAicpu\n");
  return 0;
}
