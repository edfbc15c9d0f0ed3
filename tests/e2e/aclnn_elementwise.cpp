// SPDX-License-Identifier: Apache-2.0
// aclnn element-wise operators on the simulated 910B (default config): the time of a FLOAT16
// aclnnAdd comes from its kernel's pipes and is bound by HBM bandwidth — 4M elements move
// 3 x 8 MiB, which at 1.6 TB/s is 15.7 us; the Add takes that plus a fixed launch cost, a
// 1M-element Add a quarter of it less — and the results are right. Also runs Gelu on the same
// data. e2e.sh checks op_summary.csv: the 4M Add's AIV time is the HBM bound within 10%.
#include <cstdint>
#include <cstring>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_gelu.h"
#include "e2e_common.h"

namespace {

std::uint16_t to_half(float f) {  // exact for the small integers used here
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  const std::uint32_t sign = (b >> 16) & 0x8000u;
  const int exp = static_cast<int>((b >> 23) & 0xffu) - 127 + 15;
  if ((b & 0x7fffffffu) == 0) return static_cast<std::uint16_t>(sign);
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(exp) << 10) |
                                    ((b >> 13) & 0x3ffu));
}

aclTensor* tensor(std::int64_t n, void* dev) {
  std::int64_t shape[1] = {n};
  return aclCreateTensor(shape, 1, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, shape, 1, dev);
}

// Runs out = a + b on n FLOAT16 elements and returns its simulated time in microseconds.
double add_us(aclrtStream s, std::int64_t n, void* a, void* b, void* out) {
  aclTensor* ta = tensor(n, a);
  aclTensor* tb = tensor(n, b);
  aclTensor* to = tensor(n, out);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  E2E_CHECK(aclnnAddGetWorkspaceSize(ta, tb, alpha, to, &ws, &ex));
  E2E_EXPECT(ws == 0);
  aclrtEvent e0, e1;
  e2e_create_events({&e0, &e1});
  const double us = e2e_timed_ms(s, e0, e1, [&] { E2E_CHECK(aclnnAdd(nullptr, 0, ex, s)); }) * 1e3;
  e2e_destroy_events({e0, e1});
  aclDestroyScalar(alpha);
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(to);
  return us;
}

}  // namespace

int main() {
  constexpr std::int64_t kBig = 4 << 20, kSmall = 1 << 20;
  constexpr std::size_t kBytes = kBig * 2;
  aclrtStream s = e2e_open(0);
  void* a = e2e_malloc(kBytes);
  void* b = e2e_malloc(kBytes);
  void* out = e2e_malloc(kBytes);
  std::vector<std::uint16_t> ha(kBig), hb(kBig), ho(kBig);
  for (std::int64_t i = 0; i < kBig; ++i) {
    ha[i] = to_half(static_cast<float>(i % 100));
    hb[i] = to_half(static_cast<float>(i % 7) - 3.0f);
  }
  E2E_CHECK(aclrtMemcpy(a, kBytes, ha.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  E2E_CHECK(aclrtMemcpy(b, kBytes, hb.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));

  const double big = add_us(s, kBig, a, b, out);
  E2E_CHECK(aclrtMemcpy(ho.data(), kBytes, out, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (std::int64_t i = 0; i < kBig; i += 4099) {
    E2E_EXPECT(ho[i] == to_half(static_cast<float>(i % 100 + i % 7) - 3.0f));
  }
  const double small = add_us(s, kSmall, a, b, out);
  const double hbm_us = 3.0 * kBytes / 1.6e12 * 1e6;
  std::printf("aclnnAdd FLOAT16 4M: %.2f us (HBM bound %.2f us), 1M: %.2f us\n", big, hbm_us,
              small);
  // Launch and dispatch cost the same for both sizes; the 3M elements more cost 3/4 of the bound.
  E2E_EXPECT(big >= hbm_us && big <= 1.5 * hbm_us + 10.0);
  E2E_EXPECT(e2e_near(big - small, 0.75 * hbm_us, 0.15));

  // Gelu on the same 4M elements (read 8 MiB, write 8 MiB, ~10 vector instructions a tile).
  aclTensor* x = tensor(kBig, a);
  aclTensor* y = tensor(kBig, out);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  E2E_CHECK(aclnnGeluGetWorkspaceSize(x, y, &ws, &ex));
  aclrtEvent e0, e1;
  e2e_create_events({&e0, &e1});
  const double gelu =
      e2e_timed_ms(s, e0, e1, [&] { E2E_CHECK(aclnnGelu(nullptr, ws, ex, s)); }) * 1e3;
  std::printf("aclnnGelu FLOAT16 4M: %.2f us\n", gelu);
  E2E_EXPECT(gelu >= 2.0 * kBytes / 1.6e12 * 1e6);
  E2E_CHECK(aclrtMemcpy(ho.data(), kBytes, out, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  E2E_EXPECT(ho[5] == to_half(5.0f) && ho[0] == 0);  // gelu(5) rounds to 5 in half

  aclDestroyTensor(x);
  aclDestroyTensor(y);
  e2e_destroy_events({e0, e1});
  e2e_free({a, b, out});
  e2e_close(s, 0);
  std::printf("PASS\n");
  return 0;
}
