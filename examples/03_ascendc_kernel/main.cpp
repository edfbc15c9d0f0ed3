// SPDX-License-Identifier: Apache-2.0
// Host program: uploads x and y, launches the scale_add kernel on 8 and then 16 blocks, checks
// every element, and prints the kernel's simulated time for each (events around the launch).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "scale_add.h"
#include "acl_check.h"  // CHECK(call): stop with the code and the runtime's message

namespace {

constexpr uint32_t kTiles = 64;
constexpr size_t kCount = static_cast<size_t>(kTiles) * kTile;  // 64 Ki floats
constexpr size_t kBytes = kCount * sizeof(float);
constexpr float kAlpha = 0.5f;

float* device_copy(const std::vector<float>& host) {
  void* dev = nullptr;
  CHECK(aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dev, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return static_cast<float*>(dev);
}

// Runs the kernel on `blocks` cores; returns the simulated microseconds between its events.
float run(aclrtStream stream, uint32_t blocks, float* x, float* y, float* z) {
  aclrtEvent start = nullptr, end = nullptr;
  CHECK(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
  CHECK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(ScaleAddLaunch(blocks, stream, x, y, z, kAlpha, kTiles));
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));  // a failing kernel reports its error here
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));
  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  return ms * 1000.0f;
}

}  // namespace

int main() {
  aclrtStream stream = OpenDevice0();  // aclInit, device 0, a stream (acl_check.h)

  std::vector<float> x(kCount), y(kCount), z(kCount);
  for (size_t i = 0; i < kCount; ++i) {
    x[i] = static_cast<float>(i % 1000);
    y[i] = static_cast<float>(i % 7);
  }
  float* dx = device_copy(x);
  float* dy = device_copy(y);
  float* dz = device_copy(z);

  bool all_ok = true;
  for (uint32_t blocks : {8u, 16u}) {
    const float us = run(stream, blocks, dx, dy, dz);
    CHECK(aclrtMemcpy(z.data(), kBytes, dz, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    size_t wrong = 0;
    for (size_t i = 0; i < kCount; ++i)
      if (z[i] != kAlpha * x[i] + y[i]) ++wrong;  // exact: the values are small binary fractions
    all_ok = all_ok && wrong == 0;
    std::printf("scale_add on %2u blocks: %zu elements, %zu wrong, %.2f us simulated\n", blocks,
                kCount, wrong, us);
  }

  for (float* p : {dx, dy, dz}) CHECK(aclrtFree(p));
  CloseDevice0(stream);
  return all_ok ? 0 : 1;
}
