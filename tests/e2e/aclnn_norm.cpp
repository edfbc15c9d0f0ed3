// SPDX-License-Identifier: Apache-2.0
// The norm operator family on the simulated chip: aclnnRmsNorm and aclnnSoftmax on 64 and 256
// rows of 4096 (results checked), then aclnnLayerNorm (FLOAT16, with weight / bias / mean /
// rstd), aclnnAddRmsNorm, aclnnBatchNorm (inference), aclnnReduceSum, aclnnMean, aclnnAmax and
// aclnnAmin once each. e2e.sh
// checks their op_summary.csv rows (vector-core tasks with vector time; time grows with size).
#include <cmath>
#include <cstdint>
#include <vector>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_softmax.h"
#include "e2e_common.h"

namespace {

aclrtStream g_stream = nullptr;

struct Dev {
  void* p = nullptr;
  aclTensor* t = nullptr;
  std::int64_t n = 0;
};

// A FLOAT (or FLOAT16 when `half` is set: values stored as fp16 bits) device tensor.
Dev make(std::vector<std::int64_t> shape, const std::vector<float>& values, bool half = false) {
  Dev d;
  d.n = 1;
  for (std::int64_t s : shape) d.n *= s;
  const std::size_t bytes = static_cast<std::size_t>(d.n) * (half ? 2 : 4);
  E2E_CHECK(aclrtMalloc(&d.p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  if (!values.empty()) {
    if (half) {
      std::vector<aclFloat16> h(values.size());
      for (std::size_t i = 0; i < values.size(); ++i) h[i] = aclFloatToFloat16(values[i]);
      E2E_CHECK(aclrtMemcpy(d.p, bytes, h.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    } else {
      E2E_CHECK(aclrtMemcpy(d.p, bytes, values.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
  }
  d.t = aclCreateTensor(shape.data(), shape.size(), half ? ACL_FLOAT16 : ACL_FLOAT, nullptr, 0,
                        ACL_FORMAT_ND, shape.data(), shape.size(), d.p);
  E2E_EXPECT(d.t != nullptr);
  return d;
}

std::vector<float> get(const Dev& d) {
  std::vector<float> v(static_cast<std::size_t>(d.n));
  E2E_CHECK(aclrtMemcpy(v.data(), v.size() * 4, d.p, v.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  return v;
}

void release(Dev& d) {
  E2E_CHECK(aclDestroyTensor(d.t));
  E2E_CHECK(aclrtFree(d.p));
}

template <class First, class Second>
void run(First first, Second second) {
  uint64_t ws_size = 0;
  aclOpExecutor* ex = nullptr;
  E2E_CHECK(first(&ws_size, &ex));
  void* ws = nullptr;
  if (ws_size > 0) E2E_CHECK(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST));
  E2E_CHECK(second(ws, ws_size, ex, g_stream));
  E2E_CHECK(aclrtSynchronizeStream(g_stream));
  if (ws != nullptr) E2E_CHECK(aclrtFree(ws));
}

std::vector<float> pattern(std::int64_t n, float seed) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = 2.0f * std::sin(0.37f * static_cast<float>(i) + seed);
  return v;
}

void rows_and_softmax(std::int64_t rows) {
  const std::int64_t len = 4096;
  const std::vector<float> xv = pattern(rows * len, 1.0f);
  Dev x = make({rows, len}, xv), g = make({len}, std::vector<float>(len, 2.0f));
  Dev y = make({rows, len}, {}), rstd = make({rows, 1}, {}), s = make({rows, len}, {});
  run(
      [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnRmsNormGetWorkspaceSize(x.t, g.t, 1e-6, y.t, rstd.t, w, e);
      },
      aclnnRmsNorm);
  run([&](uint64_t* w,
          aclOpExecutor** e) { return aclnnSoftmaxGetWorkspaceSize(x.t, -1, s.t, w, e); },
      aclnnSoftmax);
  const std::vector<float> yv = get(y), rv = get(rstd), sv = get(s);
  for (std::int64_t r = 0; r < rows; r += rows / 4) {
    double ss = 0, sum = 0;
    for (std::int64_t i = 0; i < len; ++i) ss += double(xv[r * len + i]) * xv[r * len + i];
    const double want = 1.0 / std::sqrt(ss / len + 1e-6);
    E2E_EXPECT(e2e_near(rv[r], want, 1e-5));
    E2E_EXPECT(e2e_near(yv[r * len + 7], xv[r * len + 7] * want * 2.0, 1e-4));
    for (std::int64_t i = 0; i < len; ++i) sum += sv[r * len + i];
    E2E_EXPECT(e2e_near(sum, 1.0, 1e-4));
  }
  for (Dev* d : {&x, &g, &y, &rstd, &s}) release(*d);
}

}  // namespace

int main() {
  E2E_CHECK(aclInit(nullptr));
  E2E_CHECK(aclrtSetDevice(0));
  E2E_CHECK(aclrtCreateStream(&g_stream));
  rows_and_softmax(64);
  rows_and_softmax(256);

  // LayerNorm, FLOAT16 with FLOAT16 weight / bias and FLOAT16 mean / rstd (Cast launches around).
  {
    Dev x = make({32, 1000}, pattern(32000, 2.0f), true),
        w = make({1000}, pattern(1000, 3.0f), true);
    Dev b = make({1000}, pattern(1000, 4.0f), true), y = make({32, 1000}, {}, true);
    Dev m = make({32, 1}, {}), r = make({32, 1}, {});
    aclIntArray* shape = aclCreateIntArray(std::vector<std::int64_t>{1000}.data(), 1);
    run(
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnLayerNormGetWorkspaceSize(x.t, shape, w.t, b.t, 1e-5, y.t, m.t, r.t, ws, e);
        },
        aclnnLayerNorm);
    const std::vector<float> mv = get(m);
    double mean0 = 0;
    for (float v : pattern(1000, 2.0f)) mean0 += v;
    E2E_EXPECT(std::fabs(mv[0] - mean0 / 1000) < 2e-3);
    E2E_CHECK(aclDestroyIntArray(shape));
    for (Dev* d : {&x, &w, &b, &y, &m, &r}) release(*d);
  }
  // AddRmsNorm, FLOAT16: x = x1 + x2 (xOut), normalised.
  {
    Dev a = make({8, 512}, pattern(4096, 7.0f), true),
        b = make({8, 512}, pattern(4096, 8.0f), true);
    Dev g = make({512}, std::vector<float>(512, 1.0f), true), y = make({8, 512}, {}, true);
    Dev r = make({8, 1}, {}), xo = make({8, 512}, {}, true);
    run(
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnAddRmsNormGetWorkspaceSize(a.t, b.t, g.t, 1e-6, y.t, r.t, xo.t, ws, e);
        },
        aclnnAddRmsNorm);
    const std::vector<float> av = pattern(4096, 7.0f), bv = pattern(4096, 8.0f);
    double ss = 0;
    for (int i = 0; i < 512; ++i) ss += double(av[i] + bv[i]) * (av[i] + bv[i]);
    E2E_EXPECT(e2e_near(get(r)[0], 1.0 / std::sqrt(ss / 512 + 1e-6), 5e-3));
    for (Dev* d : {&a, &b, &g, &y, &r, &xo}) release(*d);
  }
  // BatchNorm inference on NCHW 8 x 16 x 14 x 14.
  {
    Dev x = make({8, 16, 14, 14}, pattern(8 * 16 * 196, 5.0f)), y = make({8, 16, 14, 14}, {});
    Dev w = make({16}, std::vector<float>(16, 1.5f)), b = make({16}, std::vector<float>(16, 0.25f));
    Dev rm = make({16}, std::vector<float>(16, 0.5f)),
        rv = make({16}, std::vector<float>(16, 4.0f));
    run(
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnBatchNormGetWorkspaceSize(x.t, w.t, b.t, rm.t, rv.t, false, 0.1, 0.0, y.t,
                                                nullptr, nullptr, ws, e);
        },
        aclnnBatchNorm);
    const std::vector<float> xv = get(x), yv = get(y);
    E2E_EXPECT(e2e_near(yv[1234], (xv[1234] - 0.5) / 2.0 * 1.5 + 0.25, 1e-5));
    for (Dev* d : {&x, &y, &w, &b, &rm, &rv}) release(*d);
  }
  // ReduceSum over dims {0, 2}, Mean over the last axis, Amax over every axis.
  {
    const std::vector<float> xv = pattern(16 * 64 * 128, 6.0f);
    Dev x = make({16, 64, 128}, xv), sum = make({64}, {}), mean = make({16, 64, 1}, {});
    Dev mx = make({}, {});
    aclIntArray* d02 = aclCreateIntArray(std::vector<std::int64_t>{0, 2}.data(), 2);
    aclIntArray* last = aclCreateIntArray(std::vector<std::int64_t>{-1}.data(), 1);
    aclIntArray* all = aclCreateIntArray(nullptr, 0);
    run(
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnReduceSumGetWorkspaceSize(x.t, d02, false, ACL_FLOAT, sum.t, ws, e);
        },
        aclnnReduceSum);
    run(
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnMeanGetWorkspaceSize(x.t, last, true, ACL_FLOAT, mean.t, ws, e);
        },
        aclnnMean);
    run([&](uint64_t* ws,
            aclOpExecutor** e) { return aclnnAmaxGetWorkspaceSize(x.t, all, false, mx.t, ws, e); },
        aclnnAmax);
    double s5 = 0, m0 = 0, best = -1e30;
    for (std::int64_t a = 0; a < 16; ++a)
      for (std::int64_t c = 0; c < 128; ++c)
        s5 += xv[static_cast<std::size_t>((a * 64 + 5) * 128 + c)];
    for (std::int64_t c = 0; c < 128; ++c) m0 += xv[static_cast<std::size_t>(c)];
    for (float v : xv) best = v > best ? v : best;
    E2E_EXPECT(std::fabs(get(sum)[5] - s5) < 1e-3);
    E2E_EXPECT(std::fabs(get(mean)[0] - m0 / 128) < 1e-5);
    E2E_EXPECT(get(mx)[0] == static_cast<float>(best));
    run([&](uint64_t* ws,
            aclOpExecutor** e) { return aclnnAminGetWorkspaceSize(x.t, all, false, mx.t, ws, e); },
        aclnnAmin);
    double least = 1e30;
    for (float v : xv) least = v < least ? v : least;
    E2E_EXPECT(get(mx)[0] == static_cast<float>(least));
    E2E_CHECK(aclDestroyIntArray(d02));
    E2E_CHECK(aclDestroyIntArray(last));
    E2E_CHECK(aclDestroyIntArray(all));
    for (Dev* d : {&x, &sum, &mean, &mx}) release(*d);
  }
  E2E_CHECK(aclrtDestroyStream(g_stream));
  E2E_CHECK(aclrtResetDevice(0));
  E2E_CHECK(aclFinalize());
  return 0;
}
