// SPDX-License-Identifier: Apache-2.0
#include "sim/log.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace npusim::sim {
namespace {

/// Restores the level a test changed.
class Log : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = log_level(); }
  void TearDown() override { set_log_level(saved_); }
  LogLevel saved_ = LogLevel::kWarn;
};

TEST_F(Log, FormatsAndFiltersByLevel) {
  set_log_level(LogLevel::kWarn);
  EXPECT_TRUE(log_enabled(LogLevel::kError));
  EXPECT_TRUE(log_enabled(LogLevel::kWarn));
  EXPECT_FALSE(log_enabled(LogLevel::kInfo));
  ::testing::internal::CaptureStderr();
  log_warn("link is slow");
  log_info("hidden");
  log_error("broken");
  log(LogLevel::kWarn, 12500 * kNs, "at a time");
  log(LogLevel::kWarn, 3 * kUs, "whole");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "[npusim W] link is slow\n[npusim E] broken\n[npusim W 12.5us] at a time\n"
            "[npusim W 3us] whole\n");
  set_log_level(LogLevel::kDebug);
  ::testing::internal::CaptureStderr();
  log_debug("details");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "[npusim D] details\n");
}

TEST_F(Log, ParsesLevelNames) {
  LogLevel l = LogLevel::kWarn;
  EXPECT_TRUE(parse_log_level("debug", l));
  EXPECT_EQ(l, LogLevel::kDebug);
  EXPECT_TRUE(parse_log_level("error", l));
  EXPECT_EQ(l, LogLevel::kError);
  EXPECT_TRUE(parse_log_level("info", l));
  EXPECT_EQ(l, LogLevel::kInfo);
  EXPECT_FALSE(parse_log_level("loud", l));
  EXPECT_EQ(l, LogLevel::kInfo);
}

TEST_F(Log, WholeLinesFromManyThreads) {
  set_log_level(LogLevel::kInfo);
  ::testing::internal::CaptureStderr();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < 50; ++i) log_info("0123456789abcdefghijklmnopqrstuvwxyz");
    });
  }
  for (auto& t : threads) t.join();
  std::string out = ::testing::internal::GetCapturedStderr();
  std::size_t lines = 0, pos = 0;
  const std::string line = "[npusim I] 0123456789abcdefghijklmnopqrstuvwxyz\n";
  while ((pos = out.find(line, pos)) != std::string::npos) ++lines, pos += line.size();
  EXPECT_EQ(lines, 200u);
  EXPECT_EQ(out.size(), 200 * line.size());
}

}  // namespace
}  // namespace npusim::sim
