// SPDX-License-Identifier: Apache-2.0
// The binary path: load the installed kernel binary out/fatbin/e2e_fatbin/e2e_fatbin.o (relative
// to the working directory, as the CANN samples do), look kernels up by name, marshal arguments
// with aclrtKernelArgs* and launch with aclrtLaunchKernelWithConfig. Checks fp16 vector add on
// 8 blocks and softmax on 48 blocks (a binary built from two sources), and that a missing binary
// or kernel name and a wrong argument count are errors. Exit code 0 = pass.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../e2e_common.h"

namespace {

#define CHECK_ACL(call) E2E_CHECK(call)
#define EXPECT(cond) E2E_EXPECT(cond)

constexpr const char* kBinary = "./out/fatbin/e2e_fatbin/e2e_fatbin.o";
constexpr uint32_t kTile = 256;       // kVaddTile of the kernels
constexpr uint32_t kCols = 128;       // kSoftmaxCols

/// Builds the argument list: device pointers, then one uint32 scalar.
aclrtArgsHandle make_args(aclrtFuncHandle f, std::vector<void*> ptrs, uint32_t scalar) {
  aclrtArgsHandle args = nullptr;
  CHECK_ACL(aclrtKernelArgsInit(f, &args));
  aclrtParamHandle param = nullptr;
  for (void*& p : ptrs) CHECK_ACL(aclrtKernelArgsAppend(args, &p, sizeof(void*), &param));
  CHECK_ACL(aclrtKernelArgsAppend(args, &scalar, sizeof(scalar), &param));
  CHECK_ACL(aclrtKernelArgsFinalize(args));
  return args;
}

void check_vadd(aclrtBinHandle bin, aclrtStream stream) {
  constexpr uint32_t kTiles = 64;
  constexpr size_t kN = size_t{kTiles} * kTile, kBytes = kN * sizeof(uint16_t);
  std::vector<uint16_t> a(kN), b(kN), c(kN);
  for (size_t i = 0; i < kN; ++i) {
    a[i] = aclFloatToFloat16(static_cast<float>(i % 1000) * 0.25f);
    b[i] = aclFloatToFloat16(1.5f);
  }
  void *da = e2e_malloc(kBytes), *db = e2e_malloc(kBytes), *dc = e2e_malloc(kBytes);
  CHECK_ACL(aclrtMemcpy(da, kBytes, a.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(db, kBytes, b.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  aclrtFuncHandle f = nullptr;
  CHECK_ACL(aclrtBinaryGetFunction(bin, "vadd_half", &f));
  aclrtArgsHandle args = make_args(f, {da, db, dc}, kTiles);
  CHECK_ACL(aclrtLaunchKernelWithConfig(f, 8, stream, nullptr, args, nullptr));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(c.data(), kBytes, dc, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < kN; ++i) {
    EXPECT(c[i] == aclFloatToFloat16(aclFloat16ToFloat(a[i]) + 1.5f));
  }
  // Too few arguments: the launch is refused.
  aclrtArgsHandle short_args = nullptr;
  aclrtParamHandle param = nullptr;
  CHECK_ACL(aclrtKernelArgsInit(f, &short_args));
  CHECK_ACL(aclrtKernelArgsAppend(short_args, &da, sizeof(void*), &param));
  EXPECT(aclrtKernelArgsFinalize(short_args) != ACL_SUCCESS ||
         aclrtLaunchKernelWithConfig(f, 8, stream, nullptr, short_args, nullptr) != ACL_SUCCESS);
  e2e_free({da, db, dc});
  std::printf("binary: vadd_half on 8 blocks correct\n");
}

void check_softmax(aclrtBinHandle bin, aclrtStream stream) {
  constexpr uint32_t kRows = 48;
  constexpr size_t kN = size_t{kRows} * kCols, kBytes = kN * sizeof(uint16_t);
  std::vector<uint16_t> x(kN), y(kN);
  for (size_t i = 0; i < kN; ++i) x[i] = aclFloatToFloat16(static_cast<float>(i % kCols) / 32.0f);
  void *dx = e2e_malloc(kBytes), *dy = e2e_malloc(kBytes);
  CHECK_ACL(aclrtMemcpy(dx, kBytes, x.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  aclrtFuncHandle f = nullptr;
  CHECK_ACL(aclrtBinaryGetFunction(bin, "softmax_half", &f));
  aclrtArgsHandle args = make_args(f, {dx, dy}, kRows);
  CHECK_ACL(aclrtLaunchKernelWithConfig(f, 48, stream, nullptr, args, nullptr));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtMemcpy(y.data(), kBytes, dy, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  double sum = 0;
  for (uint32_t i = 0; i < kCols; ++i) sum += std::exp(i / 32.0 - (kCols - 1) / 32.0);
  for (size_t i = 0; i < kN; ++i) {
    const double want = std::exp((i % kCols) / 32.0 - (kCols - 1) / 32.0) / sum;
    EXPECT(std::fabs(aclFloat16ToFloat(y[i]) - want) <= want * 0x1p-10 + 0x1p-24);
  }
  e2e_free({dx, dy});
  std::printf("binary: softmax_half on 48 blocks correct\n");
}

}  // namespace

int main() {
  aclrtStream stream = e2e_open(0);

  aclrtBinHandle missing = nullptr;
  EXPECT(aclrtBinaryLoadFromFile("./out/fatbin/none/none.o", nullptr, &missing) != ACL_SUCCESS);

  aclrtBinHandle bin = nullptr;
  CHECK_ACL(aclrtBinaryLoadFromFile(kBinary, nullptr, &bin));
  aclrtFuncHandle none = nullptr;
  EXPECT(aclrtBinaryGetFunction(bin, "no_such_kernel", &none) != ACL_SUCCESS);
  check_vadd(bin, stream);
  check_softmax(bin, stream);
  CHECK_ACL(aclrtBinaryUnLoad(bin));

  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDeviceForce(0));
  CHECK_ACL(aclFinalize());
  std::printf("PASS binary_e2e\n");
  return 0;
}
