// SPDX-License-Identifier: Apache-2.0
// e2e: shape-family operators of the installed operator library on the simulated chip, each at a
// small and a large size (e2e.sh checks op_summary.csv: time grows with size, the pipes show).
// Results are checked here for Permute and Embedding (exact).
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"

namespace {

aclrtStream stream;
std::vector<void*> buffers;

void* dev(size_t bytes) {
  void* p = nullptr;
  if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
  aclrtMemset(p, bytes, 0, bytes);
  buffers.push_back(p);
  return p;
}
aclTensor* tensor(std::vector<int64_t> d, aclDataType t, void* p) {
  return aclCreateTensor(d.data(), d.size(), t, nullptr, 0, ACL_FORMAT_ND, d.data(), d.size(), p);
}
aclIntArray* ints(std::vector<int64_t> v) { return aclCreateIntArray(v.data(), v.size()); }

#define RUN(OP, ...)                                                  \
  do {                                                                \
    uint64_t ws = 0;                                                  \
    aclOpExecutor* ex = nullptr;                                      \
    if (OP##GetWorkspaceSize(__VA_ARGS__, &ws, &ex) != ACL_SUCCESS || \
        OP(nullptr, 0, ex, stream) != ACL_SUCCESS) {                  \
      std::printf(#OP " failed\n");                                   \
      return 1;                                                       \
    }                                                                 \
  } while (0)

}  // namespace

int main() {
  if (aclInit(nullptr) || aclrtSetDevice(0) || aclrtCreateStream(&stream)) return 2;
  std::vector<float> host, back;
  for (int64_t n : {256, 1024}) {  // transpose n x n
    host.resize(n * n);
    for (int64_t i = 0; i < n * n; ++i) host[i] = static_cast<float>(i);
    void* x = dev(n * n * 4);
    void* y = dev(n * n * 4);
    aclrtMemcpy(x, n * n * 4, host.data(), n * n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    RUN(aclnnPermute, tensor({n, n}, ACL_FLOAT, x), ints({1, 0}), tensor({n, n}, ACL_FLOAT, y));
    back.resize(n * n);
    if (aclrtSynchronizeStream(stream)) return 3;
    aclrtMemcpy(back.data(), n * n * 4, y, n * n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < n; ++c)
        if (back[r * n + c] != host[c * n + r]) {
          std::printf("Permute wrong at %lld,%lld\n", static_cast<long long>(r),
                      static_cast<long long>(c));
          return 4;
        }
  }
  for (int64_t c : {16, 64}) {  // ResNet's stem max pool
    void* x = dev(c * 112 * 112 * 2);
    void* y = dev(c * 56 * 56 * 2);
    void* yi = dev(c * 56 * 56 * 4);
    RUN(aclnnMaxPool2dWithIndices, tensor({1, c, 112, 112}, ACL_FLOAT16, x), ints({3, 3}),
        ints({2, 2}), ints({1, 1}), ints({1, 1}), false, tensor({1, c, 56, 56}, ACL_FLOAT16, y),
        tensor({1, c, 56, 56}, ACL_INT32, yi));
  }
  for (int64_t c : {256, 2048}) {  // ResNet's global average pool
    void* x = dev(c * 49 * 2);
    void* y = dev(c * 2);
    RUN(aclnnAdaptiveAvgPool2d, tensor({1, c, 7, 7}, ACL_FLOAT16, x), ints({1, 1}),
        tensor({1, c, 1, 1}, ACL_FLOAT16, y));
  }
  for (int64_t tokens : {64, 1024}) {  // a 32000 x 1024 fp32 table
    void* w = dev(32000ll * 1024 * 4);
    std::vector<int32_t> idx(tokens);
    for (int64_t i = 0; i < tokens; ++i) idx[i] = static_cast<int32_t>((i * 7919) % 32000);
    void* d_idx = dev(tokens * 4);
    aclrtMemcpy(d_idx, tokens * 4, idx.data(), tokens * 4, ACL_MEMCPY_HOST_TO_DEVICE);
    std::vector<float> row(1024);
    for (int j = 0; j < 1024; ++j) row[j] = static_cast<float>(j);
    aclrtMemcpy(static_cast<char*>(w) + 4096ll * idx[tokens - 1], 4096, row.data(), 4096,
                ACL_MEMCPY_HOST_TO_DEVICE);
    void* y = dev(tokens * 1024 * 4);
    RUN(aclnnEmbedding, tensor({32000, 1024}, ACL_FLOAT, w), tensor({tokens}, ACL_INT32, d_idx),
        tensor({tokens, 1024}, ACL_FLOAT, y));
    if (aclrtSynchronizeStream(stream)) return 3;
    std::vector<float> got(1024);
    aclrtMemcpy(got.data(), 4096, static_cast<char*>(y) + 4096 * (tokens - 1), 4096,
                ACL_MEMCPY_DEVICE_TO_HOST);
    if (std::memcmp(got.data(), row.data(), 4096) != 0) {
      std::printf("Embedding wrong\n");
      return 4;
    }
  }
  for (int64_t s : {128, 1024}) {  // rotate_half RoPE over 32 heads of 128
    void* x = dev(32 * s * 128 * 2);
    void* c = dev(s * 128 * 2);
    void* sn = dev(s * 128 * 2);
    void* y = dev(32 * s * 128 * 2);
    RUN(aclnnRotaryPositionEmbedding, tensor({1, 32, s, 128}, ACL_FLOAT16, x),
        tensor({1, 1, s, 128}, ACL_FLOAT16, c), tensor({1, 1, s, 128}, ACL_FLOAT16, sn), 0,
        tensor({1, 32, s, 128}, ACL_FLOAT16, y));
  }
  if (aclrtSynchronizeStream(stream)) return 3;
  for (void* p : buffers) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::printf("aclnn shape ops ok\n");
  return 0;
}
