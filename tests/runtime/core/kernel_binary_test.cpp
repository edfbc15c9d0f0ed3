// SPDX-License-Identifier: Apache-2.0
// The binary launch path on FakeBackend: loading a kernel binary (a shared object like the ones
// ascendc_fatbin_library installs), finding kernels, argument lists with placeholders, the launch
// variants and their configuration, bad input.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

using ::testing::internal::CaptureStdout;
using ::testing::internal::GetCapturedStdout;

class BinaryTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    out_ = static_cast<int32_t*>(dev_alloc(64));
    ASSERT_EQ(aclrtMemset(out_, 64, 0, 64), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_FATBIN, nullptr, &bin_), ACL_SUCCESS);
  }
  std::vector<int32_t> out(size_t n) { return download<int32_t>(out_, n); }
  aclrtFuncHandle func(const char* name) {
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(bin_, name, &f), ACL_SUCCESS);
    return f;
  }
  // mixed(int8 a, GM_ADDR out, int16 b, double c) with all four arguments appended.
  aclrtArgsHandle mixed_args(aclrtFuncHandle f, int8_t a, int16_t b, double c) {
    aclrtArgsHandle args = nullptr;
    aclrtParamHandle p = nullptr;
    EXPECT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsAppend(args, &a, 1, &p), ACL_SUCCESS);
    void* o = out_;
    EXPECT_EQ(aclrtKernelArgsAppend(args, &o, sizeof(uintptr_t), &p), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsAppend(args, &b, 2, &b_param_), ACL_SUCCESS);
    EXPECT_EQ(aclrtKernelArgsAppend(args, &c, 8, &p), ACL_SUCCESS);
    return args;
  }
  const FakeBackend::TaskTrace* last_kernel() {
    for (auto it = fake().tasks().rbegin(); it != fake().tasks().rend(); ++it) {
      if (it->kind == TaskKind::kKernel) return &*it;
    }
    return nullptr;
  }

  int32_t* out_ = nullptr;
  aclrtBinHandle bin_ = nullptr;
  aclrtParamHandle b_param_ = nullptr;
};

TEST_F(BinaryTest, ParameterLayoutComesFromTheKernel) {
  aclrtFuncHandle f = func("mixed");
  size_t count = 0, offset = 0, size = 0;
  ASSERT_EQ(aclrtFunctionGetParamCount(f, &count), ACL_SUCCESS);
  EXPECT_EQ(count, 4u);
  const size_t offsets[] = {0, 8, 16, 24}, sizes[] = {1, 8, 2, 8};
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_EQ(aclrtFunctionGetParamInfo(f, i, &offset, &size), ACL_SUCCESS);
    EXPECT_EQ(offset, offsets[i]) << i;
    EXPECT_EQ(size, sizes[i]) << i;
  }
  EXPECT_EQ(aclrtFunctionGetParamInfo(f, 4, &offset, &size), ACL_ERROR_INVALID_PARAM);
  char name[16];
  ASSERT_EQ(aclrtGetFunctionName(f, sizeof name, name), ACL_SUCCESS);
  EXPECT_STREQ(name, "mixed");
  aclrtBinHandle b = nullptr;
  ASSERT_EQ(aclrtFunctionGetBinary(f, &b), ACL_SUCCESS);
  EXPECT_EQ(b, bin_);
  EXPECT_EQ(func("mixed"), f);  // the same kernel, the same handle
}

TEST_F(BinaryTest, LaunchWithConfigPacksTheArgumentsInOrder) {
  aclrtFuncHandle f = func("mixed");
  aclrtArgsHandle args = mixed_args(f, -3, 1234, 77.9);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(f, 5, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out(4), (std::vector<int32_t>{-3, 1234, 77, 5}));
  ASSERT_NE(last_kernel(), nullptr);
  EXPECT_EQ(last_kernel()->name, "mixed");
  EXPECT_EQ(last_kernel()->blocks_run, 5u);
  // An update needs a new finalize; the next launch sees the new value.
  int16_t b = -8;
  ASSERT_EQ(aclrtKernelArgsParaUpdate(args, b_param_, &b, 2), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, stream_, nullptr, args, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(f, 1, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out(4), (std::vector<int32_t>{-3, -8, 77, 6}));
}

TEST_F(BinaryTest, PlaceholdersArePatchedWithDeviceCopiesOfTheirData) {
  aclrtFuncHandle f = func("tiling");
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle p = nullptr, len = nullptr, tiles = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  void* o = out_;
  ASSERT_EQ(aclrtKernelArgsAppend(args, &o, sizeof(uintptr_t), &p), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &len), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &tiles), ACL_SUCCESS);
  void* buf = nullptr;
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, len, 4, &buf), ACL_SUCCESS);
  *static_cast<int32_t*>(buf) = 16384;
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, tiles, 4, &buf), ACL_SUCCESS);
  *static_cast<int32_t*>(buf) = 8;
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  CaptureStdout();
  ASSERT_EQ(aclrtLaunchKernelWithConfig(f, 2, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  *static_cast<int32_t*>(buf) = 99;  // the launch took a copy
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(GetCapturedStdout(), "tiling block 0\ntiling block 1\n");
  EXPECT_EQ(out(2), (std::vector<int32_t>{16384, 8}));
  EXPECT_EQ(aclrtKernelArgsParaUpdate(args, len, &o, 8), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(BinaryTest, PlaceholderNeedsItsBufferAndAPointerParameter) {
  aclrtFuncHandle f = func("tiling");
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle p = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &p), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &p), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &p), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, stream_, nullptr, args, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  aclrtArgsHandle margs = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(func("mixed"), &margs), ACL_SUCCESS);
  EXPECT_EQ(aclrtKernelArgsAppendPlaceHolder(margs, &p), ACL_ERROR_RT_PARAM_INVALID);  // int8
}

TEST_F(BinaryTest, TooFewOrTooManyArgumentsAreRefused) {
  aclrtFuncHandle f = func("mixed");
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle p = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  int8_t a = 1;
  ASSERT_EQ(aclrtKernelArgsAppend(args, &a, 1, &p), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, stream_, nullptr, args, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("too few arguments"), std::string::npos);
  int64_t wide = 5;
  EXPECT_EQ(aclrtKernelArgsAppend(args, &wide, 8, &p), ACL_SUCCESS);  // a pointer slot
  EXPECT_EQ(aclrtKernelArgsAppend(args, &wide, 8, &p), ACL_ERROR_RT_PARAM_INVALID);  // int16
  aclrtArgsHandle full = mixed_args(f, 1, 2, 3.0);
  EXPECT_EQ(aclrtKernelArgsAppend(full, &a, 1, &p), ACL_ERROR_RT_PARAM_INVALID);  // a fifth
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("too many arguments"), std::string::npos);
  EXPECT_EQ(aclrtKernelArgsAppend(full, nullptr, 1, &p), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(last_kernel(), nullptr);
}

TEST_F(BinaryTest, HostArgsWithPlaceholderInfo) {
  aclrtFuncHandle f = func("tiling");
  struct {
    void* out;
    void* len;
    void* tiles;
    int32_t len_data;
    int32_t tiles_data;
  } host = {out_, nullptr, nullptr, 640, 12};
  aclrtPlaceHolderInfo ph[2] = {{8, 24}, {16, 28}};
  CaptureStdout();
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, stream_, nullptr, &host, sizeof host, ph, 2),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  GetCapturedStdout();
  EXPECT_EQ(out(2), (std::vector<int32_t>{640, 12}));
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, stream_, nullptr, &host, 16, nullptr, 0),
            ACL_ERROR_RT_PARAM_INVALID);  // shorter than the parameters
  aclrtPlaceHolderInfo bad[1] = {{40, 0}};
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, stream_, nullptr, &host, sizeof host, bad, 1),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(BinaryTest, DeviceArgsAreReadWhenTheKernelRuns) {
  aclrtFuncHandle f = func("mixed");
  unsigned char block[32] = {};
  block[0] = 9;
  void* o = out_;
  std::memcpy(block + 8, &o, 8);
  int16_t b = 4;
  std::memcpy(block + 16, &b, 2);
  double c = 2.5;
  std::memcpy(block + 24, &c, 8);
  void* dev_args = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev_args, sizeof block, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev_args, sizeof block, block, sizeof block, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernel(f, 2, dev_args, sizeof block, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out(4), (std::vector<int32_t>{9, 4, 2, 2}));
  EXPECT_EQ(aclrtLaunchKernel(f, 1, block, sizeof block, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtLaunchKernel(f, 1, dev_args, 16, stream_), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(BinaryTest, ArgsArrayTakesOnePointerPerParameter) {
  aclrtFuncHandle f = func("mixed");
  int8_t a = 7;
  void* o = out_;
  int16_t b = 6;
  double c = 5.0;
  void* args[] = {&a, &o, &b, &c};
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(f, 1, stream_, nullptr, args), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out(4), (std::vector<int32_t>{7, 6, 5, 1}));
  int symbol = 0;  // not a function handle: launching by symbol is not supported
  EXPECT_EQ(aclrtLaunchKernelWithArgsArray(&symbol, 1, stream_, nullptr, args),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST_F(BinaryTest, LaunchConfigSelectsSchedulingModeAndEngine) {
  aclrtFuncHandle f = func("mixed");
  aclrtArgsHandle args = mixed_args(f, 1, 1, 1.0);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 6), ACL_SUCCESS);
  aclrtLaunchKernelAttr attrs[2];
  attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
  attrs[0].value.schemMode = 1;
  attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
  attrs[1].value.engineType = ACL_RT_ENGINE_TYPE_AIC;
  aclrtLaunchKernelCfg cfg{attrs, 2};
  ASSERT_EQ(aclrtLaunchKernelWithConfig(f, 4, stream_, &cfg, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_NE(last_kernel(), nullptr);
  EXPECT_TRUE(last_kernel()->kernel->batch_mode);
  EXPECT_EQ(last_kernel()->kernel->core_type, models::CoreType::kAic);
  EXPECT_EQ(last_kernel()->kernel->max_cores, 6u);
  attrs[0].value.schemMode = 2;
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 4, stream_, &cfg, args, nullptr),
            ACL_ERROR_INVALID_PARAM);
  aclrtLaunchKernelCfg broken{nullptr, 1};
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 4, stream_, &broken, args, nullptr),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(BinaryTest, TrapInABinaryKernelReportsItsFunctionHandle) {
  static std::vector<aclrtFuncHandle> seen;
  seen.clear();
  ASSERT_EQ(aclrtSetExceptionInfoCallback([](aclrtExceptionInfo* info) {
              aclrtFuncHandle f = nullptr;
              aclrtGetFuncHandleFromExceptionInfo(info, &f);
              seen.push_back(f);
            }),
            ACL_SUCCESS);
  aclrtFuncHandle f = func("boom");
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(f, 2, stream_, nullptr, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(seen, std::vector<aclrtFuncHandle>{f});
  ASSERT_EQ(aclrtSetExceptionInfoCallback(nullptr), ACL_SUCCESS);
}

TEST_F(BinaryTest, UnloadWaitsForLaunchedKernelsAndInvalidatesHandles) {
  aclrtFuncHandle f = func("mixed");
  aclrtArgsHandle args = mixed_args(f, 2, 3, 4.0);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(f, 1, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS);  // the kernel has not run yet
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out(4), (std::vector<int32_t>{2, 3, 4, 1}));
  aclrtArgsHandle again = nullptr;
  EXPECT_EQ(aclrtKernelArgsInit(f, &again), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, stream_, nullptr, args, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryUnLoad(bin_), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(BinaryTest, LoadFromDataWorksLikeTheFile) {
  std::ifstream in(NPUSIM_TEST_FATBIN, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  aclrtBinHandle b = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &b), ACL_SUCCESS);
  aclrtFuncHandle f = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(b, "boom", &f), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(b), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryLoadFromData(bytes.data(), 0, nullptr, &b), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryLoadFromData("garbage", 7, nullptr, &b), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(BinaryTest, BadBinariesAndNamesAreReported) {
  aclrtFuncHandle f = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "no_such_kernel", &f), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("no_such_kernel"), std::string::npos);
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, nullptr, &f), ACL_ERROR_INVALID_PARAM);
  aclrtBinHandle b = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile("/nonexistent/kernel.o", nullptr, &b),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("/nonexistent/kernel.o"), std::string::npos);
  std::string corrupt = ::testing::TempDir() + "npusim_corrupt_kernel.o";
  std::ofstream(corrupt) << "this is not a kernel binary";
  EXPECT_EQ(aclrtBinaryLoadFromFile(corrupt.c_str(), nullptr, &b), ACL_ERROR_RT_PARAM_INVALID);
  std::remove(corrupt.c_str());
  EXPECT_EQ(aclrtBinaryLoadFromFile(nullptr, nullptr, &b), ACL_ERROR_INVALID_PARAM);
  aclrtBinaryLoadOption opt;
  opt.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
  opt.value.cpuKernelMode = 1;
  aclrtBinaryLoadOptions opts{&opt, 1};
  // The AI CPU kernel mode reads an operator information file (.json): a kernel binary is not one.
  EXPECT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_FATBIN, &opts, &b), ACL_ERROR_RT_PARAM_INVALID);
  opt.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
  opt.value.isLazyLoad = 1;
  EXPECT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_FATBIN, &opts, &b), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(reinterpret_cast<aclrtFuncHandle>(0x99), 1, stream_,
                                        nullptr, nullptr, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
}

}  // namespace
}  // namespace npusim::rt::testing
