// SPDX-License-Identifier: Apache-2.0
// app.cpp: y = a + b on the simulated NPU, with the aclnnAdd operator.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK(call)                                  \
  do {                                               \
    const int err_ = (call);  /* 0 = success */      \
    if (err_ != 0) {                                 \
      std::printf("%s failed: %d\n", #call, err_);  \
      return 1;                                      \
    }                                                \
  } while (0)

int main() {
  const int64_t n = 1 << 20;                     // 1 Mi floats per vector
  const size_t bytes = n * sizeof(float);
  std::vector<float> a(n, 1.5f), b(n, 2.0f), y(n, 0.0f);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  void *da = nullptr, *db = nullptr, *dy = nullptr;
  for (void** p : {&da, &db, &dy}) CHECK(aclrtMalloc(p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(da, bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(db, bytes, b.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  // Tensors over device memory; y = a + alpha * b with alpha = 1.
  auto vec = [&](void* data) {
    return aclCreateTensor(&n, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &n, 1, data);
  };
  aclTensor *ta = vec(da), *tb = vec(db), *ty = vec(dy);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK(aclnnAddGetWorkspaceSize(ta, tb, alpha, ty, &workspace_size, &executor));  // plan
  void* workspace = nullptr;                                  // Add needs none; others may
  if (workspace_size > 0) CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclnnAdd(workspace, workspace_size, executor, stream));                    // queue
  CHECK(aclrtSynchronizeStream(stream));                                           // wait
  CHECK(aclrtMemcpy(y.data(), bytes, dy, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  std::printf("y[0] = %.1f, y[%ld] = %.1f on %s\n", y[0], static_cast<long>(n - 1), y[n - 1],
              aclrtGetSocName());

  for (aclTensor* t : {ta, tb, ty}) aclDestroyTensor(t);
  aclDestroyScalar(alpha);
  for (void* p : {da, db, dy}) CHECK(aclrtFree(p));
  if (workspace != nullptr) CHECK(aclrtFree(workspace));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return y[0] == 3.5f && y[n - 1] == 3.5f ? 0 : 1;
}
