// SPDX-License-Identifier: Apache-2.0
// DVPP unit (models/dvpp.h): per-frame time w / fps on a unit, the module's admission slot at
// total_fps, channel limit (tasks queue in the scheduler), batch frames spread over units,
// pixel scaling, HBM traffic, timeline tracks, absent modules.
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "models/task_scheduler.h"
#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

/// Round numbers: reference 1000x1000; a channel does 100 reference frames/s (10 ms each).
ChipConfig dvpp_config(std::int64_t channels, double fps, double total_fps) {
  ChipConfig c = test_config();
  for (DvppModuleConfig* m : {&c.dvpp.vpc, &c.dvpp.jpegd, &c.dvpp.jpege, &c.dvpp.pngd,
                              &c.dvpp.vdec, &c.dvpp.venc}) {
    *m = DvppModuleConfig{channels, 1000, 1000, fps, total_fps};
  }
  return c;
}

Task dvpp_task(DvppModule module, std::uint32_t stream, std::vector<DvppFrame> frames) {
  Task t;
  t.kind = dvpp_task_kind(module);
  t.stream = stream;
  auto work = std::make_shared<DvppWork>();
  work->module = module;
  work->frames = std::move(frames);
  t.dvpp = std::move(work);
  return t;
}

constexpr SimTime kStart = 700 * kNs;       // doorbell + dispatch
constexpr SimTime kCompletion = 300 * kNs;  // engine end -> reported
constexpr SimTime kDispatch = 200 * kNs;

TEST(Dvpp, OneFrameTakesReferenceTimeOverFps) {
  Bench bench(dvpp_config(2, 100, 1000), /*trace=*/true);
  Seen& r = bench.submit(dvpp_task(DvppModule::kJpegd, 1, {{1000000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(r.out.error, 0);
  EXPECT_EQ(r.out.start, kStart);
  EXPECT_EQ(r.out.end, kStart + 10 * kMs + kCompletion);
  EXPECT_EQ(bench.stat("chip0.dvpp.jpegd.frames"), 1.0);
  EXPECT_EQ(bench.stat("chip0.dvpp.jpegd.pixels"), 1e6);
  const std::string json = bench.timeline_json();
  EXPECT_NE(json.find("\"DVPP JPEGD ch 0\""), std::string::npos);
  EXPECT_NE(json.find("\"DVPP VENC ch 1\""), std::string::npos);
  EXPECT_NE(json.find("\"Task Type\":\"DVPP\""), std::string::npos);
}

TEST(Dvpp, TimeScalesWithPixels) {
  Bench bench(dvpp_config(2, 100, 1000));
  // 4x the reference pixels: 40 ms; a quarter: 2.5 ms (stream 2 runs alongside on unit 1).
  Seen& big = bench.submit(dvpp_task(DvppModule::kVpc, 1, {{4000000, 0, 0}}));
  Seen& small = bench.submit(dvpp_task(DvppModule::kVpc, 2, {{250000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(big.out.end, kStart + 40 * kMs + kCompletion);
  EXPECT_EQ(small.out.start, kStart);
  // Admitted when the module's slot frees: 4 / 1000 s after the first admission.
  EXPECT_EQ(small.out.end, kStart + 4 * kMs + 2500 * sim::kUs + kCompletion);
}

TEST(Dvpp, TasksQueueWhenEveryChannelIsBusy) {
  Bench bench(dvpp_config(2, 100, 1000));
  Seen& a = bench.submit(dvpp_task(DvppModule::kJpegd, 1, {{1000000, 0, 0}}));
  Seen& b = bench.submit(dvpp_task(DvppModule::kJpegd, 2, {{1000000, 0, 0}}));
  Seen& c = bench.submit(dvpp_task(DvppModule::kJpegd, 3, {{1000000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(a.out.end, kStart + 10 * kMs + kCompletion);
  EXPECT_EQ(b.out.start, kStart);
  EXPECT_EQ(b.out.end, kStart + 1 * kMs + 10 * kMs + kCompletion);  // admission slot: 1 ms
  // Third: dispatched when a's channel frees.
  EXPECT_EQ(c.out.start, kStart + 10 * kMs + kDispatch);
  EXPECT_EQ(c.out.end, c.out.start + 10 * kMs + kCompletion);
}

TEST(Dvpp, TotalRateCapsTheChannels) {
  // 4 channels of 100 fps but 200 fps in total: frames admitted every 5 ms.
  Bench bench(dvpp_config(4, 100, 200));
  std::vector<Seen*> seen;
  for (std::uint32_t s = 1; s <= 4; ++s) {
    seen.push_back(&bench.submit(dvpp_task(DvppModule::kVpc, s, {{1000000, 0, 0}})));
  }
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // All four start at once; the admission order among same-time starts is the channels'
  // (deterministic), so compare the sorted ends.
  std::vector<SimTime> ends;
  for (Seen* s : seen) {
    EXPECT_EQ(s->out.start, kStart);
    ends.push_back(s->out.end);
  }
  std::sort(ends.begin(), ends.end());
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(ends[k], kStart + k * 5 * kMs + 10 * kMs + kCompletion) << k;
  }
}

TEST(Dvpp, BatchFramesSpreadOverUnits) {
  // One task of 4 frames on 4 units: admitted at the total rate (every 2.5 ms at 400 fps),
  // each 10 ms on its unit: the last ends 7.5 + 10 ms after the first admission.
  Bench bench(dvpp_config(4, 100, 400), /*trace=*/true);
  Seen& r = bench.submit(dvpp_task(DvppModule::kVpc, 1,
                                   {{1000000, 0, 0}, {1000000, 0, 0}, {1000000, 0, 0},
                                    {1000000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(r.out.end, kStart + 17500 * sim::kUs + kCompletion);
  EXPECT_EQ(bench.stat("chip0.dvpp.vpc.frames"), 4.0);
  EXPECT_EQ(bench.stat("chip0.dvpp.vpc.tasks"), 1.0);
  const std::string json = bench.timeline_json();
  EXPECT_NE(json.find("\"DVPP VPC ch 3\""), std::string::npos);
}

TEST(Dvpp, BatchWaitsForAFreeUnit) {
  // 2 units, total not binding: frames 0 and 1 run at once, frame 2 waits for unit 0.
  Bench bench(dvpp_config(2, 100, 1e6));
  Seen& r = bench.submit(dvpp_task(DvppModule::kVpc, 1,
                                   {{1000000, 0, 0}, {1000000, 0, 0}, {1000000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // Admission slot 1 us per frame: frame 1 at +1 us, frame 2 at +10 ms (unit 0 frees).
  EXPECT_EQ(r.out.end, kStart + 20 * kMs + kCompletion);
}

TEST(Dvpp, ReadsInputAndWritesOutputThroughHbm) {
  Bench bench(dvpp_config(1, 100, 100));
  // 1 MB in (1 us at 1 TB/s + 100 ns, hidden under the 10 ms computation), 2 MB out after it
  // (2 us + 100 ns).
  Seen& r = bench.submit(dvpp_task(DvppModule::kJpege, 1, {{1000000, 1000000, 2000000}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(r.out.end, kStart + 10 * kMs + 2 * kUs + 100 * kNs + kCompletion);
  EXPECT_EQ(bench.stat("chip0.hbm.read_bytes"), 1e6);
  EXPECT_EQ(bench.stat("chip0.hbm.bytes"), 3e6);
  EXPECT_EQ(bench.stat("chip0.dvpp.jpege.bytes"), 3e6);
}

TEST(Dvpp, ModulesAreIndependent) {
  Bench bench(dvpp_config(1, 100, 100));
  Seen& a = bench.submit(dvpp_task(DvppModule::kJpegd, 1, {{1000000, 0, 0}}));
  Seen& b = bench.submit(dvpp_task(DvppModule::kVpc, 2, {{1000000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(a.out.end, kStart + 10 * kMs + kCompletion);
  EXPECT_EQ(b.out.end, kStart + 10 * kMs + kCompletion);
}

TEST(Dvpp, AbsentModuleClaimsNothing) {
  ChipConfig c = dvpp_config(1, 100, 100);
  c.dvpp.venc.channels = 0;
  Bench bench(c, /*trace=*/true);
  Seen& r = bench.submit(dvpp_task(DvppModule::kVenc, 1, {{1000000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(r.out.error, kUnclaimedTask);
  EXPECT_EQ(bench.timeline_json().find("DVPP VENC"), std::string::npos);
}

}  // namespace
}  // namespace npusim::models::testing
