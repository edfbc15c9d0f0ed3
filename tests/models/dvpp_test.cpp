// SPDX-License-Identifier: Apache-2.0
// DVPP unit (models/dvpp.h): per-frame time w / fps on a unit, the module's admission slot at
// total_fps, channel limit (tasks queue in the scheduler), batch frames spread over units,
// pixel scaling, HBM traffic, timeline tracks, absent modules.
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "models/chip_config_loader.h"
#include "models/dvpp.h"
#include "models/task_scheduler.h"
#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

/// Round numbers: reference 1000x1000; a channel does 100 reference frames/s (10 ms each).
ChipConfig dvpp_config(std::int64_t channels, double fps, double total_fps) {
  ChipConfig c = test_config();
  DvppConfig& d = c.unit<DvppConfig>();
  for (DvppModuleConfig* m :
       {&d.vpc, &d.jpegd, &d.jpege, &d.pngd, &d.vdec, &d.venc}) {
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
  t.payload = std::move(work);
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
  // Module bucket: 2 channels / 1000 fps = 2 ms deep; the big frame costs 4 ms of it.
  Seen& big = bench.submit(dvpp_task(DvppModule::kVpc, 1, {{4000000, 0, 0}}));
  Seen& small = bench.submit(dvpp_task(DvppModule::kVpc, 2, {{250000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(big.out.end, kStart + 40 * kMs + kCompletion);
  EXPECT_EQ(small.out.start, kStart);
  // Admitted when the bucket's 2 ms debt is repaid.
  EXPECT_EQ(small.out.end, kStart + 2 * kMs + 2500 * sim::kUs + kCompletion);
}

TEST(Dvpp, TasksQueueWhenEveryChannelIsBusy) {
  Bench bench(dvpp_config(2, 100, 1000));
  Seen& a = bench.submit(dvpp_task(DvppModule::kJpegd, 1, {{1000000, 0, 0}}));
  Seen& b = bench.submit(dvpp_task(DvppModule::kJpegd, 2, {{1000000, 0, 0}}));
  Seen& c = bench.submit(dvpp_task(DvppModule::kJpegd, 3, {{1000000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(a.out.end, kStart + 10 * kMs + kCompletion);
  EXPECT_EQ(b.out.start, kStart);
  EXPECT_EQ(b.out.end, kStart + 10 * kMs + kCompletion);  // the bucket holds 2 frames
  // Third: dispatched when a's channel frees.
  EXPECT_EQ(c.out.start, kStart + 10 * kMs + kDispatch);
  EXPECT_EQ(c.out.end, c.out.start + 10 * kMs + kCompletion);
}

TEST(Dvpp, TotalRateCapsTheChannels) {
  // 4 channels of 100 fps but 200 fps in total: a frame costs 5 ms of module time, the bucket
  // holds 20 ms. Round 1: all four start at once (bucket 20 -> 0 ms). Round 2 starts at
  // E = 10 ms + completion + dispatch, when the bucket has refilled 10.0005 ms: two frames
  // empty it, the third takes it into debt, the fourth waits 4.9995 ms for the debt.
  Bench bench(dvpp_config(4, 100, 200));
  std::vector<Seen*> first, second;
  for (std::uint32_t s = 1; s <= 4; ++s) {
    first.push_back(&bench.submit(dvpp_task(DvppModule::kVpc, s, {{1000000, 0, 0}})));
  }
  for (std::uint32_t s = 1; s <= 4; ++s) {
    second.push_back(&bench.submit(dvpp_task(DvppModule::kVpc, s, {{1000000, 0, 0}})));
  }
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  for (Seen* s : first) EXPECT_EQ(s->out.end, kStart + 10 * kMs + kCompletion);
  const SimTime e = kStart + 10 * kMs + kCompletion + kDispatch;
  std::vector<SimTime> ends;
  for (Seen* s : second) {
    EXPECT_EQ(s->out.start, e);
    ends.push_back(s->out.end);
  }
  std::sort(ends.begin(), ends.end());
  EXPECT_EQ(ends[0], e + 10 * kMs + kCompletion);
  EXPECT_EQ(ends[2], e + 10 * kMs + kCompletion);
  EXPECT_EQ(ends[3], e + 4999500 * kNs + 10 * kMs + kCompletion);
}

TEST(Dvpp, BatchFramesSpreadOverUnits) {
  // One task of 8 frames on 4 units of 100 fps, 100 fps in total (bucket 40 ms deep, 10 ms a
  // frame), frames issued back to back: 0-3 start at once and empty the bucket; 4 waits for a
  // unit (10 ms; the bucket refills meanwhile), 5 starts then too; 6 waits for the debt (20 ms),
  // 7 for the next (30 ms): the task ends at 40 ms (units alone would allow 20 ms).
  Bench bench(dvpp_config(4, 100, 100), /*trace=*/true);
  Seen& r = bench.submit(
      dvpp_task(DvppModule::kVpc, 1, std::vector<DvppFrame>(8, DvppFrame{1000000, 0, 0})));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(r.out.end, kStart + 40 * kMs + kCompletion);
  EXPECT_EQ(bench.stat("chip0.dvpp.vpc.frames"), 8.0);
  EXPECT_EQ(bench.stat("chip0.dvpp.vpc.tasks"), 1.0);
  const std::string json = bench.timeline_json();
  EXPECT_NE(json.find("\"DVPP VPC ch 3\""), std::string::npos);
}

TEST(Dvpp, BatchWaitsForAFreeUnit) {
  // 2 units, total not binding: frames 0 and 1 run at once, frame 2 waits for unit 0.
  Bench bench(dvpp_config(2, 100, 1e6));
  Seen& r = bench.submit(
      dvpp_task(DvppModule::kVpc, 1, {{1000000, 0, 0}, {1000000, 0, 0}, {1000000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // Frames 0 and 1 start at once, frame 2 when unit 0 frees (10 ms).
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

TEST(Dvpp, RecordsOneOpSummaryRowPerTask) {
  Bench bench(dvpp_config(2, 100, 1000));
  Dvpp* dvpp = bench.chip().unit<Dvpp>();
  ASSERT_NE(dvpp, nullptr);
  dvpp->keep_records(true);
  Task t = dvpp_task(DvppModule::kVpc, 3, {{1000000, 0, 0}, {1000000, 0, 0}});
  t.name = "VPC_BATCH_CROP";
  bench.submit(std::move(t));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  const std::vector<KernelRecord> records = dvpp->records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].task_type, "DVPP");
  EXPECT_EQ(records[0].name, "VPC_BATCH_CROP");
  EXPECT_EQ(records[0].stream, 3u);
  EXPECT_EQ(records[0].block_dim, 2u);
  EXPECT_EQ(records[0].start, kStart);
  EXPECT_EQ(records[0].end, kStart + 10 * kMs + kCompletion);  // both frames at once
  const std::string csv = op_summary_csv(records, OpSummaryParams{});
  EXPECT_NE(csv.find(",VPC_BATCH_CROP,VPC_BATCH_CROP,N/A,DVPP,0.700,10000.300,"), std::string::npos)
      << csv;
}

TEST(Dvpp, Preset310pFollowsThePublishedTable) {
  // ascend310p: JPEGD 1080p n x 128 fps up to 16 channels, 2048 in total; 4K (4x the pixels)
  // n x 32 fps. A 4K frame takes 1/32 s on a unit; two 1080p frames run side by side.
  ChipConfig c = load_chip_config("ascend310p", {}, "");
  c.scheduler = test_config().scheduler;  // round dispatch/completion figures
  Bench bench(c);
  Seen& k4 = bench.submit(dvpp_task(DvppModule::kJpegd, 1, {{3840ull * 2160, 0, 0}}));
  Seen& a = bench.submit(dvpp_task(DvppModule::kJpegd, 2, {{1920ull * 1080, 0, 0}}));
  Seen& b = bench.submit(dvpp_task(DvppModule::kVpc, 3, {{1920ull * 1080, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(k4.out.end, kStart + 31250 * sim::kUs + kCompletion);
  EXPECT_EQ(a.out.end, kStart + 7812500 * kNs + kCompletion);
  EXPECT_EQ(b.out.end, kStart + SimTime{2777777778} + kCompletion);  // 1/360 s to the ps
}

TEST(Dvpp, AbsentModuleClaimsNothing) {
  ChipConfig c = dvpp_config(1, 100, 100);
  c.unit<DvppConfig>().venc.channels = 0;
  Bench bench(c, /*trace=*/true);
  Seen& r = bench.submit(dvpp_task(DvppModule::kVenc, 1, {{1000000, 0, 0}}));
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(r.out.error, kUnclaimedTask);
  EXPECT_EQ(bench.timeline_json().find("DVPP VENC"), std::string::npos);
}

}  // namespace
}  // namespace npusim::models::testing
