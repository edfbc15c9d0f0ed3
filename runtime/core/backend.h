// SPDX-License-Identifier: Apache-2.0
// The seam between the aclrt* front end (plain C++) and the simulated chip.
//
// The runtime turns API calls into Tasks and submits them; the backend executes them in simulated
// time and calls Task::done exactly once per task. Blocking API calls call run_until(), which
// advances simulated time in the calling host thread until a predicate holds (the "inline" thread
// model: deterministic, no kernel thread). The one SystemC implementation is sim_backend.cpp; the
// API-semantics tests use FakeBackend (fake_backend.h).
//
// Contract for every method: the caller holds the runtime's API lock; no method is re-entered from
// a Task callback (callbacks may only touch runtime bookkeeping, never call back into Backend).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "models/chip_config.h"
#include "models/task.h"
#include "sim/quantity.h"
#include "sim/wait.h"

namespace npusim::rt {

// One task vocabulary across the seam: the runtime builds the models' tasks directly.
using models::Direction;
using models::Task;
using models::TaskKind;
using models::TaskOutcome;
using sim::SimTime;
using sim::WaitResult;

/// Stream id reserved for synchronous copies/memsets issued outside any stream (aclrtMemcpy):
/// kSyncStream + host thread index. Tasks on it from one host thread still run in order; they
/// never wait for other streams.
constexpr std::uint32_t kSyncStream = models::kSyncStreamBase;

class Backend {
 public:
  virtual ~Backend() = default;

  /// The effective configuration of the chip.
  virtual const models::ChipConfig& config() const = 0;

  /// Queue a task on its stream. Tasks of one stream run in submission order, one at a time.
  virtual void submit(Task task) = 0;

  /// Advance simulated time until done() holds (checked after every task completion), simulated
  /// time reaches `deadline`, or nothing is left to simulate. done() is checked first.
  virtual WaitResult run_until(const std::function<bool()>& done, SimTime deadline) = 0;

  /// Current simulated time.
  virtual SimTime now() const = 0;

  /// Drop every task of `stream` that has not started by simulated time `at` (the backend first
  /// advances to `at`); their done() is called with discarded = true. Started tasks finish.
  virtual void discard_stream(std::uint32_t device, std::uint32_t stream, SimTime at) = 0;

  /// Record a host API call (`function`, e.g. "aclrtMemcpyAsync"; shown as
  /// "AscendCL@aclrtMemcpyAsync") on the host track of the timeline (thread = host thread index).
  virtual void trace_api(std::uint32_t thread, const char* function, SimTime start, SimTime end,
                         std::uint64_t flow_id) = 0;

  /// Record host work that is not an API call (a host callback) as a span `name` on the host
  /// track of `thread`.
  virtual void trace_host(std::uint32_t thread, const char* name, SimTime start, SimTime end) = 0;

  /// Advance simulated time to `t` (no-op when t <= now), running whatever happens until then.
  virtual void advance_to(SimTime t) = 0;

  /// Write the timeline, stats and effective config to the output directory (if one is set).
  /// May be called more than once; each call rewrites the files with everything so far.
  virtual void write_outputs() = 0;

  /// The output directory (NPUSIM_OUT; empty when the run writes no outputs and so records no
  /// timeline, except during a profiling session).
  virtual std::string output_dir() const { return {}; }

  // ---- Profiling sessions (aclprofStart ... aclprofStop, runtime/prof/profiler.h) ----
  /// Record the timeline and the op_summary records from now on, also in a run without an
  /// output directory (whose timeline then holds only what happens from here).
  virtual void start_profiling() {}
  /// The session ended: a run without an output directory stops recording again.
  virtual void stop_profiling() {}
  /// Writes the session's device-side files into `dir`: msprof_<stamp>.json (the timeline),
  /// op_summary_<stamp>.csv and op_statistic_<stamp>.csv (the tasks that started at or after
  /// `from`). False when nothing was recorded (the file names and columns: profiler.h).
  virtual bool write_profile(const std::string& dir, const std::string& stamp, SimTime from) {
    (void)dir, (void)stamp, (void)from;
    return false;
  }
};

/// The SystemC backend, built from the config chosen by the environment (NPUSIM_CONFIG,
/// NPUSIM_SET, NPUSIM_OUT). Throws std::runtime_error with a clear message on a bad config.
std::unique_ptr<Backend> make_sim_backend();

}  // namespace npusim::rt
