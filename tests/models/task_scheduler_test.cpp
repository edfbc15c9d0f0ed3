// SPDX-License-Identifier: Apache-2.0
// Task scheduler: stream FIFO, overlap across engines, priority, waits, discard, submit_at.
// Bench config: doorbell 500 ns, dispatch 200 ns, completion 300 ns, sync tasks 100 ns, one SDMA
// channel, two PCIe DMA queues per direction.
#include <vector>

#include <gtest/gtest.h>

#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

constexpr SimTime kBurst = 8192 * kNs;              // 256 KiB over PCIe at 32 GB/s
constexpr SimTime kD2D1MiB = 500 * kNs + 16 * 131072 + 100 * kNs;  // setup + 16 x 2 x 64 KiB + lat

TEST(Scheduler, StreamIsFifoWithOneTaskInFlight) {
  Bench bench;
  Seen& a = bench.copy(1, Direction::kH2D, 1 * kMiB);
  Seen& b = bench.copy(1, Direction::kD2D, 1 * kMiB);
  Seen& c = bench.sync_task(1, TaskKind::kNop);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(a.order, 0);
  EXPECT_EQ(b.order, 1);
  EXPECT_EQ(c.order, 2);
  // a: 700 ns + 1 us + 4 bursts, reported 300 ns later.
  EXPECT_EQ(a.out.end, 700 * kNs + 1 * kUs + 4 * kBurst + 300 * kNs);
  // Each next task is dispatched when the previous one is reported complete.
  EXPECT_EQ(b.out.start, a.out.end + 200 * kNs);
  EXPECT_EQ(b.out.end, b.out.start + kD2D1MiB + 300 * kNs);
  EXPECT_EQ(c.out.start, b.out.end + 200 * kNs);
  EXPECT_EQ(c.out.end, c.out.start + 100 * kNs + 300 * kNs);
  EXPECT_EQ(bench.stat("chip0.scheduler.streams.stream_1.tasks"), 3.0);
  EXPECT_EQ(bench.stat("chip0.scheduler.engine_tasks.pcie_h2d"), 1.0);
  EXPECT_EQ(bench.stat("chip0.scheduler.engine_tasks.sdma"), 1.0);
  EXPECT_EQ(bench.stat("chip0.scheduler.engine_tasks.scheduler"), 1.0);
}

TEST(Scheduler, StreamsOverlapOnDifferentEngines) {
  Bench bench;
  Seen& h2d = bench.copy(1, Direction::kH2D, 4 * kMiB);
  Seen& d2d = bench.copy(2, Direction::kD2D, 1 * kMiB);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(h2d.out.start, 700 * kNs);
  EXPECT_EQ(d2d.out.start, 700 * kNs);
  EXPECT_LT(d2d.out.end, h2d.out.end);
  // The short D2D is not delayed beyond the HBM slots the H2D writes take (a few 262 ns slots).
  EXPECT_LE(d2d.out.end, 700 * kNs + kD2D1MiB + 300 * kNs + 2 * 262144);
  EXPECT_EQ(h2d.out.end, 700 * kNs + 1 * kUs + 16 * kBurst + 300 * kNs);
}

// SDMA has one channel: stream 1's big copy holds it while a priority-7 copy (submitted first)
// and a priority-0 copy (submitted later) wait.
struct PriorityRun {
  Seen* low = nullptr;
  Seen* high = nullptr;
  SimTime busy_until = 0;
};

PriorityRun run_priority_case(Bench& bench) {
  PriorityRun r;
  Seen& big = bench.copy(1, Direction::kD2D, 64 * kMiB, 0, 3);
  r.low = &bench.copy(2, Direction::kD2D, 1 * kMiB, 1 * kUs, 7);
  r.high = &bench.copy(3, Direction::kD2D, 1 * kMiB, 10 * kUs, 0);
  EXPECT_EQ(bench.run_all(), sim::WaitResult::kDone);
  r.busy_until = big.out.end - 300 * kNs;  // the channel frees when the engine ends
  return r;
}

TEST(Scheduler, PriorityDispatchesLaterHighPriorityTaskFirst) {
  Bench bench;
  PriorityRun r = run_priority_case(bench);
  EXPECT_EQ(r.high->out.start, r.busy_until + 200 * kNs);
  EXPECT_EQ(r.low->out.start, r.high->out.start + kD2D1MiB + 200 * kNs);
  EXPECT_LT(r.high->order, r.low->order);
}

TEST(Scheduler, FifoPolicyIgnoresPriority) {
  ChipConfig cfg = test_config();
  cfg.scheduler.policy = "fifo";
  Bench bench(cfg);
  PriorityRun r = run_priority_case(bench);
  EXPECT_EQ(r.low->out.start, r.busy_until + 200 * kNs);
  EXPECT_GT(r.high->out.start, r.low->out.start);
}

TEST(Scheduler, EventWaitHoldsItsStreamUntilTheRecordCompletes) {
  Bench bench;
  bool recorded = false;
  bench.copy(1, Direction::kH2D, 64 * kMiB);
  Seen& record = bench.sync_task(1, TaskKind::kEventRecord, 0, {}, [&] {
    recorded = true;
    return 0;
  });
  Seen& wait = bench.sync_task(2, TaskKind::kEventWait, 0, [&] { return recorded; });
  Seen& after = bench.sync_task(2, TaskKind::kNop);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // copy ends 2099.152 us; record: +200 dispatch +100 +300 = 2099.752 us.
  const SimTime copy_end = 700 * kNs + 1 * kUs + 256 * kBurst + 300 * kNs;
  EXPECT_EQ(record.out.end, copy_end + 600 * kNs);
  // The wait is released at the record's completion: +200 +100 +300.
  EXPECT_EQ(wait.out.start, record.out.end + 200 * kNs);
  EXPECT_EQ(wait.out.end, record.out.end + 600 * kNs);
  EXPECT_EQ(after.out.start, wait.out.end + 200 * kNs);
}

TEST(Scheduler, ValueWaitReleasedByValueWriteOnAnotherStream) {
  Bench bench;
  int value = 0;
  Seen& wait = bench.sync_task(2, TaskKind::kValueWait, 0, [&] { return value >= 1; });
  Seen& write = bench.sync_task(1, TaskKind::kValueWrite, 50 * kUs, {}, [&] {
    value = 1;
    return 0;
  });
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // write: visible 50.5 us, starts 50.7 us, ends 50.7 + 0.1 + 0.3 = 51.1 us.
  EXPECT_EQ(write.out.end, 51100 * kNs);
  EXPECT_EQ(wait.out.end, 51100 * kNs + 600 * kNs);
  EXPECT_LT(write.order, wait.order);
}

TEST(Scheduler, FutureSubmitAtIsHonoured) {
  Bench bench;
  Seen& copy = bench.copy(1, Direction::kH2D, 256 * kKiB, 1 * kMs);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(copy.out.submit, 1 * kMs);
  EXPECT_EQ(copy.out.start, 1 * kMs + 700 * kNs);
  EXPECT_EQ(copy.out.end, 1 * kMs + 700 * kNs + 1 * kUs + kBurst + 300 * kNs);
}

TEST(Scheduler, DiscardDropsTasksNotStarted) {
  Bench bench;
  Seen& running = bench.copy(1, Direction::kH2D, 64 * kMiB);
  std::vector<Seen*> queued;
  for (int i = 0; i < 3; ++i) queued.push_back(&bench.copy(1, Direction::kD2D, 1 * kMiB));
  Seen& blocked = bench.sync_task(2, TaskKind::kEventWait, 0, [] { return false; });
  Seen& other = bench.copy(3, Direction::kD2D, 1 * kMiB);
  bench.engine().advance_to(1 * kMs);
  bench.scheduler().discard(1);
  bench.scheduler().discard(2);
  for (Seen* s : queued) {
    EXPECT_TRUE(s->finished);
    EXPECT_TRUE(s->out.discarded);
    EXPECT_EQ(s->out.end, 1 * kMs);
  }
  EXPECT_TRUE(blocked.out.discarded);
  EXPECT_TRUE(other.finished);
  EXPECT_FALSE(other.out.discarded);
  EXPECT_FALSE(running.finished);  // started: it runs to its end
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_FALSE(running.out.discarded);
  EXPECT_EQ(running.out.end, 700 * kNs + 1 * kUs + 256 * kBurst + 300 * kNs);
  EXPECT_EQ(bench.stat("chip0.scheduler.discarded"), 4.0);
  EXPECT_EQ(bench.scheduler().outstanding(), 0u);
}

TEST(Scheduler, EffectErrorIsReported) {
  Bench bench;
  Seen& t = bench.sync_task(1, TaskKind::kValueWrite, 0, {}, [] { return 507899; });
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(t.out.error, 507899);
}

TEST(Scheduler, HostCopyAndPlaceholderKinds) {
  Bench bench;
  Seen& h2h = bench.copy(1, Direction::kH2H, 1 * kMiB);
  Seen& kernel = bench.sync_task(2, TaskKind::kKernel);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  // The host copies it at once: 1 MiB / 16 GB/s, no doorbell, dispatch or completion.
  EXPECT_EQ(h2h.out.start, 0u);
  EXPECT_EQ(h2h.out.end, 65536 * kNs);
  EXPECT_EQ(kernel.out.end, 700 * kNs + 100 * kNs + 300 * kNs);  // placeholder: sync_task
}


// Device-side control flow (Task::follow): tasks handed over at a completion are resident — no
// doorbell — and a follow-up on the same stream runs exactly as if it had been queued behind.
struct Followed {
  TaskOutcome out;
  bool done = false;
};

Task followed_task(std::uint32_t stream, TaskKind kind, Followed& f, std::uint64_t bytes = 0) {
  Task t;
  t.kind = kind;
  t.direction = Direction::kD2D;
  t.bytes = bytes;
  t.stream = stream;
  t.done = [&f](const TaskOutcome& o) {
    f.out = o;
    f.done = true;
  };
  return t;
}

TEST(Scheduler, FollowUpTasksAreResidentAndRunAtTheCompletion) {
  Bench bench;
  Followed same, other, chained;
  Task a;
  a.kind = TaskKind::kCopy;
  a.direction = Direction::kD2D;
  a.bytes = 1 * kMiB;
  a.stream = 1;
  int effect_runs = 0;
  a.effect = [&effect_runs] { return ++effect_runs == 1 ? 0 : 1; };
  a.follow = [&](std::vector<Task>& next) {
    EXPECT_EQ(effect_runs, 1);  // after effect(), before done()
    next.push_back(followed_task(1, TaskKind::kCopy, same, 1 * kMiB));
    Task c = followed_task(2, TaskKind::kNop, other);
    // A follow-up's own follow-up: handed over when it completes.
    c.follow = [&](std::vector<Task>& more) {
      more.push_back(followed_task(2, TaskKind::kNop, chained));
    };
    next.push_back(std::move(c));
  };
  Seen& first = bench.submit(std::move(a));
  ASSERT_EQ(bench.engine().run_until([&] { return chained.done && same.done; }, sim::kForever),
            sim::WaitResult::kDone);
  const SimTime a_end = 700 * kNs + kD2D1MiB + 300 * kNs;
  EXPECT_EQ(first.out.end, a_end);
  EXPECT_EQ(first.out.error, 0);
  // Same stream: dispatched when the first is reported complete, as a queued task would be.
  EXPECT_EQ(same.out.submit, a_end);
  EXPECT_EQ(same.out.start, a_end + 200 * kNs);
  EXPECT_EQ(same.out.end, a_end + 200 * kNs + kD2D1MiB + 300 * kNs);
  // Another stream: no doorbell (a fresh submit at a_end would start at a_end + 700 ns).
  EXPECT_EQ(other.out.start, a_end + 200 * kNs);
  EXPECT_EQ(other.out.end, a_end + 200 * kNs + 100 * kNs + 300 * kNs);
  EXPECT_EQ(chained.out.start, other.out.end + 200 * kNs);
  EXPECT_EQ(bench.scheduler().outstanding(), 0u);
  EXPECT_EQ(bench.stat("chip0.scheduler.submitted"), 4.0);
  EXPECT_EQ(bench.stat("chip0.scheduler.completed"), 4.0);
}

TEST(Scheduler, FollowUpQueuesBehindTasksAlreadyOnItsStream) {
  Bench bench;
  Followed late;
  Task a;
  a.kind = TaskKind::kNop;
  a.stream = 1;
  a.follow = [&](std::vector<Task>& next) {
    next.push_back(followed_task(2, TaskKind::kNop, late));
  };
  bench.submit(std::move(a));
  Seen& busy = bench.copy(2, Direction::kD2D, 1 * kMiB);  // stream 2 holds SDMA meanwhile
  ASSERT_EQ(bench.engine().run_until([&] { return late.done; }, sim::kForever),
            sim::WaitResult::kDone);
  // FIFO on stream 2: the follow-up waits for the copy queued before it.
  EXPECT_EQ(late.out.start, busy.out.end + 200 * kNs);
}

TEST(Scheduler, AFollowUpWaitHoldsItsStreamUntilReleased) {
  Bench bench;
  Followed wait;
  bool flag = false;
  Task a;
  a.kind = TaskKind::kNop;
  a.stream = 1;
  a.follow = [&](std::vector<Task>& next) {
    Task w = followed_task(1, TaskKind::kValueWait, wait);
    w.ready = [&flag] { return flag; };
    next.push_back(std::move(w));
  };
  Seen& first = bench.submit(std::move(a));
  // Stream 2 releases the wait with a scheduler task after a long copy.
  Seen& copy = bench.copy(2, Direction::kD2D, 1 * kMiB);
  Seen& release = bench.sync_task(2, TaskKind::kValueWrite, 0, {}, [&flag] {
    flag = true;
    return 0;
  });
  ASSERT_EQ(bench.engine().run_until([&] { return wait.done && release.finished; },
                                     sim::kForever),
            sim::WaitResult::kDone);
  EXPECT_EQ(first.out.end, 700 * kNs + 100 * kNs + 300 * kNs);
  EXPECT_LT(first.out.end, copy.out.end);               // the wait was queued long before...
  EXPECT_EQ(wait.out.start, release.out.end + 200 * kNs);  // ...and dispatched once released
}

}  // namespace
}  // namespace npusim::models::testing
