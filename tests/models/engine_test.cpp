// SPDX-License-Identifier: Apache-2.0
// sim::Engine: run_until results, deadlines, one elaboration per process.
#include <stdexcept>

#include <gtest/gtest.h>

#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

TEST(Engine, StarvedWhenAWaitCanNeverFinish) {
  Bench bench;
  Seen& wait = bench.sync_task(1, TaskKind::kEventWait, 0, [] { return false; });
  EXPECT_EQ(bench.run_all(), sim::WaitResult::kStarved);
  EXPECT_FALSE(wait.finished);
  // The wait reached its stream head at the doorbell (500 ns); nothing was left after that.
  EXPECT_EQ(bench.engine().now(), 500 * kNs);
  EXPECT_EQ(bench.scheduler().outstanding(), 1u);
}

TEST(Engine, TimeoutAtDeadlineThenDone) {
  Bench bench;
  Seen& copy = bench.copy(1, Direction::kH2D, 64 * kMiB);
  EXPECT_EQ(bench.run_all(1 * kMs), sim::WaitResult::kTimeout);
  EXPECT_EQ(bench.engine().now(), 1 * kMs);
  EXPECT_FALSE(copy.finished);
  EXPECT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_TRUE(copy.finished);
  EXPECT_EQ(bench.engine().now(), copy.out.end);
}

TEST(Engine, DoneIsTestedBeforeRunning) {
  Bench bench;
  bench.copy(1, Direction::kH2D, 4 * kKiB);
  EXPECT_EQ(bench.engine().run_until([] { return true; }), sim::WaitResult::kDone);
  EXPECT_EQ(bench.engine().now(), 0u);
}

TEST(Engine, AdvanceToMovesTimeWithNothingPending) {
  Bench bench;
  bench.engine().advance_to(3 * kUs);
  EXPECT_EQ(bench.engine().now(), 3 * kUs);
  bench.engine().advance_to(1 * kUs);  // never backwards
  EXPECT_EQ(bench.engine().now(), 3 * kUs);
}

TEST(Engine, OneSimulatedSystemPerProcess) {
  {
    Bench bench;
    EXPECT_THROW(sim::Engine second, std::logic_error);  // while one exists
    bench.run_all();
  }
  EXPECT_THROW(sim::Engine again, std::logic_error);  // after the kernel was started
}

}  // namespace
}  // namespace npusim::models::testing
