// SPDX-License-Identifier: Apache-2.0
// Kernel launches through the `<<<>>>` seam (npusim::ascendc::launch_kernel) on FakeBackend: blocks
// run in order, printf reaches stdout in block order when the task retires (also when the stream
// is force-destroyed or the device reset without a synchronisation), launch validation, traps and
// the failure modes, resource limits, the core type, exception callbacks.
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/runtime.h"
#include "tests/runtime/kernel_sources.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

using ::testing::internal::CaptureStdout;
using ::testing::internal::GetCapturedStdout;

class KernelTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    dev_ = static_cast<int32_t*>(dev_alloc(4096));
  }
  std::vector<int32_t> read(size_t n) { return download<int32_t>(dev_, n); }
  void zero() { ASSERT_EQ(aclrtMemset(dev_, 4096, 0, 4096), ACL_SUCCESS); }
  const FakeBackend::TaskTrace& last_kernel() { return last_task(TaskKind::kKernel); }

  int32_t* dev_ = nullptr;
};

std::string hello_lines(int tag, int blocks) {
  std::string s;
  for (int b = 0; b < blocks; ++b) {
    s += "hello " + std::to_string(tag) + " from block " + std::to_string(b) + " of " +
         std::to_string(blocks) + "\n";
  }
  return s;
}

TEST_F(KernelTest, LaunchRunsEveryBlockInOrderAsOneKernelTask) {
  ASSERT_EQ(FillDo(6, stream_, dev_, 100), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read(6), (std::vector<int32_t>{100, 101, 102, 103, 104, 105}));
  const FakeBackend::TaskTrace& t = last_kernel();
  EXPECT_EQ(t.name, "fill");
  EXPECT_EQ(t.blocks_run, 6u);
  ASSERT_NE(t.kernel, nullptr);
  EXPECT_EQ(t.kernel->block_dim, 6u);
  EXPECT_EQ(t.kernel->core_type, models::CoreType::kAiv);
  EXPECT_EQ(t.kernel->max_cores, 0u);
  EXPECT_FALSE(t.kernel->batch_mode);
}

TEST_F(KernelTest, NullStreamIsTheDefaultStreamAndTheLaunchIsAsynchronous) {
  SimTime before = host_clock();
  ASSERT_EQ(FillDo(2, nullptr, dev_, 7), ACL_SUCCESS);
  EXPECT_LT(host_clock() - before, 10 * sim::kUs);
  EXPECT_TRUE(fake().tasks().empty());  // nothing simulated yet
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(read(2), (std::vector<int32_t>{7, 8}));
  EXPECT_EQ(last_kernel().stream, 0u);
}

TEST_F(KernelTest, PrintfIsFlushedInBlockOrderWhenTheTaskRetires) {
  CaptureStdout();
  ASSERT_EQ(HelloDo(4, stream_, 3), ACL_SUCCESS);
  std::string before_sync = GetCapturedStdout();
  CaptureStdout();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(before_sync, "");
  EXPECT_EQ(GetCapturedStdout(), hello_lines(3, 4));
}

TEST_F(KernelTest, PrintfAppearsWhenTheStreamIsForceDestroyedWithoutSync) {
  CaptureStdout();
  ASSERT_EQ(FillDo(1, stream_, dev_, 5), ACL_SUCCESS);
  ASSERT_EQ(HelloDo(2, stream_, 9), ACL_SUCCESS);  // queued behind the first kernel
  ASSERT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
  EXPECT_EQ(GetCapturedStdout(), hello_lines(9, 2));
  EXPECT_EQ(read(1)[0], 5);
}

TEST_F(KernelTest, PrintfAppearsWhenTheDeviceIsResetWithoutSync) {
  CaptureStdout();
  ASSERT_EQ(HelloDo(3, nullptr, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
  EXPECT_EQ(GetCapturedStdout(), hello_lines(1, 3));
}

TEST_F(KernelTest, BlockDimMustBeBetweenOneAnd65535) {
  EXPECT_EQ(FillDo(0, stream_, dev_, 1), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(FillDo(65536, stream_, dev_, 1), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("blockDim 65536 of kernel fill"),
            std::string::npos);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(fake().tasks().empty());
}

TEST_F(KernelTest, BadStreamsAreRefused) {
  EXPECT_EQ(FillDo(1, reinterpret_cast<void*>(0x1234), dev_, 1), ACL_ERROR_RT_PARAM_INVALID);
  aclrtContext other = nullptr;
  ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);  // now current
  EXPECT_EQ(FillDo(1, stream_, dev_, 1), ACL_ERROR_RT_STREAM_CONTEXT);
  ASSERT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
}

TEST_F(AclTest, LaunchNeedsInitAndADevice) {
  int32_t x = 0;
  EXPECT_EQ(AddOneDo(1, nullptr, &x), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(AddOneDo(1, nullptr, &x), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(x, 0);
}

TEST_F(KernelTest, TrapFailsTheTaskAtTheNextSynchronizeAndContinueModeRunsLaterTasks) {
  zero();
  CaptureStdout();
  ASSERT_EQ(AddOneDo(1, stream_, dev_), ACL_SUCCESS);
  ASSERT_EQ(TrapDo(3, stream_), ACL_SUCCESS);  // launching succeeds: the device fails later
  ASSERT_EQ(AddOneDo(1, stream_, dev_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(GetCapturedStdout(), "before the trap 0\n");  // block 0 trapped: no further block
  EXPECT_EQ(read(1)[0], 2);                               // both add_one kernels ran
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // reported once
  ASSERT_EQ(AddOneDo(1, stream_, dev_), ACL_SUCCESS);     // the stream still works
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read(1)[0], 3);
}

TEST_F(KernelTest, TrapIsReportedByDeviceSynchronizeToo) {
  ASSERT_EQ(TrapDo(1, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
}

// A __cube__ kernel failing before its first instruction is still an AI Core (cube) exception.
TEST_F(KernelTest, DeclaredCubeKernelTrapIsAnAiCoreException) {
  ASSERT_EQ(CubeTrapDo(2, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
}

// The synchronize that reports a kernel's exception leaves CANN's text for aclGetRecentErrMsg
// (the devkit's 09_log example checks it): "EZ9999: Inner Error!", npusim's account of the
// failure, and the traceback naming the rt call and the reason; other failures keep npusim's
// "<function> failed (<code>): ..." text.
TEST_F(KernelTest, AKernelExceptionReadsAsCannsInnerError) {
  ASSERT_EQ(TrapDo(2, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const char* raw = aclGetRecentErrMsg();
  ASSERT_NE(raw, nullptr);
  const std::string msg = raw;
  EXPECT_EQ(msg.rfind("EZ9999: Inner Error!\nEZ9999: The error from device(chipId:0, dieId:0), "
                      "a task on stream ",
                      0),
            0u)
      << msg;
  EXPECT_NE(msg.find("kernel trap_kernel block 0 of 2 failed: device trap"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("\n        TraceBack (most recent call last):\n        rtStreamSynchronize "
                     "execution failed, reason=vector core exception\n        synchronize stream "
                     "failed, runtime result = 507035"),
            std::string::npos)
      << msg;
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);

  ASSERT_EQ(CubeTrapDo(1, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_AICORE_EXCEPTION);
  const std::string dev_msg = aclGetRecentErrMsg();
  EXPECT_EQ(dev_msg.rfind("EZ9999: Inner Error!\n", 0), 0u) << dev_msg;
  EXPECT_NE(dev_msg.find("a task of the context failed: kernel cube_trap_kernel block 0 of 1"),
            std::string::npos)
      << dev_msg;
  EXPECT_NE(dev_msg.find("rtDeviceSynchronize execution failed, reason=aicore exception\n"
                         "        synchronize device failed, runtime result = 507015"),
            std::string::npos)
      << dev_msg;
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_AICORE_EXCEPTION);

  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, -1), ACL_SUCCESS);  // reported once
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
  EXPECT_EQ(TrapDo(1, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, -1), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("rtStreamSynchronizeWithTimeout execution "
                                                   "failed, reason=vector core exception"),
            std::string::npos);
  EXPECT_EQ(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);  // not a device task's failure
  EXPECT_EQ(std::string(aclGetRecentErrMsg()).rfind("aclrtSetDevice failed (107001): ", 0), 0u);
}

TEST_F(KernelTest, StopModeSkipsLaterTasksOfTheContextAndRefusesNewOnes) {
  zero();
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  ASSERT_EQ(AddOneDo(1, stream_, dev_), ACL_SUCCESS);
  ASSERT_EQ(TrapDo(1, stream_), ACL_SUCCESS);
  ASSERT_EQ(AddOneDo(1, stream_, dev_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev_ + 4, 16, 0x7F, 16, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(read(5), (std::vector<int32_t>{1, 0, 0, 0, 0}));  // nothing after the trap ran
  EXPECT_EQ(AddOneDo(1, other, dev_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);  // refused
  EXPECT_EQ(aclrtMemsetAsync(dev_, 16, 0, 16, other), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(read(1)[0], 1);  // synchronous copies are not stream tasks: they still work
  EXPECT_EQ(aclrtDestroyStreamForce(other), ACL_SUCCESS);
}

TEST_F(KernelTest, AccessOutsideAnyAllocationFailsNamingKernelAndBlock) {
  int32_t host = 0;  // plain host memory: not visible to kernels
  ASSERT_EQ(StoreCheckedDo(2, stream_, &host, 5), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(host, 0);
  ASSERT_EQ(StoreCheckedDo(1, stream_, dev_, 5), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read(1)[0], 5);
}

// The AI Core's scalar unit does not trap on an integer division by zero (CATLASS relies on it);
// the host CPU does, and the twin completes the division: x / 0 = 0, x % 0 = x, MIN / -1 = MIN.
TEST_F(KernelTest, IntegerDivisionByZeroGivesZeroAndTheDividend) {
  void* out = nullptr;
  ASSERT_EQ(aclrtMalloc(&out, 6 * sizeof(int64_t), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  auto run = [&](int32_t a, int32_t b, int64_t x, int64_t y, uint32_t u, uint32_t v) {
    std::vector<int64_t> got(6, 99);
    EXPECT_EQ(DivideDo(stream_, out, a, b, x, y, u, v), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtMemcpy(got.data(), 48, out, 48, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return got;
  };
  EXPECT_EQ(run(7, 2, -9, 4, 9u, 4u), (std::vector<int64_t>{3, 1, -2, -1, 2, 1}));
  EXPECT_EQ(run(7, 0, -9, 0, 9u, 0u), (std::vector<int64_t>{0, 7, 0, -9, 0, 9}));
  EXPECT_EQ(run(-5, 0, INT64_MIN, -1, 0xFFFFFFFFu, 0u),
            (std::vector<int64_t>{0, -5, INT64_MIN, 0, 0, 0xFFFFFFFF}));
  EXPECT_EQ(run(INT32_MIN, -1, 1, 1, 1u, 1u), (std::vector<int64_t>{INT32_MIN, 0, 1, 0, 1, 0}));
  EXPECT_EQ(aclrtFree(out), ACL_SUCCESS);
}

// Raw __gm__ stores are not checked by the twin: device memory lives in its own address range,
// with inaccessible pages between and after allocations, so a stray store faults and the launcher
// turns the fault into the kernel's exception (the process, and its host memory, are unharmed).
TEST_F(KernelTest, AStrayRawStoreFailsTheKernelNotTheProcess) {
  ASSERT_EQ(StoreRawDo(1, stream_, dev_, 0, 7), ACL_SUCCESS);  // in bounds: works
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read(1)[0], 7);
  ASSERT_EQ(StoreRawDo(1, stream_, dev_, 1 << 20, 7), ACL_SUCCESS);  // 1 MiB past the buffer
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("store_raw block 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("illegal global memory access at address 0x"), std::string::npos) << msg;
  // The message states what raw accesses are checked at (issue 23 item 11: the granularity).
  EXPECT_NE(msg.find("checked per page"), std::string::npos) << msg;
  EXPECT_NE(msg.find("freed allocation of up to 2 KiB"), std::string::npos) << msg;
  EXPECT_NE(msg.find("host memory is not caught"), std::string::npos) << msg;
  ASSERT_EQ(StoreRawDo(1, stream_, nullptr, 8, 7), ACL_SUCCESS);  // near address 0
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  void* freed = nullptr;
  ASSERT_EQ(aclrtMalloc(&freed, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
  ASSERT_EQ(StoreRawDo(1, stream_, freed, 0, 7), ACL_SUCCESS);  // use after free
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  ASSERT_EQ(FillDo(1, stream_, static_cast<int32_t*>(dev_), 3), ACL_SUCCESS);  // still usable
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read(1)[0], 3);
}

TEST_F(KernelTest, ResourceLimitsCapTheCoresOfLaterLaunches) {
  ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 8), ACL_SUCCESS);
  ASSERT_EQ(FillDo(48, stream_, dev_, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(last_kernel().kernel->max_cores, 8u);
  ASSERT_EQ(aclrtSetStreamResLimit(stream_, ACL_RT_DEV_RES_VECTOR_CORE, 4), ACL_SUCCESS);
  ASSERT_EQ(FillDo(48, stream_, dev_, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(last_kernel().kernel->max_cores, 4u);  // the stream's limit wins
  ASSERT_EQ(FillDo(48, nullptr, dev_, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(last_kernel().kernel->max_cores, 8u);  // other streams: the process's
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(stream_), ACL_SUCCESS);
  ASSERT_EQ(FillDo(48, nullptr, dev_, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(last_kernel().kernel->max_cores, 4u);  // the thread uses the stream's limits
  uint32_t v = 0;
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 4u);
  ASSERT_EQ(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(stream_), ACL_SUCCESS);
  ASSERT_EQ(FillDo(48, nullptr, dev_, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(last_kernel().kernel->max_cores, 0u);  // every core again
}

TEST_F(KernelTest, CoreTypeIsLearntFromWhatTheKernelRan) {
  ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 3), ACL_SUCCESS);
  ASSERT_EQ(ToL1Do(2, stream_, dev_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(last_kernel().kernel->core_type, models::CoreType::kAiv);  // first launch: a guess
  EXPECT_GT(last_kernel().instrs, 0u);
  ASSERT_EQ(ToL1Do(2, stream_, dev_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(last_kernel().kernel->core_type, models::CoreType::kAic);
  EXPECT_EQ(last_kernel().kernel->max_cores, 3u);  // an AIC kernel: the cube-core limit
}

class SmallUbTest : public KernelTest {
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.aicore.ub = sim::Bytes{64 * 1024};
  }
};

TEST_F(SmallUbTest, LocalMemoriesAreSizedFromTheChipConfig) {
  ASSERT_EQ(UbHogDo(1, stream_, 60 * 1024), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(UbHogDo(2, stream_, 96 * 1024), ACL_SUCCESS);  // fits 192 KiB, not this chip's 64
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(last_kernel().blocks_run, 1u);
}

std::vector<rtExceptionInfo> g_reports;

void on_exception(aclrtExceptionInfo* info) {
  g_reports.push_back(*info);
  // The accessors work inside the callback (the API lock is not held).
  EXPECT_EQ(aclrtGetErrorCodeFromExceptionInfo(info), info->error_code);
}

TEST_F(KernelTest, ExceptionCallbackReceivesTheFailedTask) {
  g_reports.clear();
  ASSERT_EQ(aclrtSetExceptionInfoCallback(on_exception), ACL_SUCCESS);
  ASSERT_EQ(AddOneDo(1, stream_, dev_), ACL_SUCCESS);
  ASSERT_EQ(TrapDo(1, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  ASSERT_EQ(g_reports.size(), 1u);
  rtExceptionInfo& r = g_reports[0];
  int32_t stream_id = -1;
  ASSERT_EQ(aclrtStreamGetId(stream_, &stream_id), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetTaskIdFromExceptionInfo(&r), 1u);
  EXPECT_EQ(aclrtGetStreamIdFromExceptionInfo(&r), static_cast<uint32_t>(stream_id));
  EXPECT_EQ(aclrtGetDeviceIdFromExceptionInfo(&r), 0u);
  EXPECT_EQ(aclrtGetErrorCodeFromExceptionInfo(&r),
            static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));
  EXPECT_EQ(aclrtGetTaskIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  aclrtFuncHandle f = reinterpret_cast<aclrtFuncHandle>(1);
  ASSERT_EQ(aclrtGetFuncHandleFromExceptionInfo(&r, &f), ACL_SUCCESS);
  EXPECT_EQ(f, nullptr);  // a <<<>>> launch has no function handle
  ASSERT_EQ(aclrtExceptionInfoCallbackUnregister(on_exception), ACL_SUCCESS);
  ASSERT_EQ(TrapDo(1, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(g_reports.size(), 1u);
}

// A kernel captured into a model run instance runs again, blocks and printf, at every execution;
// a failing kernel fails the execution (reported by the execute stream's synchronize).
TEST_F(KernelTest, CapturedLaunchesRunAtEveryExecution) {
  zero();
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(AddOneDo(4, stream_, dev_), ACL_SUCCESS);
  ASSERT_EQ(HelloDo(2, stream_, 5), ACL_SUCCESS);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  CaptureStdout();
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }
  EXPECT_EQ(GetCapturedStdout(), hello_lines(5, 2) + hello_lines(5, 2) + hello_lines(5, 2));
  EXPECT_EQ(read(1)[0], 12);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);

  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(TrapDo(1, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  CaptureStdout();
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(GetCapturedStdout(), "before the trap 0\n");
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // reported once
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing
