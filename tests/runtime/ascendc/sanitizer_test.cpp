// SPDX-License-Identifier: Apache-2.0
// mssanitizer's block checks on the twin (runtime/ascendc/sanitizer.h): racecheck finds a vector
// read of UB that MTE2 wrote with no SetFlag/WaitFlag, and nothing in kernels ordered by flags,
// barriers or queues; memcheck finds a copy leaving its UB buffer and a misaligned UB address;
// with the sanitizer off nothing is reported. Reports are read back from the log file.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "kernel_operator.h"
#include "npusim/ascendc/block_runner.h"
#include "runtime/ascendc/sanitizer.h"
#include "test_kernels.h"

namespace {

using npusim::ascendc::run_blocks;
namespace san = npusim::sanitizer;
constexpr std::uint32_t kLen = 256;

// z = x + y (static tensors). mode 0: ordered by SetFlag/WaitFlag; 1: no MTE2 -> V flag;
// 2: the first copy moves 2 x kLen elements into a kLen buffer; 3: a misaligned UB address;
// 4: after the add, MTE2 refills lx (which V read) with no V -> MTE2 flag.
extern "C" __global__ __vector__ void san_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, std::int32_t mode) {
  AscendC::InitSocState();
  AscendC::GlobalTensor<float> gx, gy, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 2 * kLen);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), kLen);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), kLen);
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
  AscendC::LocalTensor<float> lx = ub.Alloc<float, kLen>();
  AscendC::LocalTensor<float> ly = ub.Alloc<float, kLen>();
  AscendC::LocalTensor<float> lz = ub.Alloc<float, kLen>();
  if (mode == 2) {
    AscendC::DataCopy(lx, gx, 2 * kLen);
  } else if (mode == 3) {
    AscendC::DataCopy(ly[4], gy, kLen);
  } else {
    AscendC::DataCopy(lx, gx, kLen);
  }
  AscendC::DataCopy(ly, gy, kLen);
  if (mode != 1) {
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  }
  AscendC::Add(lz, lx, ly, kLen);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
  if (mode == 4) AscendC::DataCopy(lx, gx, kLen);
  AscendC::DataCopy(gz, lz, kLen);
  AscendC::PipeBarrier<PIPE_ALL>();
}

class Sanitizer : public ::testing::Test {
 protected:
  void TearDown() override { san::configure(0, nullptr); }

  // Runs san_add(mode) on 2 blocks with `checks` on; the log's lines.
  std::vector<std::string> run(unsigned checks, std::int32_t mode) {
    // One log per test process: ctest runs the tests of this binary in parallel processes.
    const std::string log = ::testing::TempDir() + "sanitizer_test_" +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name() +
                            "_" + std::to_string(::getpid()) + ".jsonl";
    std::remove(log.c_str());
    san::configure(checks, log.c_str());
    x_.assign(2 * kLen, 1.0f);
    y_.assign(kLen, 2.0f);
    z_.assign(kLen, 0.0f);
    result_ = run_blocks(&san_add, 2, reinterpret_cast<GM_ADDR>(x_.data()),
                         reinterpret_cast<GM_ADDR>(y_.data()), reinterpret_cast<GM_ADDR>(z_.data()),
                         mode);
    std::vector<std::string> out = lines(log);
    std::remove(log.c_str());
    return out;
  }

  static std::vector<std::string> lines(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }

  std::vector<float> x_, y_, z_;
  npusim::ascendc::RunResult result_;
};

bool has(const std::string& line, const std::string& part) {
  return line.find(part) != std::string::npos;
}

TEST_F(Sanitizer, FlagOrderedKernelHasNoReport) {
  EXPECT_TRUE(run(san::kMemcheck | san::kRace, 0).empty());
  ASSERT_TRUE(result_.ok()) << result_.first_error();
  EXPECT_EQ(z_[0], 3.0f);
  EXPECT_EQ(san::error_count(), 0u);
}

TEST_F(Sanitizer, RacecheckFindsVectorReadOfUnsyncedCopy) {
  const std::vector<std::string> r = run(san::kRace, 1);
  ASSERT_TRUE(result_.ok()) << result_.first_error();
  // Per block: Add reads lx (UB 0x0) and ly (UB 0x400), both written by MTE2 unordered.
  ASSERT_EQ(r.size(), 4u);
  EXPECT_TRUE(has(r[0], "\"kind\":\"RAW race\",\"op\":\"Add\",\"mem\":\"UB\",\"addr\":\"0x0\","
                        "\"size\":1024,\"block\":0"))
      << r[0];
  EXPECT_TRUE(has(r[0], "Add (PIPE_V) reads the UB buffer at offset 0x0 (1024 bytes) that "
                        "DataCopy (PIPE_MTE2) wrote before"))
      << r[0];
  EXPECT_TRUE(has(r[1], "\"addr\":\"0x400\"")) << r[1];
  EXPECT_TRUE(has(r[3], "\"block\":1")) << r[3];
  EXPECT_EQ(san::error_count(), 4u);
  // Memcheck alone does not look for races.
  EXPECT_TRUE(run(san::kMemcheck, 1).empty());
}

TEST_F(Sanitizer, RacecheckFindsCopyOverwritingWhatVectorRead) {
  const std::vector<std::string> r = run(san::kRace, 4);
  ASSERT_TRUE(result_.ok()) << result_.first_error();
  ASSERT_EQ(r.size(), 2u);  // one per block
  EXPECT_TRUE(has(r[0], "\"kind\":\"WAR race\",\"op\":\"DataCopy\",\"mem\":\"UB\","
                        "\"addr\":\"0x0\",\"size\":1024,\"block\":0"))
      << r[0];
  EXPECT_TRUE(has(r[0], "DataCopy (PIPE_MTE2) writes the UB buffer at offset 0x0 (1024 bytes) "
                        "that Add (PIPE_V) read before"))
      << r[0];
}

TEST_F(Sanitizer, MemcheckFindsCopyPastItsBuffer) {
  const std::vector<std::string> r = run(san::kMemcheck, 2);
  ASSERT_TRUE(result_.ok()) << result_.first_error();  // inside UB: the device would not fault
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(has(r[0], "\"kind\":\"illegal write\",\"op\":\"DataCopy\",\"mem\":\"UB\","
                        "\"addr\":\"0x0\",\"size\":2048,\"block\":0"))
      << r[0];
  EXPECT_TRUE(has(r[0], "the copy writes 2048 bytes, the UB buffer at offset 0x0 holds 1024 "
                        "bytes: 1024 bytes past its end"))
      << r[0];
  EXPECT_TRUE(run(0, 2).empty());  // off: nothing reported, nothing written
  EXPECT_EQ(san::error_count(), 0u);
}

TEST_F(Sanitizer, MemcheckReportsMisalignedAddress) {
  const std::vector<std::string> r = run(san::kMemcheck, 3);
  EXPECT_FALSE(result_.ok());  // the twin's alignment rule stops the block
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(has(r[0], "\"kind\":\"misaligned access\",\"op\":\"DataCopy\",\"mem\":\"UB\","
                        "\"addr\":\"0x410\""))
      << r[0];
  EXPECT_TRUE(has(r[1], "\"block\":1")) << r[1];
}

TEST_F(Sanitizer, QueueOrderedKernelHasNoRace) {
  const std::string log = ::testing::TempDir() + "sanitizer_queue.jsonl";
  std::remove(log.c_str());
  san::configure(san::kMemcheck | san::kRace, log.c_str());
  const std::uint32_t total = 4096;
  std::vector<float> a(total, 1.0f), b(total, 2.0f), c(total, 0.0f);
  auto r = run_blocks(&test_kernels::tiled_add<float, 2>, 2, reinterpret_cast<GM_ADDR>(a.data()),
                      reinterpret_cast<GM_ADDR>(b.data()), reinterpret_cast<GM_ADDR>(c.data()),
                      total, 256u);
  ASSERT_TRUE(r.ok()) << r.first_error();
  EXPECT_EQ(c[total - 1], 3.0f);
  EXPECT_TRUE(lines(log).empty());
}

}  // namespace
