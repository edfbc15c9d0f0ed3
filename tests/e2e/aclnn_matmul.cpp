// SPDX-License-Identifier: Apache-2.0
// The matmul family on the simulated chip: fp16 aclnnMatmul of 256^3 and 512^3 and a ResNet-like
// aclnnConvolution (32 -> 32 channels, 28 x 28, 3 x 3, pad 1, bias), each checked against a
// double-precision reference on sampled outputs (|err| <= 1e-3 * sum|a*b| + 1e-3). e2e.sh then
// checks op_summary.csv: the cube kernels' time grows with the size and shows the cube pipes.
#include "aclnnop/aclnn_matmul.h"

#include <cstdint>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "e2e_common.h"

namespace {

std::vector<uint16_t> values(std::size_t n, int mod) {
  std::vector<uint16_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = aclFloatToFloat16(static_cast<float>(static_cast<int>(i * 7 % mod)) / mod - 0.5f);
  return v;
}

void* upload(const std::vector<uint16_t>& h) {
  void* d = nullptr;
  E2E_CHECK(aclrtMalloc(&d, h.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
  E2E_CHECK(aclrtMemcpy(d, h.size() * 2, h.data(), h.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
  return d;
}

aclTensor* tensor(std::vector<int64_t> dims, void* data) {
  return aclCreateTensor(dims.data(), dims.size(), ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND,
                         dims.data(), dims.size(), data);
}

bool close(double got, double ref, double mag) { return std::fabs(got - ref) <= 1e-3 * mag + 1e-3; }

void matmul(aclrtStream s, int64_t n) {
  const std::vector<uint16_t> ha = values(n * n, 13), hb = values(n * n, 11);
  std::vector<uint16_t> hc(n * n);
  void* a = upload(ha);
  void* b = upload(hb);
  void* c = upload(hc);
  aclTensor* ta = tensor({n, n}, a);
  aclTensor* tb = tensor({n, n}, b);
  aclTensor* tc = tensor({n, n}, c);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  E2E_CHECK(aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0, &ws, &ex));
  E2E_EXPECT(ws == 0);
  E2E_CHECK(aclnnMatmul(nullptr, 0, ex, s));
  E2E_CHECK(aclrtSynchronizeStream(s));
  E2E_CHECK(aclrtMemcpy(hc.data(), hc.size() * 2, c, hc.size() * 2, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int64_t i = 0; i < n; i += 37) {
    for (int64_t j = 0; j < n; j += 29) {
      double ref = 0, mag = 0;
      for (int64_t k = 0; k < n; ++k) {
        const double p = static_cast<double>(aclFloat16ToFloat(ha[i * n + k])) *
                         aclFloat16ToFloat(hb[k * n + j]);
        ref += p;
        mag += std::fabs(p);
      }
      E2E_EXPECT(close(aclFloat16ToFloat(hc[i * n + j]), ref, mag));
    }
  }
  aclDestroyTensor(ta);
  aclDestroyTensor(tb);
  aclDestroyTensor(tc);
  e2e_free({a, b, c});
}

void convolution(aclrtStream s) {
  const int64_t c = 32, h = 28, k = 3, o = 32;
  const std::vector<uint16_t> hx = values(c * h * h, 17), hw = values(o * c * k * k, 13),
                              hb = values(o, 5);
  std::vector<uint16_t> hy(o * h * h);
  void* x = upload(hx);
  void* w = upload(hw);
  void* b = upload(hb);
  void* y = upload(hy);
  aclTensor* tx = tensor({1, c, h, h}, x);
  aclTensor* tw = tensor({o, c, k, k}, w);
  aclTensor* tb = tensor({o}, b);
  aclTensor* ty = tensor({1, o, h, h}, y);
  int64_t one[2] = {1, 1}, zero[2] = {0, 0};
  aclIntArray* stride = aclCreateIntArray(one, 2);
  aclIntArray* pad = aclCreateIntArray(one, 2);
  aclIntArray* dil = aclCreateIntArray(one, 2);
  aclIntArray* out_pad = aclCreateIntArray(zero, 2);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  E2E_CHECK(aclnnConvolutionGetWorkspaceSize(tx, tw, tb, stride, pad, dil, false, out_pad, 1, ty, 0,
                                             &ws, &ex));
  void* wsp = nullptr;
  E2E_CHECK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
  E2E_CHECK(aclnnConvolution(wsp, ws, ex, s));
  E2E_CHECK(aclrtSynchronizeStream(s));
  E2E_CHECK(aclrtMemcpy(hy.data(), hy.size() * 2, y, hy.size() * 2, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int64_t oc = 0; oc < o; oc += 5) {
    for (int64_t r = 0; r < h; r += 3) {
      for (int64_t q = 0; q < h; q += 4) {
        double ref = aclFloat16ToFloat(hb[oc]), mag = std::fabs(ref);
        for (int64_t ci = 0; ci < c; ++ci)
          for (int64_t i = 0; i < k; ++i)
            for (int64_t j = 0; j < k; ++j) {
              const int64_t ih = r - 1 + i, iw = q - 1 + j;
              if (ih < 0 || ih >= h || iw < 0 || iw >= h) continue;
              const double p = static_cast<double>(aclFloat16ToFloat(hx[(ci * h + ih) * h + iw])) *
                               aclFloat16ToFloat(hw[((oc * c + ci) * k + i) * k + j]);
              ref += p;
              mag += std::fabs(p);
            }
        E2E_EXPECT(close(aclFloat16ToFloat(hy[(oc * h + r) * h + q]), ref, mag));
      }
    }
  }
  aclDestroyIntArray(stride);
  aclDestroyIntArray(pad);
  aclDestroyIntArray(dil);
  aclDestroyIntArray(out_pad);
  aclDestroyTensor(tx);
  aclDestroyTensor(tw);
  aclDestroyTensor(tb);
  aclDestroyTensor(ty);
  e2e_free({wsp, x, w, b, y});
}

}  // namespace

int main() {
  aclrtStream s = e2e_open(0);
  matmul(s, 256);
  matmul(s, 512);
  convolution(s);
  e2e_close(s, 0);
  std::printf("aclnn matmul family: results match\n");
  return 0;
}
