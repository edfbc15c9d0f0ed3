// SPDX-License-Identifier: Apache-2.0
// The task vocabulary shared by the runtime and the device models: what the host puts in a
// stream's submission queue (one SQE), how it ended, and what an engine is handed when the task
// scheduler dispatches it. Plain C++: runtime/core/backend.h uses these types as they are.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "sim/quantity.h"
#include "sim/wait.h"

namespace npusim::models {

using sim::SimTime;
using sim::WaitResult;

/// Stream ids from this value on are the runtime's per-host-thread synchronous-copy streams
/// (kSyncStreamBase + thread index). Tasks on one of them still run in order; they never wait for
/// other streams; they only get different timeline names.
constexpr std::uint32_t kSyncStreamBase = 0xFFFF0000u;

/// What a task asks the device to do. The unit that executes a kind is not named here: units
/// claim (kind, direction) routes when they are built (models/unit.h). A unit with a task kind of
/// its own adds it here (the vocabulary both sides of the seam speak); values below
/// kFirstUnitKind are taken by this list, the rest are free for units and tests.
enum class TaskKind : std::uint8_t {
  kCopy,         // by direction: PCIe DMA (H2D, D2H), SDMA (D2D), host CPU (H2H), HCCS (kPeer)
  kMemset,       // SDMA (device memory) or host CPU (kH2H: host memory)
  kEventRecord,  // scheduler-internal
  kEventWait,    // scheduler-internal, holds its stream until ready()
  kEventReset,   // scheduler-internal (writes the event's flag)
  kValueWrite,   // scheduler-internal write of 8 bytes to device memory
  kValueWait,    // scheduler-internal, holds its stream until ready()
  kKernel,       // AI Core (payload: a KernelWork; without one: a fixed scheduler.sync_task)
  kHostFunc,     // host callback
  kNop,          // scheduler-internal, does nothing (barriers, placeholders)
  kReduce,       // SDMA (kD2D) / HCCS (kPeer): dst = dst (op) src element-wise
  kRandom,       // DSA: random numbers into device memory (aclrtRandomNumAsync)
  kAiCpu,        // AI CPU: an AI CPU kernel (payload: an AiCpuWork)
  // DVPP media unit (models/dvpp.h), one kind per module in DvppModule order; the task's payload
  // (a DvppWork) says what it processes.
  kDvppVpc,
  kDvppJpegd,
  kDvppJpege,
  kDvppPngd,
  kDvppVdec,
  kDvppVenc,
};
constexpr int kFirstUnitKind = 32;
constexpr int kTaskKinds = 256;  // every value of the underlying type

/// Which memories a copy (memset, reduce) touches. kPeer: between the memories of two chips —
/// Task::device (the chip whose stream queued the task and runs it) and Task::peer; Task::from_peer
/// says which way the bytes go. It runs on the HCCS link between the two chips, or over PCIe
/// through the host when the topology has no direct link (models/hccs_link.h).
enum class Direction : std::uint8_t { kH2H, kH2D, kD2H, kD2D, kPeer };
constexpr int kDirections = 5;

/// What the unit executing a task needs to know beyond the common fields (a KernelWork, an
/// AiCpuWork, a DvppWork, or a type of a unit's own), opaque to everything between the submitter
/// and that unit. Shared and immutable: the runtime's records may keep it after the task ends.
class TaskPayload {
 public:
  TaskPayload() = default;
  template <class T>
  TaskPayload(std::shared_ptr<T> p)  // NOLINT: implicit, task.payload = make_shared<Work>(...)
      : ptr_(std::move(p)), type_(ptr_ ? &typeid(T) : nullptr) {}

  explicit operator bool() const { return ptr_ != nullptr; }
  /// Whether the payload is a T.
  template <class T>
  bool is() const {
    return type_ != nullptr && *type_ == typeid(T);
  }
  /// The payload if it is a T; nullptr when there is none or it is of another type.
  template <class T>
  const T* get() const {
    return is<T>() ? static_cast<const T*>(ptr_.get()) : nullptr;
  }
  /// The same, sharing ownership.
  template <class T>
  std::shared_ptr<const T> share() const {
    if (!is<T>()) return nullptr;
    return std::shared_ptr<const T>(ptr_, static_cast<const T*>(ptr_.get()));
  }

 private:
  std::shared_ptr<const void> ptr_;
  const std::type_info* type_ = nullptr;
};

/// How a task ended; times in simulated ps.
struct TaskOutcome {
  SimTime submit = 0;     // host clock when the API call submitted it
  SimTime start = 0;      // engine started (after dispatch)
  SimTime end = 0;        // reported complete
  int error = 0;          // aclError of the task (effect()'s result; 0 = success)
  bool discarded = false; // dropped unexecuted (stream destroyed/aborted, stop-on-failure)
};

struct Task {
  TaskKind kind = TaskKind::kNop;
  Direction direction = Direction::kD2D;  // copies and memsets: which side(s) of the link
  bool pageable = false;      // host side is pageable (staged through a bounce buffer)
  std::uint32_t device = 0;   // the chip whose stream queued the task (and whose scheduler runs it)
  /// Direction::kPeer only: the other chip, and which way the bytes go. from_peer = false: source
  /// on `device`, destination on `peer` (a write/push); true: source on `peer`, destination on
  /// `device` (a read/pull). For kReduce the destination is the one that is read and written.
  std::uint32_t peer = 0;
  bool from_peer = false;
  std::uint32_t stream = 0;   // device-unique stream id, or kSyncStreamBase + host thread index
  std::uint32_t task_id = 0;  // per-stream sequence number (16-bit wrap is the runtime's concern)
  std::uint32_t priority = 0; // 0 = highest .. 7 = lowest
  SimTime submit_at = 0;      // host clock at submission; the device never runs it earlier
  std::uint64_t bytes = 0;
  std::uint64_t elements = 0; // kRandom: numbers the task generates (bytes = what it writes)
  std::uint64_t flow_id = 0;  // links the host API span to the device task on the timeline
  /// Timeline only: a device-to-device arrow from this task's end to the end of the task whose
  /// sync_flow_in is the same id (a synchronisation it releases on another stream or chip, e.g.
  /// HCCL's notify record -> notify wait). 0 = none; ids are unique per run.
  std::uint64_t sync_flow_out = 0;
  std::uint64_t sync_flow_in = 0;
  std::string name;           // timeline label; empty = the unit's task type ("SDMA_SQE"...)
  TaskPayload payload;        // read by the unit that executes the task (KernelWork for kKernel...)

  /// Wait tasks (kEventWait, kValueWait): the stream holds until ready() is true. Re-tested when
  /// the task reaches the head of its stream and after every task completion.
  std::function<bool()> ready;
  /// The functional effect (copy the bytes, write the value, stamp the event...), run once at the
  /// simulated time the engine finishes the work, before done(). Returns an aclError. May be empty.
  std::function<int()> effect;
  /// Called exactly once: after effect() with the outcome, or with discarded = true.
  std::function<void(const TaskOutcome&)> done;

  /// Device-side control flow (model run instances, runtime/core/model_ri.h). Called once when the
  /// task completes, after effect() and before done() (never for a discarded task); it appends
  /// the tasks that become runnable at that simulated time, each naming its own device and
  /// stream. The backend queues them at once, behind what their streams already hold, as
  /// resident tasks with submit_at = now. It must not call into the Backend.
  std::function<void(std::vector<Task>&)> follow;
  /// Already in the device's task memory (a model's tasks): visible to the scheduler at
  /// submit_at, without a doorbell. Set by the backend for the tasks follow() hands over.
  bool resident = false;
};

inline bool is_wait(TaskKind kind) {
  return kind == TaskKind::kEventWait || kind == TaskKind::kValueWait;
}

}  // namespace npusim::models
