// SPDX-License-Identifier: Apache-2.0
// An aclnn matmul: C = A x B in fp16, through the operator library's two-phase API.
//
// Phase one, aclnnMatmulGetWorkspaceSize, checks the tensors and plans the operator: it returns
// the workspace the operator needs and an executor. Phase two, aclnnMatmul, queues the operator
// on a stream with that workspace. The program then checks every element against a
// double-precision product computed on the host, and times the operator with events (simulated
// time: the AI Cores' pipes, L2 and HBM of the modelled chip).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_matmul.h"
#include "acl_check.h"  // CHECK(call): stop with the code and the runtime's message

namespace {

constexpr int64_t kM = 256, kK = 384, kN = 128;

// Small fp16 values with a pattern; fp16 holds them exactly.
std::vector<uint16_t> matrix(int64_t rows, int64_t cols, int seed) {
  std::vector<uint16_t> m(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i)
    m[i] = aclFloatToFloat16(static_cast<float>((i * seed) % 17 - 8) / 8.0f);
  return m;
}

void* to_device(const std::vector<uint16_t>& host) {
  void* dev = nullptr;
  const size_t bytes = host.size() * sizeof(uint16_t);
  CHECK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return dev;
}

// A contiguous row-major (ND) fp16 tensor over device memory.
aclTensor* tensor(int64_t rows, int64_t cols, void* data) {
  const int64_t shape[2] = {rows, cols};
  const int64_t strides[2] = {cols, 1};
  return aclCreateTensor(shape, 2, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, shape, 2, data);
}

// Elements whose error exceeds fp16 rounding of the fp32-accumulated result.
int64_t wrong_elements(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b,
                       const std::vector<uint16_t>& c) {
  int64_t wrong = 0;
  for (int64_t i = 0; i < kM; ++i)
    for (int64_t j = 0; j < kN; ++j) {
      double exact = 0, magnitude = 0;
      for (int64_t k = 0; k < kK; ++k) {
        const double p = static_cast<double>(aclFloat16ToFloat(a[i * kK + k])) *
                         aclFloat16ToFloat(b[k * kN + j]);
        exact += p;
        magnitude += std::fabs(p);
      }
      const double got = aclFloat16ToFloat(c[i * kN + j]);
      if (std::fabs(got - exact) > 1e-3 * magnitude + 1e-3) ++wrong;
    }
  return wrong;
}

}  // namespace

int main() {
  aclrtStream stream = OpenDevice0();  // aclInit, device 0, a stream (acl_check.h)

  const std::vector<uint16_t> a = matrix(kM, kK, 7), b = matrix(kK, kN, 5);
  std::vector<uint16_t> c(kM * kN, 0);
  void* dev_a = to_device(a);
  void* dev_b = to_device(b);
  void* dev_c = to_device(c);
  aclTensor* ta = tensor(kM, kK, dev_a);
  aclTensor* tb = tensor(kK, kN, dev_b);
  aclTensor* tc = tensor(kM, kN, dev_c);

  // Phase one: plan. cubeMathType 0 (KEEP_DTYPE): compute in the inputs' type.
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK(aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0, &workspace_size, &executor));
  void* workspace = nullptr;
  if (workspace_size > 0)
    CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));

  // Phase two: run, between two timing events.
  aclrtEvent start = nullptr, end = nullptr;
  CHECK(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
  CHECK(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));
  CHECK(aclrtRecordEvent(start, stream));
  CHECK(aclnnMatmul(workspace, workspace_size, executor, stream));
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));

  const size_t c_bytes = c.size() * sizeof(uint16_t);
  CHECK(aclrtMemcpy(c.data(), c_bytes, dev_c, c_bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));
  const int64_t wrong = wrong_elements(a, b, c);

  std::printf("aclnnMatmul fp16 [%ld x %ld] x [%ld x %ld], workspace %lu bytes\n",
              static_cast<long>(kM), static_cast<long>(kK), static_cast<long>(kK),
              static_cast<long>(kN), static_cast<unsigned long>(workspace_size));
  std::printf("C[0][0] = %.4f, C[%ld][%ld] = %.4f\n", aclFloat16ToFloat(c[0]),
              static_cast<long>(kM - 1), static_cast<long>(kN - 1), aclFloat16ToFloat(c.back()));
  std::printf("checked %ld elements against a double-precision product: %ld wrong\n",
              static_cast<long>(kM * kN), static_cast<long>(wrong));
  std::printf("simulated time between the events: %.2f us\n", ms * 1000.0f);

  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tc);
  if (workspace) CHECK(aclrtFree(workspace));
  for (void* p : {dev_a, dev_b, dev_c}) CHECK(aclrtFree(p));
  CloseDevice0(stream);
  return wrong == 0 ? 0 : 1;
}
