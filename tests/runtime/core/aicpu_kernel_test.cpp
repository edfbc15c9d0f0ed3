// SPDX-License-Identifier: Apache-2.0
// AI CPU kernels on FakeBackend: loading through an operator information file (and from data
// with aclrtRegisterCpuFunc), argument lists, host argument blocks and placeholders, the
// counted work handed to the AI CPU unit, errors of the kernels and of bad input.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "models/aicpu_config.h"
#include "npusim/ascendc/launch.h"
#include "tests/runtime/core/aicpu_kernels.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

aclrtBinaryLoadOptions cpu_mode(aclrtBinaryLoadOption& option, int32_t mode) {
  option.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
  option.value.cpuKernelMode = mode;
  return aclrtBinaryLoadOptions{&option, 1};
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

class AiCpuTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    aclrtBinaryLoadOption option;
    aclrtBinaryLoadOptions options = cpu_mode(option, 1);
    ASSERT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_AICPU_JSON, &options, &bin_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&out_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(out_, 64, 0, 64), ACL_SUCCESS);
  }
  aclrtFuncHandle func(const char* op) {
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(bin_, op, &f), ACL_SUCCESS);
    return f;
  }
  const FakeBackend::TaskTrace* last_aicpu() {
    for (auto it = fake().tasks().rbegin(); it != fake().tasks().rend(); ++it) {
      if (it->kind == TaskKind::kAiCpu) return &*it;
    }
    return nullptr;
  }
  std::int64_t out0() {
    std::int64_t v = 0;
    EXPECT_EQ(aclrtMemcpy(&v, 8, out_, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return v;
  }
  // One block of kernel `name` with the host argument block `args`, run to completion; its task.
  const FakeBackend::TaskTrace* run_once(const char* name, void* args, std::size_t size) {
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(func(name), 1, stream_, nullptr, args, size, nullptr,
                                            0),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    return last_aicpu();
  }
  // CountOdd over n through one host argument block; the basic blocks it counted.
  std::uint64_t count_odd(std::uint64_t n) {
    CountArgs a{n, static_cast<std::uint64_t*>(out_)};
    const FakeBackend::TaskTrace* t = run_once("CountOp", &a, sizeof a);
    return t != nullptr ? t->aicpu.basic_blocks : 0;
  }
  // SumInt64 over the first n values of `in`; the device-memory bytes it counted.
  std::uint64_t sum_bytes(void* in, std::uint64_t n) {
    SumArgs a{static_cast<const std::int64_t*>(in), static_cast<std::int64_t*>(out_), n};
    const FakeBackend::TaskTrace* t = run_once("SumOp", &a, sizeof a);
    return t != nullptr ? t->aicpu.bytes : 0;
  }

  aclrtBinHandle bin_ = nullptr;
  void* out_ = nullptr;
};

TEST_F(AiCpuTest, ArgumentListLaunchRunsTheKernelAsAnAiCpuTask) {
  std::vector<std::int64_t> values = {5, -2, 40, 1000, 7};
  void* in = nullptr;
  ASSERT_EQ(aclrtMalloc(&in, 40, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(in, 40, values.data(), 40, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  SumArgs a{static_cast<const std::int64_t*>(in), static_cast<std::int64_t*>(out_), 5};
  aclrtFuncHandle f = func("SumOp");
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle p = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(args, &a, sizeof a, &p), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(f, 1, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out0(), 1050);
  const FakeBackend::TaskTrace* t = last_aicpu();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->name, "SumOp");
  EXPECT_EQ(t->blocks_run, 1u);
  EXPECT_GT(t->aicpu.basic_blocks, 5u);  // the loop's blocks were counted
  // Device memory touched: the five values read, the sum written, fields of the argument block.
  EXPECT_GE(t->aicpu.bytes, 5 * 8u + 8u);
  EXPECT_LE(t->aicpu.bytes, 5 * 8u + 8u + 5 * sizeof a);
  char name[16];
  ASSERT_EQ(aclrtGetFunctionName(f, sizeof name, name), ACL_SUCCESS);
  EXPECT_STREQ(name, "SumOp");
  EXPECT_EQ(aclrtFree(in), ACL_SUCCESS);
}

TEST_F(AiCpuTest, CountedWorkIsDeterministicAndLinearInTheWork) {
  const std::uint64_t b100 = count_odd(100);
  EXPECT_EQ(count_odd(100), b100);
  const std::uint64_t b200 = count_odd(200);
  const std::uint64_t b300 = count_odd(300);
  EXPECT_GT(b200, b100);
  EXPECT_EQ(b300 - b200, b200 - b100);  // the same basic blocks per iteration
  std::uint64_t odd = 0;
  ASSERT_EQ(aclrtMemcpy(&odd, 8, out_, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(odd, 150u);
}

TEST_F(AiCpuTest, DeviceMemoryBytesAreCountedPerAccess) {
  void* in = nullptr;
  ASSERT_EQ(aclrtMalloc(&in, 300 * 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(in, 300 * 8, 0, 300 * 8), ACL_SUCCESS);
  const std::uint64_t b100 = sum_bytes(in, 100);
  EXPECT_EQ(sum_bytes(in, 100), b100);
  EXPECT_EQ(sum_bytes(in, 200) - b100, 100 * 8u);  // one 8-byte read per element
  EXPECT_EQ(sum_bytes(in, 300) - b100, 200 * 8u);
  // Host memory the kernel touches (its stack, the library's data) is not device memory.
  EXPECT_LT(b100, 100 * 8u + 8u + 5 * sizeof(SumArgs));
  EXPECT_EQ(aclrtFree(in), ACL_SUCCESS);
}

TEST_F(AiCpuTest, BlockDimRunsTheKernelThatManyTimes) {
  CountArgs a{10, static_cast<std::uint64_t*>(out_)};
  const std::uint64_t one = count_odd(10);
  const std::uint64_t one_bytes = last_aicpu()->aicpu.bytes;
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(func("CountOp"), 3, stream_, nullptr, &a, sizeof a,
                                          nullptr, 0),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(last_aicpu()->blocks_run, 3u);
  EXPECT_EQ(last_aicpu()->aicpu.basic_blocks, 3 * one);
  EXPECT_EQ(last_aicpu()->aicpu.bytes, 3 * one_bytes);
  EXPECT_GE(one_bytes, 8u);  // at least the result written
}

TEST_F(AiCpuTest, PlaceholderDataFollowsTheParameters) {
  aclrtFuncHandle f = func("PlaceholderOp");
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle data = nullptr, p = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &data), ACL_SUCCESS);
  void* out = out_;
  std::uint64_t n = 4;
  ASSERT_EQ(aclrtKernelArgsAppend(args, &out, sizeof out, &p), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(args, &n, sizeof n, &p), ACL_SUCCESS);
  void* buffer = nullptr;
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, data, 32, &buffer), ACL_SUCCESS);
  const std::int64_t values[4] = {1, 20, 300, 4000};
  std::memcpy(buffer, values, sizeof values);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(f, 1, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out0(), 4321);
  EXPECT_GE(last_aicpu()->aicpu.bytes, 32u + 8u);  // the placeholder data read, the sum written
}

TEST_F(AiCpuTest, DeviceArgumentsAreReadWhenTheKernelRuns) {
  void* block = nullptr;
  ASSERT_EQ(aclrtMalloc(&block, sizeof(CountArgs), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CountArgs a{6, static_cast<std::uint64_t*>(out_)};
  ASSERT_EQ(aclrtMemcpy(block, sizeof a, &a, sizeof a, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernel(func("CountOp"), 1, block, sizeof a, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out0(), 3);
  // Outside device memory, or freed before the kernel runs.
  EXPECT_EQ(aclrtLaunchKernel(func("CountOp"), 1, &a, sizeof a, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtLaunchKernel(func("CountOp"), 1, block, sizeof a, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(block), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICPU_EXCEPTION);
}

TEST_F(AiCpuTest, FailingKernelsEndWithTheAiCpuException) {
  std::uint64_t zero = 0;
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(func("SevenOp"), 1, stream_, nullptr, &zero, 8,
                                          nullptr, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICPU_EXCEPTION);
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(func("ThrowOp"), 1, stream_, nullptr, &zero, 8,
                                          nullptr, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICPU_EXCEPTION);
  EXPECT_EQ(last_aicpu()->record.error, ACL_ERROR_RT_AICPU_EXCEPTION);
}

// Exception dump (runtime/dump/dump.h): a failed AI CPU task leaves its exception file.
TEST_F(AiCpuTest, ExceptionDumpWritesTheFailedTasksFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::absolute(fs::path(::testing::TempDir()) / "npusim_aicpu_exception");
  fs::remove_all(dir);
  const fs::path cfg = fs::path(::testing::TempDir()) / "npusim_aicpu_exception.json";
  std::ofstream(cfg) << R"({"dump": {"dump_path": ")" << dir.string()
                     << R"(", "dump_scene": "aic_err_brief_dump"}})";
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetDump(cfg.string().c_str()), ACL_SUCCESS);
  std::uint64_t zero = 0;
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(func("SevenOp"), 1, stream_, nullptr, &zero, 8,
                                          nullptr, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICPU_EXCEPTION);
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  const fs::path root = dir / "extra-info" / "data-dump" / "0";
  ASSERT_TRUE(fs::is_directory(root));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(root)) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].filename().string().rfind("SevenOp.0.", 0), 0u) << files[0];
  std::ifstream f(files[0]);
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_NE(text.str().find("\"error_code\": " + std::to_string(ACL_ERROR_RT_AICPU_EXCEPTION)),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("\"args\": \"0000000000000000\""), std::string::npos) << text.str();
}

TEST_F(AiCpuTest, AFailedTaskIsReportedToTheExceptionCallbacks) {
  struct Seen {
    aclrtFuncHandle func = nullptr;
    uint32_t error = 0;
    uint32_t args_size = 0;
  };
  static std::vector<Seen> seen;
  seen.clear();
  ASSERT_EQ(aclrtSetExceptionInfoCallback([](aclrtExceptionInfo* info) {
              Seen s;
              aclrtGetFuncHandleFromExceptionInfo(info, &s.func);
              s.error = aclrtGetErrorCodeFromExceptionInfo(info);
              void* args = nullptr;
              aclrtGetArgsFromExceptionInfo(info, &args, &s.args_size);
              seen.push_back(s);
            }),
            ACL_SUCCESS);
  aclrtFuncHandle f = func("SevenOp");
  std::uint64_t block[2] = {0, 0};
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, stream_, nullptr, block, sizeof block, nullptr,
                                          0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICPU_EXCEPTION);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].func, f);
  EXPECT_EQ(seen[0].error, static_cast<uint32_t>(ACL_ERROR_RT_AICPU_EXCEPTION));
  EXPECT_EQ(seen[0].args_size, sizeof block);
  ASSERT_EQ(aclrtSetExceptionInfoCallback(nullptr), ACL_SUCCESS);
}

TEST_F(AiCpuTest, ModeTwoLoadsTheLibraryFromDataAndRegistersItsFunctions) {
  std::ifstream in(NPUSIM_TEST_AICPU_SO, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  aclrtBinaryLoadOption option;
  aclrtBinaryLoadOptions options = cpu_mode(option, 2);
  aclrtBinHandle bin = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), &options, &bin), ACL_SUCCESS);
  aclrtFuncHandle f = nullptr;
  ASSERT_EQ(aclrtRegisterCpuFunc(bin, "CountOdd", "MyCount", &f), ACL_SUCCESS);
  CountArgs a{9, static_cast<std::uint64_t*>(out_)};
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, stream_, nullptr, &a, sizeof a, nullptr, 0),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out0(), 4);
  EXPECT_EQ(last_aicpu()->name, "MyCount");
  EXPECT_EQ(aclrtRegisterCpuFunc(bin, "NoSuchFunction", "X", &f), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtRegisterCpuFunc(bin, nullptr, "X", &f), ACL_ERROR_INVALID_PARAM);
  // Only AI CPU binaries loaded from data register CPU functions.
  EXPECT_EQ(aclrtRegisterCpuFunc(bin_, "CountOdd", "X", &f), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
}

TEST_F(AiCpuTest, BadInputIsRejected) {
  aclrtFuncHandle f = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "NoSuchOp", &f), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "MissingFn", &f), ACL_ERROR_RT_PARAM_INVALID);
  aclrtBinaryLoadOption option;
  aclrtBinaryLoadOptions mode2 = cpu_mode(option, 2);
  aclrtBinHandle b = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_AICPU_JSON, &mode2, &b), ACL_ERROR_RT_PARAM_INVALID);
  aclrtBinaryLoadOption option3;
  aclrtBinaryLoadOptions mode3 = cpu_mode(option3, 3);
  EXPECT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_AICPU_JSON, &mode3, &b), ACL_ERROR_RT_PARAM_INVALID);
  const std::string broken = write_file("aicpu_broken.json", "{\"Op\": {\"opInfo\": {");
  EXPECT_EQ(aclrtBinaryLoadFromFile(broken.c_str(), nullptr, &b), ACL_ERROR_RT_PARAM_INVALID);
  const std::string no_so = write_file("aicpu_no_so.json", "{\"Op\": {\"opInfo\": {\"functionName\": \"F\"}}}");
  EXPECT_EQ(aclrtBinaryLoadFromFile(no_so.c_str(), nullptr, &b), ACL_ERROR_RT_PARAM_INVALID);
  const std::string absent = write_file("aicpu_absent.json",
      "{\"Op\": {\"opInfo\": {\"kernelSo\": \"libnpusim_no_such_kernel.so\", \"functionName\": \"F\"}}}");
  EXPECT_EQ(aclrtBinaryLoadFromFile(absent.c_str(), nullptr, &b), ACL_ERROR_RT_PARAM_INVALID);
  // An AI CPU function has no parameter metadata and no per-parameter launch.
  aclrtFuncHandle sum = func("SumOp");
  size_t count = 0;
  EXPECT_EQ(aclrtFunctionGetParamCount(sum, &count), ACL_ERROR_RT_PARAM_INVALID);
  void* argv[1] = {&count};
  EXPECT_EQ(aclrtLaunchKernelWithArgsArray(sum, 1, stream_, nullptr, argv),
            ACL_ERROR_RT_PARAM_INVALID);
  std::uint64_t zero = 0;
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(sum, 0, stream_, nullptr, &zero, 8, nullptr, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(sum, 1, stream_, nullptr, nullptr, 8, nullptr, 0),
            ACL_ERROR_INVALID_PARAM);
  // An argument list must be finalised.
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle p = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(sum, &args), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(args, &zero, 8, &p), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(sum, 1, stream_, nullptr, args, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_TRUE(fake().tasks().empty() || last_aicpu() == nullptr);
}

std::uint32_t double_in_place(void* args) {
  auto* a = static_cast<CountArgs*>(args);
  *a->out = a->n * 2;
  return a->n == 0 ? 1 : 0;
}

TEST_F(AiCpuTest, TripleChevronLaunchCopiesTheArgumentBlock) {
  // What `Kernel<<<1, nullptr, stream>>>(&args, sizeof(args))` of an AI CPU kernel becomes.
  CountArgs a{21, static_cast<std::uint64_t*>(out_)};
  ASSERT_EQ(npusim::ascendc::launch(&double_in_place, "DoubleInPlace", 1, nullptr, stream_, &a,
                                   sizeof a),
            ACL_SUCCESS);
  a.n = 0;  // the launch copied the block: the kernel still sees 21
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out0(), 42);
  EXPECT_EQ(last_aicpu()->name, "DoubleInPlace");
  ASSERT_EQ(npusim::ascendc::launch(&double_in_place, "DoubleInPlace", 1, nullptr, stream_, &a,
                                   sizeof a),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICPU_EXCEPTION);  // n = 0: returns 1
  EXPECT_EQ(npusim::ascendc::launch(&double_in_place, "DoubleInPlace", 0, nullptr, stream_, &a,
                                   sizeof a),
            ACL_ERROR_RT_PARAM_INVALID);
  CountArgs* none = nullptr;
  EXPECT_EQ(npusim::ascendc::launch(&double_in_place, "DoubleInPlace", 1, nullptr, stream_, none,
                                   sizeof a),
            ACL_ERROR_INVALID_PARAM);
}

class AiCpuWatchdogTest : public AiCpuTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.aicore.timeout = sim::Duration{1 * sim::kMs};  // 400,000 basic blocks at the defaults
  }
};

TEST_F(AiCpuWatchdogTest, AKernelThatNeverEndsIsStoppedWithTheAiCpuTimeout) {
  std::uint64_t zero = 0;
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(func("SpinOp"), 1, stream_, nullptr, &zero, 8, nullptr,
                                          0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICPU_TIMEOUT);
  EXPECT_EQ(last_aicpu()->aicpu.basic_blocks, 400001u);
}

class NoAiCpuTest : public DeviceTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.unit<models::AiCpuConfig>().cores = 0;
  }
};

TEST_F(NoAiCpuTest, AChipWithoutAiCpuCoresRejectsAiCpuLaunches) {
  aclrtBinHandle bin = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(NPUSIM_TEST_AICPU_JSON, nullptr, &bin), ACL_SUCCESS);
  aclrtFuncHandle f = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "SevenOp", &f), ACL_SUCCESS);
  std::uint64_t zero = 0;
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, stream_, nullptr, &zero, 8, nullptr, 0),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

}  // namespace
}  // namespace npusim::rt::testing
