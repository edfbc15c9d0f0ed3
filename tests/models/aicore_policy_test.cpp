// SPDX-License-Identifier: Apache-2.0
// The AI Core engine's policies by name (models/aicore/policy/): every name scheduler.policy and
// scheduler.preemption accept has an implementation, unknown names are configuration errors
// listing the valid ones, and each implementation decides as aicore_engine.h states. (The
// engine's behaviour under each of them: aicore_test.cpp and aicore_preempt_test.cpp.)
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/aicore/policy/dispatch_policy.h"
#include "models/aicore/policy/preemption.h"
#include "models/chip_config_loader.h"
#include "sim/config.h"

namespace npusim::models {
namespace {

using sim::kNs;
using sim::kUs;

std::vector<std::string> split(const std::string& names) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t bar = names.find('|'); ; bar = names.find('|', start)) {
    out.push_back(names.substr(start, bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return out;
}

std::string error_of(void (*make)(const std::string&), const std::string& name) {
  try {
    make(name);
  } catch (const sim::ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(AicorePolicy, EveryNameTheConfigAcceptsHasAnImplementation) {
  EXPECT_EQ(dispatch_policy_names(), "priority|fifo|prema");
  EXPECT_EQ(preemption_names(), "none|drain|checkpoint|kill|dynamic");
  for (const std::string& name : split(dispatch_policy_names())) {
    EXPECT_NO_THROW(load_chip_config("tiny", {"scheduler.policy=" + name})) << name;
    EXPECT_NE(make_dispatch_policy(name), nullptr) << name;
  }
  for (const std::string& name : split(preemption_names())) {
    EXPECT_NO_THROW(load_chip_config("tiny", {"scheduler.preemption=" + name})) << name;
    EXPECT_NE(make_preemption(name, {}), nullptr) << name;
  }
}

TEST(AicorePolicy, AnUnknownNameIsAConfigErrorListingTheValidNames) {
  const std::string dispatch =
      error_of([](const std::string& n) { make_dispatch_policy(n); }, "round_robin");
  EXPECT_EQ(dispatch, "scheduler.policy: unknown dispatch policy \"round_robin\" (valid: "
                      "priority, fifo, prema)");
  const std::string preempt =
      error_of([](const std::string& n) { make_preemption(n, {}); }, "suspend");
  EXPECT_EQ(preempt, "scheduler.preemption: unknown preemption mechanism \"suspend\" (valid: "
                     "none, drain, checkpoint, kill, dynamic)");
}

TEST(AicorePolicy, FifoGivesEveryKernelOnePriorityPriorityKeepsTheStreams) {
  EXPECT_EQ(make_dispatch_policy("fifo")->priority(5), 0u);
  EXPECT_EQ(make_dispatch_policy("priority")->priority(5), 5u);
  EXPECT_FALSE(make_dispatch_policy("priority")->predicts_at_ready());
  EXPECT_TRUE(make_dispatch_policy("prema")->predicts_at_ready());
  EXPECT_TRUE(make_dispatch_policy("prema")->preempts_only_later());
}

/// A ready kernel of `dim` blocks, none dispatched, predicted to take `predicted` alone.
AicoreKernel kernel(std::uint32_t priority, std::uint64_t seq, SimTime predicted,
                    std::uint32_t dim = 4) {
  AicoreKernel k;
  auto work = std::make_shared<KernelWork>();
  work->block_dim = dim;
  k.work = work;
  k.priority = priority;
  k.seq = seq;
  k.ready = true;
  k.predicted = predicted;
  return k;
}

TEST(AicorePolicy, PremaOrdersCandidatesByPredictedRemainingTime) {
  auto prema = make_dispatch_policy("prema");
  AicoreKernel high = kernel(0, 1, 100 * kUs);  // weight 8
  AicoreKernel low_short = kernel(7, 2, 10 * kUs);  // weight 1
  AicoreKernel low_long = kernel(7, 3, 50 * kUs);
  for (AicoreKernel* k : {&high, &low_short, &low_long}) prema->on_ready(*k, 0);
  EXPECT_EQ(high.tokens, 8.0);
  EXPECT_EQ(low_short.tokens, 1.0);
  std::vector<AicoreKernel*> order = {&high, &low_short, &low_long};
  // At 0 only `high` has tokens >= the threshold 8: it goes first; the rest by tokens, arrival.
  prema->order(order, 0);
  EXPECT_EQ(order, (std::vector<AicoreKernel*>{&high, &low_short, &low_long}));
  // By 70 us low_short earned 1 x 70/10 = 7 tokens (8 in all); low_long 1 x 70/50 (2.4);
  // high 8 x 70/100 (13.6). Candidates (>= 8): high (remaining 100 us), low_short (10 us).
  prema->order(order, 70 * kUs);
  EXPECT_DOUBLE_EQ(low_short.tokens, 8.0);
  EXPECT_EQ(order, (std::vector<AicoreKernel*>{&low_short, &high, &low_long}));
}

TEST(AicorePolicy, EachMechanismChoosesAsStated) {
  const PreemptionCosts costs{2 * kUs, 1e12};  // block_launch 2 us, 1 TB/s
  EXPECT_FALSE(make_preemption("none", costs)->preempts());
  const VictimBlock v{10 * kUs, 4 * kUs, 20 * kUs, 1'000'000};  // 14 us left; 1 us per move
  EXPECT_EQ(make_preemption("drain", costs)->choose(v), PreemptAction::kDrain);
  EXPECT_EQ(make_preemption("checkpoint", costs)->choose(v), PreemptAction::kCheckpoint);
  EXPECT_EQ(make_preemption("kill", costs)->choose(v), PreemptAction::kKill);
  auto dynamic = make_preemption("dynamic", costs);
  EXPECT_EQ(dynamic->choose(v), PreemptAction::kCheckpoint);  // 14 us > 2 + 2 x 1 us
  const VictimBlock ending{10 * kUs, 4 * kUs, 9 * kUs, 1'000'000};  // 3 us left < 4 us
  EXPECT_EQ(dynamic->choose(ending), PreemptAction::kDrain);
  // No context to move: the threshold is block_launch alone, 2 us.
  const VictimBlock at_launch{10 * kUs, 4 * kUs, 8 * kUs, 0};
  EXPECT_EQ(dynamic->choose(at_launch), PreemptAction::kDrain);
  const VictimBlock past_launch{10 * kUs, 4 * kUs, 8 * kUs + 1, 0};
  EXPECT_EQ(dynamic->choose(past_launch), PreemptAction::kCheckpoint);
}

}  // namespace
}  // namespace npusim::models
