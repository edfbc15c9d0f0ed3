// SPDX-License-Identifier: Apache-2.0
// Calls the deployed package's generated aclnnAxpyCustom: values, the workspace the tiling asked
// for, and the errors of a type the definition does not list and of a failing tiling.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnn_axpy_custom.h"

#define CHECK(call)                                              \
  do {                                                           \
    const int err_ = (call);                                     \
    if (err_ != 0) {                                             \
      std::printf("%s failed: %d\n", #call, err_);              \
      return 1;                                                  \
    }                                                            \
  } while (0)

int main() {
  const int64_t n = 4096;
  const size_t bytes = n * sizeof(float);
  std::vector<float> x(n), y(n), z(n, 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97);
    y[i] = static_cast<float>(i % 13) - 6.0f;
  }
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;
  for (void** p : {&dx, &dy, &dz}) CHECK(aclrtMalloc(p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  auto vec = [&](void* data, aclDataType t, int64_t len) {
    return aclCreateTensor(&len, 1, t, nullptr, 0, ACL_FORMAT_ND, &len, 1, data);
  };
  aclTensor *tx = vec(dx, ACL_FLOAT, n), *ty = vec(dy, ACL_FLOAT, n), *tz = vec(dz, ACL_FLOAT, n);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  CHECK(aclnnAxpyCustomGetWorkspaceSize(tx, ty, 0.5, tz, &ws, &ex));
  std::printf("workspace %lu\n", static_cast<unsigned long>(ws));
  void* dws = nullptr;
  CHECK(aclrtMalloc(&dws, ws, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclnnAxpyCustom(dws, ws, ex, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  int wrong = 0;
  for (int64_t i = 0; i < n; ++i) wrong += z[i] != x[i] + 0.5f * y[i];
  std::printf("axpy: %d wrong\n", wrong);
  aclTensor* th = vec(dx, ACL_FLOAT16, n);
  std::printf("float16 input: %d\n", aclnnAxpyCustomGetWorkspaceSize(th, ty, 0.5, tz, &ws, &ex));
  aclTensor* odd = vec(dx, ACL_FLOAT, 100);
  std::printf("100 elements: %d\n", aclnnAxpyCustomGetWorkspaceSize(odd, odd, 0.5, odd, &ws, &ex));
  for (aclTensor* t : {tx, ty, tz, th, odd}) aclDestroyTensor(t);
  for (void* p : {dx, dy, dz, dws}) CHECK(aclrtFree(p));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return wrong == 0 ? 0 : 1;
}
