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
#include "models/kernel_work.h"
#include "sim/quantity.h"

namespace npusim::rt {

using sim::SimTime;

/// What executes a task; also its timeline name ("MEMCPY_ASYNC", "EVENT_RECORD", ...).
enum class TaskType : std::uint8_t {
  kMemcpy,      // engine by path: PCIe H2D / D2H channel, SDMA for D2D, host CPU for H2H
  kMemset,      // SDMA (device memory) or host CPU (host memory)
  kEventRecord, // scheduler-internal
  kEventWait,   // scheduler-internal: blocks its stream until ready() holds
  kEventReset,  // scheduler-internal
  kValueWrite,  // scheduler-internal write of 8 bytes to device memory
  kValueWait,   // scheduler-internal: blocks its stream until ready() holds
  kKernel,      // AI Core (kernel issue)
  kHostFunc,    // host callback
  kNop,         // scheduler-internal, does nothing (barriers, placeholders)
};

enum class CopyPath : std::uint8_t { kH2H, kH2D, kD2H, kD2D };

/// Stream id reserved for synchronous copies/memsets issued outside any stream (aclrtMemcpy).
/// Tasks on it from one host thread still run in order; they never wait for other streams.
constexpr std::uint32_t kSyncStream = 0xFFFF0000u;

/// When and how a task ran. Times are simulated picoseconds.
struct TaskRecord {
  SimTime submit = 0;    // host clock when the API call submitted it
  SimTime start = 0;     // engine started
  SimTime end = 0;       // reported complete
  int error = 0;         // aclError of the task (0 = success)
  bool discarded = false;// dropped unexecuted (stream destroyed/aborted, stop-on-failure)
};

struct Task {
  TaskType type = TaskType::kNop;
  std::uint32_t device = 0;
  std::uint32_t stream = 0;        // device-unique stream id, or kSyncStream + host thread index
  std::uint32_t task_id = 0;       // per-stream sequence number (16-bit wrap is the runtime's concern)
  std::uint32_t priority = 0;      // 0 = highest .. 7 = lowest
  SimTime submit_at = 0;           // host clock at submission; the backend never runs it earlier
  std::string name;                // timeline label (kernel name, "MEMCPY_ASYNC", ...)
  std::uint64_t flow_id = 0;       // links the host API span to the device task on the timeline (0 = none)

  // Memory tasks.
  CopyPath path = CopyPath::kD2D;
  std::uint64_t bytes = 0;
  bool pageable = false;           // host side is pageable memory (staged through a bounce buffer)

  // Kernel tasks (kKernel): the launch as the device runs it (models/kernel_work.h). Null = a
  // placeholder that takes the scheduler's fixed sync_task time.
  std::shared_ptr<const models::KernelWork> kernel;

  // Wait tasks (kEventWait, kValueWait): the stream holds until ready() is true. The backend
  // re-evaluates it when the task reaches the head of its stream and after every task completion.
  std::function<bool()> ready;

  // The functional effect (copy the bytes, write the value, stamp the event...). Run by the
  // backend once, at the simulated time the engine finishes the work, before done(). Returns an
  // aclError (0 = success). May be empty.
  std::function<int()> effect;

  // Called exactly once: after effect() with the task's record, or with discarded = true.
  std::function<void(const TaskRecord&)> done;
};

enum class WaitResult { kDone, kTimeout, kStarved };

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

  /// Record a host API call on the host track of the timeline (thread = host thread index).
  virtual void trace_api(std::uint32_t thread, const std::string& name, SimTime start, SimTime end,
                         std::uint64_t flow_id) = 0;

  /// Write the timeline, stats and effective config to the output directory (if one is set).
  /// May be called more than once; each call rewrites the files with everything so far.
  virtual void write_outputs() = 0;
};

/// The SystemC backend, built from the config chosen by the environment (NPUSIM_CONFIG,
/// NPUSIM_SET, NPUSIM_OUT). Throws std::runtime_error with a clear message on a bad config.
std::unique_ptr<Backend> make_sim_backend();

}  // namespace npusim::rt
