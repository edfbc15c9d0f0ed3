// SPDX-License-Identifier: Apache-2.0
// Host program of the e2e kernel project: links only the e2e_kernels target (which brings the
// runtime) and launches the kernels through their <<<>>> launchers. One check per argument:
//   vector_add  float and fp16 add on 1..48 blocks: exact / correctly rounded results
//   softmax     fp16 row softmax on 1..48 blocks: within one fp16 ulp of the exact result
//   timing      simulated kernel times follow the model: more cores and double buffering help,
//               48 blocks under a cap of 8 cores take 6 waves
//   trap        a trapping block fails the task: synchronize returns 507035; blockDim 0 is
//               refused by the launch itself
//   printf      device printf lines (run by e2e.sh, which checks their order)
// Exit code 0 = pass; failures name the check on stderr.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../e2e_common.h"
#include "e2e_kernels.h"

namespace {

#define CHECK_ACL(call) E2E_CHECK(call)

#define EXPECT(cond, ...)                                                  \
  do {                                                                     \
    if (!(cond)) {                                                         \
      std::fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                   \
      std::fprintf(stderr, "\n");                                          \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

constexpr uint32_t kMaxBlocks = 48;

/// Device buffer of n elements of T, freed at scope exit.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t n) : bytes_(n * sizeof(T)) {
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&ptr_), bytes_, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  ~DeviceBuffer() { aclrtFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return ptr_; }
  void upload(const std::vector<T>& v) {
    CHECK_ACL(aclrtMemcpy(ptr_, bytes_, v.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE));
  }
  std::vector<T> download() const {
    std::vector<T> v(bytes_ / sizeof(T));
    CHECK_ACL(aclrtMemcpy(v.data(), bytes_, ptr_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  }
  void clear() { CHECK_ACL(aclrtMemset(ptr_, bytes_, 0, bytes_)); }

 private:
  size_t bytes_;
  T* ptr_ = nullptr;
};

std::vector<float> random_floats(size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

std::vector<uint16_t> to_half(const std::vector<float>& v) {
  std::vector<uint16_t> h(v.size());
  for (size_t i = 0; i < v.size(); ++i) h[i] = aclFloatToFloat16(v[i]);
  return h;
}

int check_vector_add(aclrtStream stream) {
  constexpr uint32_t kTiles = 240;
  constexpr size_t kN = size_t{kTiles} * kVaddTile;
  const std::vector<float> a = random_floats(kN, -1000.0f, 1000.0f, 1);
  const std::vector<float> b = random_floats(kN, -1000.0f, 1000.0f, 2);
  const std::vector<uint16_t> ah = to_half(random_floats(kN, 1.0f, 100.0f, 3));
  const std::vector<uint16_t> bh = to_half(random_floats(kN, 1.0f, 100.0f, 4));
  DeviceBuffer<float> da(kN), db(kN), dc(kN);
  DeviceBuffer<uint16_t> dah(kN), dbh(kN), dch(kN);
  da.upload(a);
  db.upload(b);
  dah.upload(ah);
  dbh.upload(bh);
  for (uint32_t blocks = 1; blocks <= kMaxBlocks; ++blocks) {
    dc.clear();
    dch.clear();
    EXPECT(VaddFloatDo(blocks, stream, da.get(), db.get(), dc.get(), kTiles) == 0, "launch");
    EXPECT(VaddHalfDo(blocks, stream, dah.get(), dbh.get(), dch.get(), kTiles) == 0, "launch");
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<float> c = dc.download();
    const std::vector<uint16_t> ch = dch.download();
    for (size_t i = 0; i < kN; ++i) {
      EXPECT(c[i] == a[i] + b[i], "float, %u blocks, element %zu: %g != %g", blocks, i, c[i],
             a[i] + b[i]);
      // The sum of two fp16 values is exact in fp32: rounding it once is the correct fp16 sum.
      const uint16_t want = aclFloatToFloat16(aclFloat16ToFloat(ah[i]) + aclFloat16ToFloat(bh[i]));
      EXPECT(ch[i] == want, "fp16, %u blocks, element %zu: 0x%04x != 0x%04x", blocks, i, ch[i],
             want);
    }
  }
  std::printf("vector_add: float and fp16 exact on 1..%u blocks\n", kMaxBlocks);
  return 0;
}

/// softmax of one row in double, rounded to fp16.
std::vector<uint16_t> softmax_reference(const uint16_t* x) {
  double max = -INFINITY;
  for (uint32_t i = 0; i < kSoftmaxCols; ++i) max = std::fmax(max, aclFloat16ToFloat(x[i]));
  std::vector<double> e(kSoftmaxCols);
  double sum = 0;
  for (uint32_t i = 0; i < kSoftmaxCols; ++i) {
    e[i] = std::exp(aclFloat16ToFloat(x[i]) - max);
    sum += e[i];
  }
  std::vector<uint16_t> y(kSoftmaxCols);
  for (uint32_t i = 0; i < kSoftmaxCols; ++i) y[i] = aclFloatToFloat16(static_cast<float>(e[i] / sum));
  return y;
}

int check_softmax(aclrtStream stream) {
  constexpr uint32_t kRows = 100;  // not a multiple of most block counts: uneven shares
  constexpr size_t kN = size_t{kRows} * kSoftmaxCols;
  const std::vector<uint16_t> x = to_half(random_floats(kN, -6.0f, 6.0f, 5));
  std::vector<uint16_t> want(kN);
  for (uint32_t r = 0; r < kRows; ++r) {
    const std::vector<uint16_t> row = softmax_reference(&x[size_t{r} * kSoftmaxCols]);
    std::copy(row.begin(), row.end(), want.begin() + size_t{r} * kSoftmaxCols);
  }
  DeviceBuffer<uint16_t> dx(kN), dy(kN);
  dx.upload(x);
  for (uint32_t blocks = 1; blocks <= kMaxBlocks; ++blocks) {
    dy.clear();
    EXPECT(SoftmaxHalfDo(blocks, stream, dx.get(), dy.get(), kRows) == 0, "launch");
    CHECK_ACL(aclrtSynchronizeStream(stream));
    const std::vector<uint16_t> y = dy.download();
    for (size_t i = 0; i < kN; ++i) {
      // fp32 math then one rounding: at most one fp16 ulp from the correctly rounded result.
      const float got = aclFloat16ToFloat(y[i]);
      const float ref = aclFloat16ToFloat(want[i]);
      EXPECT(std::fabs(got - ref) <= std::fabs(ref) * 0x1p-10f + 0x1p-24f,
             "%u blocks, element %zu: %g, want %g", blocks, i, got, ref);
    }
  }
  std::printf("softmax: fp16 rows within 1 ulp on 1..%u blocks\n", kMaxBlocks);
  return 0;
}

/// Simulated time of one launch (events around it), in ms.
template <class Launch>
float timed(aclrtStream stream, Launch launch) {
  aclrtEvent start = nullptr, end = nullptr;
  e2e_create_events({&start, &end});
  const float ms = e2e_timed_ms(stream, start, end, [&] { EXPECT(launch() == 0, "launch"); });
  e2e_destroy_events({start, end});
  return ms;
}

int check_timing(aclrtStream stream) {
  constexpr uint32_t kTiles = 48 * 64;  // 3 MiB per operand
  constexpr size_t kN = size_t{kTiles} * kVaddTile;
  DeviceBuffer<float> a(kN), b(kN), c(kN);
  a.upload(random_floats(kN, -1.0f, 1.0f, 6));
  b.upload(random_floats(kN, -1.0f, 1.0f, 7));
  auto vadd = [&](uint32_t blocks) {
    return timed(stream, [&] { return VaddFloatDo(blocks, stream, a.get(), b.get(), c.get(), kTiles); });
  };
  const float t1 = vadd(1), t8 = vadd(8), t48 = vadd(48);
  const float single8 = timed(stream, [&] {
    return VaddFloatSingleBufferDo(8, stream, a.get(), b.get(), c.get(), kTiles);
  });
  std::printf("timing: vadd 3 MiB x3: 1 block %.4f ms, 8 blocks %.4f ms, 48 blocks %.4f ms; "
              "8 blocks single-buffered %.4f ms\n", t1, t8, t48, single8);
  EXPECT(t1 > 0 && t8 > 0 && t48 > 0, "kernels take simulated time");
  EXPECT(t1 > 3.0f * t8, "8 cores are much faster than 1 (%.4f vs %.4f ms)", t8, t1);
  EXPECT(t48 <= t8 * 1.05f, "48 blocks are not slower than 8 (%.4f vs %.4f ms)", t48, t8);
  // Waves: under a cap of 8 vector cores, blocks of equal work (64 tiles) run in waves of 8, so
  // 48 blocks take 5 waves more than 8 blocks, and 16 blocks one more (differences cancel the
  // fixed launch cost).
  CHECK_ACL(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 8));
  auto capped = [&](uint32_t blocks) {
    return timed(stream, [&] {
      return VaddFloatDo(blocks, stream, a.get(), b.get(), c.get(), blocks * 64);
    });
  };
  const float w8 = capped(8), w16 = capped(16), w48 = capped(48);
  CHECK_ACL(aclrtResetDeviceResLimit(0));
  const float waves = 1.0f + (w48 - w8) / (w16 - w8);
  std::printf("timing: cap 8 vector cores: 8/16/48 blocks %.4f/%.4f/%.4f ms = %.2f waves\n", w8,
              w16, w48, waves);
  EXPECT(waves > 5.5f && waves < 6.5f, "48 blocks on 8 cores take 6 waves");
  EXPECT(single8 > 1.1f * t8, "double buffering shortens the kernel (%.4f vs %.4f ms)", t8,
         single8);
  return 0;
}

int check_trap(aclrtStream stream) {
  DeviceBuffer<uint32_t> marks(4);
  marks.clear();
  EXPECT(VaddFloatDo(0, stream, nullptr, nullptr, nullptr, 0) != 0,
         "blockDim 0 is refused by the launch");
  EXPECT(TrapDo(4, stream, marks.get()) == 0, "the trapping kernel is queued");
  const aclError sync = aclrtSynchronizeStream(stream);
  std::printf("trap: synchronize returned %d\n", sync);
  EXPECT(sync == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, "sync reports the device exception (%d)",
         sync);
  return 0;
}

int check_printf(aclrtStream stream) {
  std::printf("host: launch 1\n");
  std::fflush(stdout);
  EXPECT(PrintDo(8, stream, 1) == 0, "launch");
  CHECK_ACL(aclrtSynchronizeStream(stream));
  std::printf("host: synchronized 1\n");
  std::fflush(stdout);
  EXPECT(PrintDo(3, stream, 2) == 0, "launch");
  return 0;  // main destroys the stream without synchronizing: the lines must still appear
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  aclrtStream stream = e2e_open(0);
  int rc = 2;
  if (what == "vector_add") rc = check_vector_add(stream);
  if (what == "softmax") rc = check_softmax(stream);
  if (what == "timing") rc = check_timing(stream);
  if (what == "trap") rc = check_trap(stream);
  if (what == "printf") rc = check_printf(stream);
  if (rc == 2) std::fprintf(stderr, "usage: kernel_e2e vector_add|softmax|timing|trap|printf\n");
  if (what == "trap") {
    CHECK_ACL(aclrtDestroyStreamForce(stream));
  } else {
    CHECK_ACL(aclrtDestroyStream(stream));
  }
  if (what == "printf") {
    std::printf("host: stream destroyed\n");
    std::fflush(stdout);
  }
  CHECK_ACL(aclrtResetDeviceForce(0));
  CHECK_ACL(aclFinalize());
  return rc;
}
