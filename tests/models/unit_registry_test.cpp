// SPDX-License-Identifier: Apache-2.0
// A unit is one file plus one registration: a test-only engine, defined and registered here
// (no other source file names it), runs the tasks routed to it, with its own timeline track and
// statistics. Also: routes are claimed once; a task no unit claimed ends with kUnclaimedTask.
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "models/unit.h"
#include "tests/models/bench.h"

namespace npusim::models::testing {
namespace {

constexpr auto kEchoKind = static_cast<TaskKind>(kFirstUnitKind + 7);
constexpr SimTime kEchoTime = 3 * kUs;

/// Takes kEchoTime per task on one channel at a time (closed form would not test start()).
class EchoUnit : public sc_core::sc_module, public TaskEngine, public Unit {
 public:
  EchoUnit(const sc_core::sc_module_name& name, UnitContext& ctx)
      : sc_module(name), track_(ctx.tracks.add("Echo")) {
    ctx.stats.add("tasks", tasks_, "", "tasks echoed");
    ctx.routes.claim(kEchoKind, *this, "echo");
    SC_METHOD(finish);
    sensitive << done_;
    dont_initialize();
  }
  SC_HAS_PROCESS(EchoUnit);

  const char* task_type(const Task&) const override { return "ECHO_SQE"; }
  bool has_free_channel() const override { return job_ == nullptr; }
  void start(EngineJob& job, SimTime delay, JobSink& sink) override {
    job_ = &job;
    sink_ = &sink;
    job.channel = 0;
    job.start = sim::sim_now() + delay;
    done_.notify(sim::to_sc_time(delay + kEchoTime));
  }

 private:
  void finish() {
    EngineJob& job = *job_;
    job.engine_end = sim::sim_now();
    ++tasks_;
    track_.span(job.task->name, job.start, job.engine_end);
    job_ = nullptr;
    sink_->job_finished(job);
  }

  sim::Track track_;
  sc_core::sc_event done_;
  EngineJob* job_ = nullptr;
  JobSink* sink_ = nullptr;
  std::uint64_t tasks_ = 0;
};

Seen& echo(Bench& bench, std::uint32_t stream, SimTime at = 0) {
  Task t;
  t.kind = kEchoKind;
  t.stream = stream;
  t.submit_at = at;
  return bench.submit(std::move(t));
}

TEST(UnitRegistry, ATestOnlyEngineRunsTheTasksRoutedToIt) {
  add_unit({"echo", make_unit<EchoUnit>});
  Bench bench(test_config(), /*trace=*/true);
  Seen& a = echo(bench, 1);
  Seen& b = echo(bench, 2);  // another stream: waits for the one channel
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  ASSERT_TRUE(a.finished && b.finished);
  EXPECT_EQ(a.out.error, 0);
  // doorbell 500 ns + dispatch 200 ns, 3 us of work, completion 300 ns.
  EXPECT_EQ(a.out.start, 700 * kNs);
  EXPECT_EQ(a.out.end, 700 * kNs + kEchoTime + 300 * kNs);
  EXPECT_EQ(b.out.start, 700 * kNs + kEchoTime + 200 * kNs);  // dispatched when the channel frees
  EXPECT_EQ(bench.stat("chip0.echo.tasks"), 2.0);
  EXPECT_EQ(bench.stat("chip0.scheduler.engine_tasks.echo"), 2.0);
  const std::string json = bench.timeline_json();
  EXPECT_NE(json.find("\"Echo\""), std::string::npos);         // its track
  EXPECT_NE(json.find("\"ECHO_SQE\""), std::string::npos);     // its task type on the stream
}

TEST(UnitRegistry, ARouteIsClaimedOnce) {
  Bench bench;
  struct Dummy : FixedTimeEngine {
    const char* task_type(const Task&) const override { return "X"; }
    std::optional<SimTime> fixed_time(const Task&) const override { return 0; }
  } dummy;
  EXPECT_THROW(bench.scheduler().claim(TaskKind::kCopy, Direction::kH2D, dummy, "dummy"),
               std::logic_error);
  EXPECT_NO_THROW(bench.scheduler().claim(kEchoKind, dummy, "dummy"));
  EXPECT_EQ(bench.scheduler().engine_for([] {
    Task t;
    t.kind = kEchoKind;
    return t;
  }()), &dummy);
}

TEST(UnitRegistry, ATaskNoUnitClaimedEndsWithAnError) {
  Bench bench;
  Seen& s = echo(bench, 1);  // nobody registered the echo unit in this process
  Seen& after = bench.copy(1, Direction::kD2D, 4096);
  ASSERT_EQ(bench.run_all(), sim::WaitResult::kDone);
  EXPECT_EQ(s.out.error, kUnclaimedTask);
  EXPECT_EQ(after.out.error, 0);  // the stream goes on
  EXPECT_EQ(s.order, 0);
}

TEST(UnitRegistry, BuiltinUnitsAreListedOnce) {
  std::vector<std::string> names;
  for (const UnitSpec& u : unit_specs()) names.emplace_back(u.name);
  EXPECT_EQ(names, (std::vector<std::string>{"pcie", "sdma", "host_cpu", "sync_tasks", "aicore",
                                                 "dsa", "aicpu", "hccs", "dvpp"}));
}

}  // namespace
}  // namespace npusim::models::testing
