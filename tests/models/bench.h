// SPDX-License-Identifier: Apache-2.0
// Test bench for the device models: one Chip on its own Engine, a tiny chip configuration with
// round numbers (so expected times are exact), and helpers to submit tasks and collect outcomes.
// Each TEST that builds a Bench elaborates SystemC: it must run alone in its process (ctest).
#pragma once

#include <unistd.h>

#include <cstdio>

#include <cstdint>
#include <deque>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "models/chip.h"
#include "models/chip_config.h"
#include "models/sdma_config.h"
#include "sim/engine.h"
#include "sim/stats.h"
#include "sim/trace.h"

namespace npusim::models::testing {

using sim::kMs;
using sim::kNs;
using sim::kUs;
using sim::SimTime;

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;

/// Round numbers: every task pays doorbell 500 ns + dispatch 200 ns + completion 300 ns = 1 us.
/// PCIe 32 GB/s: a 256 KiB burst takes 8.192 us. HBM 1 TB/s: a 64 KiB burst takes 65.536 ns.
inline ChipConfig test_config() {
  ChipConfig c;
  c.soc.num_devices = 1;
  c.host.memcpy_bandwidth = sim::Bandwidth{16e9};
  c.pcie.h2d_bandwidth = sim::Bandwidth{32e9};
  c.pcie.d2h_bandwidth = sim::Bandwidth{32e9};
  c.pcie.latency = sim::Duration{1 * kUs};
  c.pcie.burst = sim::Bytes{256 * kKiB};
  c.pcie.pageable_chunk = sim::Bytes{1 * kMiB};
  c.pcie.dma_channels = 2;
  c.hbm.bandwidth = sim::Bandwidth{1e12};
  c.hbm.efficiency = 1.0;
  c.hbm.latency = sim::Duration{100 * kNs};
  c.unit<SdmaConfig>().channels = 1;
  c.unit<SdmaConfig>().setup = sim::Duration{500 * kNs};
  c.unit<SdmaConfig>().burst = sim::Bytes{64 * kKiB};
  c.scheduler.doorbell = sim::Duration{500 * kNs};
  c.scheduler.dispatch = sim::Duration{200 * kNs};
  c.scheduler.completion = sim::Duration{300 * kNs};
  c.scheduler.sync_task = sim::Duration{100 * kNs};
  c.scheduler.policy = "priority";
  return c;
}

/// A copy task of `bytes` in direction `dir` on `stream`, submitted at host time `at`.
inline Task copy_task(std::uint32_t stream, Direction dir, std::uint64_t bytes, SimTime at = 0) {
  Task t;
  t.kind = TaskKind::kCopy;
  t.stream = stream;
  t.direction = dir;
  t.bytes = bytes;
  t.submit_at = at;
  return t;
}

/// What the bench saw of one task.
struct Seen {
  TaskOutcome out;
  bool finished = false;
  int order = -1;  // completion order over the bench
};

/// What every bench has: the engine (built before any SystemC object of the derived bench),
/// statistics, a trace, and a record per submitted task.
class BenchBase {
 public:
  BenchBase(const BenchBase&) = delete;
  BenchBase& operator=(const BenchBase&) = delete;

  /// Run until every submitted task finished (or nothing is left to simulate).
  sim::WaitResult run_all(SimTime deadline = sim::kForever) {
    return engine_.run_until([this] { return finished_ == static_cast<int>(seen_.size()); },
                             deadline);
  }
  double stat(const std::string& path) const { return stats_.value(path); }
  /// The timeline so far (a bench built with trace = true), as written to timeline.json.
  std::string timeline_json() const {
    // One file per test process: ctest runs model tests in parallel, each in a process of its own.
    const std::string path =
        ::testing::TempDir() + "bench_timeline_" + std::to_string(::getpid()) + ".json";
    trace_.write(path);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    return text;
  }

 protected:
  explicit BenchBase(bool trace) : trace_(trace) {}
  /// A record for `task`, filled when it completes (stable address): sets task.done.
  Seen& track(Task& task) {
    Seen& seen = seen_.emplace_back();
    task.done = [this, &seen](const TaskOutcome& o) {
      seen.out = o;
      seen.finished = true;
      seen.order = finished_++;
    };
    return seen;
  }
  /// The completion hook of a scheduler: re-checks its waits and wakes the engine.
  template <class Scheduler>
  void wake_on_completion(Scheduler& s) {
    s.set_completion_hook([this, &s] {
      s.reevaluate_waits();
      engine_.wake();
    });
  }

  sim::Engine engine_;  // before every SystemC object
  sim::StatGroup stats_{"test"};
  sim::TraceWriter trace_;

 private:
  std::deque<Seen> seen_;
  int finished_ = 0;
};

class Bench : public BenchBase {
 public:
  explicit Bench(const ChipConfig& cfg = test_config(), bool trace = false)
      : BenchBase(trace), chip_("chip0", 0, cfg, stats_.child("chip0"), trace_) {
    wake_on_completion(chip_.scheduler());
    engine_.elaborate();
  }

  /// Submit a task; the returned record is filled when it completes (stable address).
  Seen& submit(Task task) {
    Seen& seen = track(task);
    chip_.scheduler().submit(std::move(task));
    return seen;
  }

  Seen& copy(std::uint32_t stream, Direction dir, std::uint64_t bytes, SimTime at = 0,
             std::uint32_t priority = 0, bool pageable = false) {
    Task t = copy_task(stream, dir, bytes, at);
    t.priority = priority;
    t.pageable = pageable;
    return submit(std::move(t));
  }

  Seen& sync_task(std::uint32_t stream, TaskKind kind, SimTime at = 0,
                  std::function<bool()> ready = {}, std::function<int()> effect = {}) {
    Task t;
    t.kind = kind;
    t.stream = stream;
    t.submit_at = at;
    t.ready = std::move(ready);
    t.effect = std::move(effect);
    return submit(std::move(t));
  }

  sim::Engine& engine() { return engine_; }
  TaskScheduler& scheduler() { return chip_.scheduler(); }
  Chip& chip() { return chip_; }

 private:
  Chip chip_;
};

}  // namespace npusim::models::testing
