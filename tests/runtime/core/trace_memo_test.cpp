// SPDX-License-Identifier: Apache-2.0
// The timing-only trace memo (runtime/core/trace_memo.h): repeated `<<<>>>` launches of a kernel with
// byte-identical arguments reuse the first launch's block traces (the kernel body runs once) and
// produce exactly the traces and printf text of a run without the memo; changed arguments, any
// allocation or free, host writes into device memory, failed blocks, functional mode and
// arguments with padding bytes are not served from it.
#include <string>
#include <vector>

#include "aclnnop/aclnn_mul.h"
#include "runtime/core/runtime.h"
#include "tests/runtime/core/memo_kernels.h"
#include "tests/runtime/test_support.h"

namespace npusim::rt::testing {
namespace {

using ::testing::internal::CaptureStdout;
using ::testing::internal::GetCapturedStdout;

constexpr uint32_t kBlocks = 4;

class TraceMemoTest : public DeviceTest {
 protected:
  void configure(models::ChipConfig& config, FakeTiming&) override {
    config.aicore.functional = false;
  }
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&x_), 64 * 1024, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    g_memo_probe_runs = 0;
  }
  static TraceMemo& memo() { return Runtime::instance().trace_memo(); }
  // Digests of the kernel tasks that ran, in order.
  std::vector<std::uint64_t> digests() {
    std::vector<std::uint64_t> d;
    for (const auto& t : fake().tasks()) {
      if (t.kind == TaskKind::kKernel) d.push_back(t.trace_digest);
    }
    return d;
  }
  // `n` launches of memo_probe(x, tiles); their printf text.
  std::string probe(int n, uint32_t tiles) {
    CaptureStdout();
    for (int i = 0; i < n; ++i) EXPECT_EQ(MemoProbeDo(kBlocks, stream_, x_, tiles), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    return GetCapturedStdout();
  }

  float* x_ = nullptr;
};

std::string probe_lines(int launches, uint32_t tiles) {
  std::string s;
  for (int i = 0; i < launches; ++i) {
    for (uint32_t b = 0; b < kBlocks; ++b) {
      s += "probe " + std::to_string(b) + " " + std::to_string(tiles) + "\n";
    }
  }
  return s;
}

TEST_F(TraceMemoTest, RepeatedLaunchesRunTheBodyOnceAndMatchARunWithoutTheMemo) {
  ASSERT_TRUE(memo().enabled());
  const std::uint64_t hits = memo().hits();
  EXPECT_EQ(probe(5, 3), probe_lines(5, 3));
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(kBlocks));  // the first launch only
  EXPECT_EQ(memo().hits() - hits, 4u * kBlocks);
  const std::vector<std::uint64_t> memoised = digests();
  ASSERT_EQ(memoised.size(), 5u);

  memo().set_enabled(false);
  g_memo_probe_runs = 0;
  EXPECT_EQ(probe(5, 3), probe_lines(5, 3));
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(5 * kBlocks));
  const std::vector<std::uint64_t> all = digests();
  ASSERT_EQ(all.size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(all[i], all[0]) << "launch " << i;
  for (const auto& t : fake().tasks()) {
    if (t.kind == TaskKind::kKernel) {
      EXPECT_EQ(t.blocks_run, kBlocks);
      EXPECT_EQ(t.instrs, fake().tasks().back().instrs);
      EXPECT_GT(t.instrs, 0u);
    }
  }
}

TEST_F(TraceMemoTest, NpusimTraceMemoZeroTurnsItOffAtInit) {
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  setenv("NPUSIM_TRACE_MEMO", "0", 1);
  use_fake_backend();
  const aclError init = aclInit(nullptr);
  unsetenv("NPUSIM_TRACE_MEMO");
  ASSERT_EQ(init, ACL_SUCCESS);
  EXPECT_FALSE(memo().enabled());
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&x_), 64 * 1024, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  probe(3, 3);
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(3 * kBlocks));
}

TEST_F(TraceMemoTest, AChangedArgumentIsNotServedFromTheMemo) {
  EXPECT_EQ(probe(1, 3), probe_lines(1, 3));
  EXPECT_EQ(probe(1, 5), probe_lines(1, 5));
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(2 * kBlocks));
  std::vector<std::uint64_t> d = digests();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NE(d[0], d[1]);
  // Both are remembered: the first arguments again are served.
  EXPECT_EQ(probe(1, 3), probe_lines(1, 3));
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(2 * kBlocks));
  d = digests();
  EXPECT_EQ(d[2], d[0]);
  // Another blockDim is another launch.
  EXPECT_EQ(MemoProbeDo(2, stream_, x_, 3), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(2 * kBlocks + 2));
}

TEST_F(TraceMemoTest, AnAllocationOrFreeBetweenLaunchesForgetsTheMemo) {
  probe(1, 3);
  void* other = nullptr;
  ASSERT_EQ(aclrtMalloc(&other, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  probe(1, 3);
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(2 * kBlocks));
  ASSERT_EQ(aclrtFree(other), ACL_SUCCESS);
  probe(1, 3);
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(3 * kBlocks));
  probe(1, 3);
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(3 * kBlocks));
  const std::vector<std::uint64_t> d = digests();
  for (std::uint64_t v : d) EXPECT_EQ(v, d[0]);
}

TEST_F(TraceMemoTest, AFreedBufferIsStillReportedByTheReRun) {
  probe(1, 3);
  ASSERT_EQ(aclrtFree(x_), ACL_SUCCESS);
  CaptureStdout();
  EXPECT_EQ(MemoProbeDo(kBlocks, stream_, x_, 3), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);  // an AIV kernel
  GetCapturedStdout();
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(kBlocks + 1));  // block 0 ran and failed
}

TEST_F(TraceMemoTest, HostWritesIntoDeviceMemoryForgetTheMemoCopiesToTheHostDoNot) {
  probe(1, 3);
  std::vector<float> host(256, 1.0f);
  ASSERT_EQ(aclrtMemcpy(host.data(), 1024, x_, 1024, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  probe(1, 3);
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(kBlocks));
  ASSERT_EQ(aclrtMemcpy(x_, 1024, host.data(), 1024, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  probe(1, 3);
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(2 * kBlocks));
  ASSERT_EQ(aclrtMemset(x_, 1024, 0, 1024), ACL_SUCCESS);
  probe(1, 3);
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(3 * kBlocks));
}

TEST_F(TraceMemoTest, OnlySuccessfulBlocksAreMemoised) {
  EXPECT_EQ(MemoFailDo(2, stream_, x_, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);  // an AIV kernel
  EXPECT_EQ(g_memo_probe_runs, 2);
  EXPECT_EQ(MemoFailDo(2, stream_, x_, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);  // an AIV kernel
  EXPECT_EQ(g_memo_probe_runs, 3);  // block 0 from the memo, block 1 ran (and trapped) again
}

TEST_F(TraceMemoTest, ArgumentsWithPaddingBytesAreNeverMemoised) {
  for (int i = 0; i < 3; ++i) EXPECT_EQ(MemoPaddedDo(kBlocks, stream_, x_, 7), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(3 * kBlocks));
  EXPECT_EQ(memo().launches(), 0u);
}

TEST_F(TraceMemoTest, ADeviceResetClearsTheMemo) {
  probe(1, 3);
  EXPECT_GT(memo().launches(), 0u);
  EXPECT_GT(memo().bytes(), 0u);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(memo().launches(), 0u);
  EXPECT_EQ(memo().bytes(), 0u);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
}

class FunctionalMemoTest : public DeviceTest {};

TEST_F(FunctionalMemoTest, FunctionalLaunchesAlwaysRunTheBody) {
  float* x = nullptr;
  ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&x), 64 * 1024, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  g_memo_probe_runs = 0;
  CaptureStdout();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(MemoProbeDo(kBlocks, stream_, x, 2), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  GetCapturedStdout();
  EXPECT_EQ(g_memo_probe_runs, static_cast<int>(3 * kBlocks));
  EXPECT_EQ(Runtime::instance().trace_memo().launches(), 0u);
}

// An operator's repeatable executor run again on the same addresses is served from the memo; a
// new executor for the same operands (single-use, as CANN's are by default) is not, and a
// repeatable one re-pointed at another output is not either.
TEST_F(TraceMemoTest, RepeatableOperatorExecutorsAreServedOnTheirReruns) {
  int64_t n = 1 << 12;  // 16 KiB each: a at 0, out at 32 KiB, then at 16 KiB
  aclTensor* a = aclCreateTensor(&n, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &n, 1, x_);
  aclTensor* out = aclCreateTensor(&n, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, &n, 1,
                                   reinterpret_cast<char*>(x_) + 32 * 1024);
  auto run = [&](aclOpExecutor* ex) {
    ASSERT_EQ(aclnnMul(nullptr, 0, ex, stream_), ACLNN_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  };
  uint64_t ws = 0;
  aclOpExecutor* once = nullptr;
  ASSERT_EQ(aclnnMulGetWorkspaceSize(a, a, out, &ws, &once), ACLNN_SUCCESS);
  run(once);
  const std::uint64_t hits = memo().hits();
  ASSERT_EQ(aclnnMulGetWorkspaceSize(a, a, out, &ws, &once), ACLNN_SUCCESS);
  run(once);  // a new executor: its kernel body runs
  EXPECT_EQ(memo().hits(), hits);

  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnMulGetWorkspaceSize(a, a, out, &ws, &ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  run(ex);
  EXPECT_EQ(memo().hits(), hits);
  run(ex);
  const std::uint64_t served = memo().hits() - hits;
  EXPECT_GT(served, 0u);  // every block of the second run
  ASSERT_EQ(aclSetOutputTensorAddr(ex, 0, out, reinterpret_cast<char*>(x_) + 16 * 1024),
            ACLNN_SUCCESS);
  run(ex);  // other addresses: run again
  EXPECT_EQ(memo().hits() - hits, served);
  run(ex);
  EXPECT_EQ(memo().hits() - hits, 2 * served);
  const std::vector<std::uint64_t> d = digests();
  ASSERT_EQ(d.size(), 6u);
  EXPECT_EQ(d[3], d[2]);  // the served run replays the recorded trace
  EXPECT_EQ(d[5], d[4]);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(a), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(out), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace npusim::rt::testing
