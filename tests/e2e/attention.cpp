// SPDX-License-Identifier: Apache-2.0
// e2e: the fused attention operators on the simulated chip. aclnnFlashAttentionScore (causal,
// BNSD) at S = 128 (checked against a double-precision reference) and S = 512, S = 512 without
// the mask, then aclnnIncreFlashAttention (one decode step against a 256-token cache). e2e.sh
// then checks op_summary.csv: MIX kernels, cube and vector time, time growing with S, causal
// taking fewer cycles than full attention.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_incre_flash_attention.h"
#include "e2e_common.h"

#define CHECK(x)                                                            \
  do {                                                                      \
    const long r_ = static_cast<long>(x);                                   \
    if (r_ != 0) {                                                          \
      std::fprintf(stderr, "%s failed: %ld (line %d)\n", #x, r_, __LINE__); \
      return 1;                                                             \
    }                                                                       \
  } while (0)

namespace {

std::uint16_t to_half(float f) {  // round to nearest even, normal range only
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  const std::uint32_t sign = (b >> 16) & 0x8000u;
  const int exp = static_cast<int>((b >> 23) & 0xff) - 127 + 15;
  std::uint32_t mant = b & 0x7fffffu;
  if (exp <= 0) return static_cast<std::uint16_t>(sign);
  std::uint32_t h = sign | (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
  const std::uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<std::uint16_t>(h);
}
float from_half(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  std::uint32_t b = exp == 0 ? sign : sign | ((exp - 15 + 127) << 23) | (mant << 13);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

aclTensor* tensor(std::vector<int64_t> shape, aclDataType type, void* data) {
  return aclCreateTensor(shape.data(), shape.size(), type, nullptr, 0, ACL_FORMAT_ND, shape.data(),
                         shape.size(), data);
}

void* device(const void* host, size_t bytes) {
  void* p = nullptr;
  if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0) return nullptr;
  if (host != nullptr) aclrtMemcpy(p, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  return p;
}

// Causal attention of B=1, N=4, S x D=64 (BNSD); returns the largest error vs the reference
// (or -1 on an API failure).
double flash_attention(aclrtStream stream, int64_t s, bool check, bool causal = true) {
  const int64_t n = 4, d = 64, count = n * s * d;
  std::vector<std::uint16_t> q(count), k(count), v(count), out(count);
  for (int64_t i = 0; i < count; ++i) {
    q[i] = to_half(static_cast<float>(std::sin(0.37 * i)));
    k[i] = to_half(static_cast<float>(std::cos(0.23 * i)));
    v[i] = to_half(static_cast<float>(std::sin(0.11 * i + 1)));
  }
  void* dq = device(q.data(), count * 2);
  void* dk = device(k.data(), count * 2);
  void* dv = device(v.data(), count * 2);
  void* dout = device(nullptr, count * 2);
  void* dmax = device(nullptr, n * s * 8 * 4);
  void* dsum = device(nullptr, n * s * 8 * 4);
  char layout[] = "BNSD";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const double scale = 0.125;
  if (aclnnFlashAttentionScoreGetWorkspaceSize(
          tensor({1, n, s, d}, ACL_FLOAT16, dq), tensor({1, n, s, d}, ACL_FLOAT16, dk),
          tensor({1, n, s, d}, ACL_FLOAT16, dv), nullptr, nullptr, nullptr, nullptr, nullptr, scale,
          1.0, 2147483647, 0, n, layout, 0, causal ? 2 : 0, tensor({1, n, s, 8}, ACL_FLOAT, dmax),
          tensor({1, n, s, 8}, ACL_FLOAT, dsum), nullptr, tensor({1, n, s, d}, ACL_FLOAT16, dout),
          &ws, &ex) != 0) {
    return -1;
  }
  void* dws = device(nullptr, ws);
  if (aclnnFlashAttentionScore(dws, ws, ex, stream) != 0) return -1;
  if (aclrtSynchronizeStream(stream) != 0) return -1;
  aclrtMemcpy(out.data(), count * 2, dout, count * 2, ACL_MEMCPY_DEVICE_TO_HOST);
  double worst = 0;
  for (int64_t h = 0; check && h < n; ++h) {
    const int64_t base = h * s * d;
    for (int64_t i = 0; i < s; ++i) {
      std::vector<double> p(i + 1);
      double max = -1e300, sum = 0;
      for (int64_t j = 0; j <= i; ++j) {
        double dot = 0;
        for (int64_t e = 0; e < d; ++e)
          dot += from_half(q[base + i * d + e]) * from_half(k[base + j * d + e]);
        p[j] = dot * scale;
        max = std::max(max, p[j]);
      }
      for (double& x : p) sum += (x = std::exp(x - max));
      for (int64_t e = 0; e < d; ++e) {
        double o = 0;
        for (int64_t j = 0; j <= i; ++j) o += p[j] * from_half(v[base + j * d + e]);
        worst = std::max(worst, std::fabs(o / sum - from_half(out[base + i * d + e])));
      }
    }
  }
  for (void* p : {dq, dk, dv, dout, dmax, dsum, dws}) aclrtFree(p);
  return worst;
}

int decode_step(aclrtStream stream) {
  const int64_t b = 2, n = 4, d = 64, cache = 256;
  std::vector<std::uint16_t> q(b * n * d, to_half(0.5f)), kv(b * cache * n * d, to_half(0.25f));
  void* dq = device(q.data(), q.size() * 2);
  void* dk = device(kv.data(), kv.size() * 2);
  void* dv = device(kv.data(), kv.size() * 2);
  void* dout = device(nullptr, q.size() * 2);
  const aclTensor* kt = tensor({b, cache, n * d}, ACL_FLOAT16, dk);
  const aclTensor* vt = tensor({b, cache, n * d}, ACL_FLOAT16, dv);
  aclTensorList* kl = aclCreateTensorList(&kt, 1);
  aclTensorList* vl = aclCreateTensorList(&vt, 1);
  const int64_t lens_v[2] = {200, 256};
  aclIntArray* lens = aclCreateIntArray(lens_v, 2);
  char layout[] = "BSH";
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  CHECK(aclnnIncreFlashAttentionGetWorkspaceSize(
      tensor({b, 1, n * d}, ACL_FLOAT16, dq), kl, vl, nullptr, nullptr, lens, n, 0.125, layout, 0,
      tensor({b, 1, n * d}, ACL_FLOAT16, dout), &ws, &ex));
  void* dws = device(nullptr, ws);
  CHECK(aclnnIncreFlashAttention(dws, ws, ex, stream));
  CHECK(aclrtSynchronizeStream(stream));
  aclrtMemcpy(q.data(), q.size() * 2, dout, q.size() * 2, ACL_MEMCPY_DEVICE_TO_HOST);
  for (std::uint16_t h : q) {
    if (h != to_half(0.25f)) {  // every value 0.25: any softmax of them averages 0.25
      std::fprintf(stderr, "decode output %04x, expected 0.25\n", h);
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main() {
  aclrtStream stream = e2e_open(0);
  const double err = flash_attention(stream, 128, true);
  if (err < 0 || err > 2e-3) {
    std::fprintf(stderr, "FlashAttentionScore S=128: max error %g\n", err);
    return 1;
  }
  if (flash_attention(stream, 512, false) < 0) return 1;
  if (flash_attention(stream, 512, false, false) < 0) return 1;  // not causal
  if (decode_step(stream) != 0) return 1;
  std::printf("attention ok (max error %.2e)\n", err);
  e2e_close(stream, 0);
  return 0;
}
