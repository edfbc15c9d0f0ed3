// SPDX-License-Identifier: Apache-2.0
#include "models/task_scheduler.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "sim/engine.h"

namespace npusim::models {
namespace {

constexpr int kSchedulerTid = 1;
constexpr int kHostCpuTid = 2;
constexpr int kSyncStreamFirstTid = 60000;

const char* sqe_type(const DeviceTask& task) {
  switch (task.kind) {
    case TaskKind::kCopy:
      if (task.direction == Direction::kH2H) return "HOST_CPU_SQE";
      return task.direction == Direction::kD2D ? "SDMA_SQE" : "PCIE_DMA_SQE";
    case TaskKind::kMemset: return task.direction == Direction::kH2H ? "HOST_CPU_SQE" : "SDMA_SQE";
    case TaskKind::kEventRecord: return "EVENT_RECORD_SQE";
    case TaskKind::kEventWait: return "EVENT_WAIT_SQE";
    case TaskKind::kEventReset: return "WRITE_VALUE_SQE";  // a reset writes the event's flag
    case TaskKind::kValueWrite: return "WRITE_VALUE_SQE";
    case TaskKind::kValueWait: return "NOTIFY_WAIT_SQE";
    case TaskKind::kKernel:  // msprof's compute task types (on coupled chips blocks run on AI Cores)
      if (task.kernel && task.kernel->core_type == CoreType::kAiv) return "AI_VECTOR_CORE";
      if (task.kernel && task.kernel->core_type == CoreType::kMix) return "MIX_AIC";
      return "AI_CORE";
    case TaskKind::kHostFunc: return "HOST_CPU_SQE";
    case TaskKind::kNop: return "PLACE_HOLDER_SQE";
  }
  return "PLACE_HOLDER_SQE";
}

const char* operation(Direction d) {
  switch (d) {
    case Direction::kH2H: return "host to host";
    case Direction::kH2D: return "host to device";
    case Direction::kD2H: return "device to host";
    case Direction::kD2D: return "device to device";
  }
  return "";
}

}  // namespace

const char* engine_name(EngineKind kind) {
  static const char* const kNames[kEngineKinds] = {"pcie_h2d",  "pcie_d2h", "sdma",     "host_cpu",
                                                   "scheduler", "aicore",   "host_func"};
  return kNames[static_cast<int>(kind)];
}

SC_HAS_PROCESS(TaskScheduler);

TaskScheduler::TaskScheduler(const sc_core::sc_module_name& name, const ChipConfig& cfg,
                             DeviceTracks tracks, sim::StatGroup& stats)
    : sc_module(name),
      doorbell_(cfg.scheduler.doorbell.ps),
      dispatch_(cfg.scheduler.dispatch.ps),
      completion_(cfg.scheduler.completion.ps),
      sync_task_(cfg.scheduler.sync_task.ps),
      host_memcpy_(cfg.host.memcpy_bandwidth),
      by_priority_(cfg.scheduler.policy != "fifo"),
      tracks_(tracks),
      stream_stats_(stats.child("streams")) {
  SC_METHOD(on_agenda);
  sensitive << agenda_event_;
  dont_initialize();
  if (tracks_.writer != nullptr && tracks_.writer->enabled()) {
    tracks_.writer->thread(tracks_.units_pid, kSchedulerTid, "Scheduler", kSchedulerTid);
    tracks_.writer->thread(tracks_.units_pid, kHostCpuTid, "Host CPU", kHostCpuTid);
  }
  register_stats(stats);
}

EngineKind TaskScheduler::route(const DeviceTask& task) {
  switch (task.kind) {
    case TaskKind::kCopy:
      switch (task.direction) {
        case Direction::kH2D: return EngineKind::kPcieH2D;
        case Direction::kD2H: return EngineKind::kPcieD2H;
        case Direction::kD2D: return EngineKind::kSdma;
        case Direction::kH2H: return EngineKind::kHostCpu;
      }
      return EngineKind::kSdma;
    case TaskKind::kMemset:
      return task.direction == Direction::kH2H ? EngineKind::kHostCpu : EngineKind::kSdma;
    case TaskKind::kKernel: return EngineKind::kAiCore;
    case TaskKind::kHostFunc: return EngineKind::kHostFunc;
    default: return EngineKind::kScheduler;
  }
}

void TaskScheduler::set_engine(EngineKind kind, TaskEngine* engine) {
  pools_[static_cast<int>(kind)].engine = engine;
}

TaskScheduler::Stream& TaskScheduler::stream(std::uint32_t id) {
  auto [it, inserted] = streams_.try_emplace(id);
  Stream& s = it->second;
  if (!inserted) return s;
  s.id = id;
  const bool sync = id >= kSyncStreamBase;
  const std::string name = sync ? "Sync copies " + std::to_string(id - kSyncStreamBase)
                                : "Stream " + std::to_string(id);
  s.tid = sync ? kSyncStreamFirstTid + static_cast<int>(id - kSyncStreamBase)
               : static_cast<int>(id);
  if (tracks_.writer != nullptr && tracks_.writer->enabled()) {
    tracks_.writer->thread(tracks_.device_pid, s.tid, name, s.tid);
  }
  sim::StatGroup& group = stream_stats_.child(
      sync ? "sync_" + std::to_string(id - kSyncStreamBase) : "stream_" + std::to_string(id));
  group.add("tasks", s.tasks, "", "tasks completed on this stream");
  group.add("bytes", s.bytes, "B", "bytes copied or set by this stream's tasks");
  return s;
}

void TaskScheduler::submit(DeviceTask task) {
  Stream& s = stream(task.stream);
  if (task.name.empty() && tracks_.writer != nullptr && tracks_.writer->enabled()) {
    task.name = sqe_type(task);
  }
  ++submitted_;
  ++outstanding_;
  s.queue.push_back(std::move(task));
  if (s.queue.size() == 1) try_advance(s);
}

void TaskScheduler::schedule(sim::SimTime at, Stream& s, bool completion) {
  agenda_.push(AgendaItem{at, ++seq_, &s, completion});
  if (!in_agenda_) agenda_event_.notify(sim::to_sc_time(at - sim::sim_now()));
}

void TaskScheduler::on_agenda() {
  in_agenda_ = true;
  dispatch_pending_ = false;
  const sim::SimTime now = sim::sim_now();
  while (!agenda_.empty() && agenda_.top().at <= now) {
    const AgendaItem item = agenda_.top();
    agenda_.pop();
    if (item.completion) {
      complete(*item.stream);
    } else {
      try_advance(*item.stream);
    }
  }
  dispatch_all();
  in_agenda_ = false;
  if (!agenda_.empty()) agenda_event_.notify(sim::to_sc_time(agenda_.top().at - now));
}

void TaskScheduler::try_advance(Stream& s) {
  if (s.in_flight || s.blocked || s.queued || s.queue.empty()) return;
  const DeviceTask& head = s.queue.front();
  const sim::SimTime visible = visible_at(head);
  const sim::SimTime now = sim::sim_now();
  if (visible > now) {
    if (s.wake_at != visible) {
      s.wake_at = visible;
      schedule(visible, s, false);
    }
    return;
  }
  s.head_since = now;
  if (is_wait(head.kind) && head.ready && !head.ready()) {
    s.blocked = true;
    blocked_.push_back(&s);
    return;
  }
  make_ready(s);
}

void TaskScheduler::make_ready(Stream& s) {
  const DeviceTask& head = s.queue.front();
  s.queued = true;
  s.ready_seq = ++seq_;
  pools_[static_cast<int>(route(head))].ready.push(
      ReadyEntry{by_priority_ ? head.priority : 0, sim::sim_now(), s.ready_seq, &s});
  if (!in_agenda_ && !dispatch_pending_) {
    dispatch_pending_ = true;
    agenda_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

void TaskScheduler::dispatch_all() {
  for (int k = 0; k < kEngineKinds; ++k) {
    Pool& pool = pools_[k];
    while (!pool.ready.empty()) {
      if (pool.engine != nullptr && !pool.engine->has_free_channel()) break;
      const ReadyEntry entry = pool.ready.top();
      pool.ready.pop();
      Stream& s = *entry.stream;
      if (!s.queued || s.ready_seq != entry.seq) continue;  // discarded meanwhile
      dispatch(s, static_cast<EngineKind>(k));
    }
  }
}

void TaskScheduler::dispatch(Stream& s, EngineKind kind) {
  Pool& pool = pools_[static_cast<int>(kind)];
  s.queued = false;
  s.in_flight = true;
  DeviceTask& task = s.queue.front();
  s.job = EngineJob{};
  s.job.task = &task;
  ++pool.tasks;
  if (pool.engine != nullptr) {
    pool.engine->start(s.job, dispatch_, *this);
    return;
  }
  const bool host = kind == EngineKind::kHostCpu;  // the host does it: no device scheduling costs
  s.job.start = sim::sim_now() + (host ? 0 : dispatch_);
  s.job.engine_end = s.job.start + fixed_duration(kind, task);
  if (tracks_.writer != nullptr && tracks_.writer->enabled()) {
    const int tid = kind == EngineKind::kHostCpu ? kHostCpuTid : kSchedulerTid;
    tracks_.writer->complete(tracks_.units_pid, tid, task.name, s.job.start, s.job.engine_end,
                             {sim::TraceField::num("Stream Id", s.id),
                              sim::TraceField::num("Task Id", task.task_id)});
  }
  schedule(s.job.engine_end + (host ? 0 : completion_), s, true);
}

sim::SimTime TaskScheduler::visible_at(const DeviceTask& task) const {
  return task.submit_at + (route(task) == EngineKind::kHostCpu ? 0 : doorbell_);
}

sim::SimTime TaskScheduler::fixed_duration(EngineKind kind, const DeviceTask& task) const {
  return kind == EngineKind::kHostCpu ? host_memcpy_.transfer_time(task.bytes) : sync_task_;
}

void TaskScheduler::job_finished(EngineJob& job) {
  Stream& s = streams_.find(job.task->stream)->second;
  schedule(sim::sim_now() + completion_, s, true);
  // The engine has a free channel again: arbitrate among waiting heads after this delta.
  if (!pools_[static_cast<int>(route(*job.task))].ready.empty() && !dispatch_pending_) {
    dispatch_pending_ = true;
    agenda_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

void TaskScheduler::complete(Stream& s) {
  DeviceTask& task = s.queue.front();
  TaskOutcome out{task.submit_at, s.job.start, sim::sim_now(), 0, false};
  if (task.effect) out.error = task.effect();
  ++s.tasks;
  s.bytes += task.bytes;
  ++completed_;
  --outstanding_;
  trace_task(s, task, out);
  auto done = std::move(task.done);
  s.queue.pop_front();
  s.in_flight = false;
  if (done) done(out);
  try_advance(s);
  if (hook_) {
    hook_();
  } else {
    reevaluate_waits();
  }
}

void TaskScheduler::reevaluate_waits() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < blocked_.size(); ++i) {
    Stream* s = blocked_[i];
    const DeviceTask& head = s->queue.front();
    if (!head.ready || head.ready()) {
      s->blocked = false;
      make_ready(*s);
    } else {
      blocked_[kept++] = s;
    }
  }
  blocked_.resize(kept);
}

void TaskScheduler::discard(std::uint32_t id) {
  auto it = streams_.find(id);
  if (it == streams_.end()) return;
  Stream& s = it->second;
  const std::size_t keep = s.in_flight ? 1 : 0;  // a dispatched task has started: it finishes
  if (s.queue.size() <= keep) return;
  if (s.blocked) {
    blocked_.erase(std::find(blocked_.begin(), blocked_.end(), &s));
    s.blocked = false;
  }
  s.queued = false;  // its ready-queue entry goes stale
  std::vector<DeviceTask> dropped(std::make_move_iterator(s.queue.begin() + keep),
                                  std::make_move_iterator(s.queue.end()));
  s.queue.erase(s.queue.begin() + keep, s.queue.end());
  const sim::SimTime now = sim::sim_now();
  discarded_ += dropped.size();
  outstanding_ -= dropped.size();
  for (DeviceTask& task : dropped) {
    if (task.done) task.done(TaskOutcome{task.submit_at, now, now, 0, true});
  }
}

void TaskScheduler::trace_task(const Stream& s, const DeviceTask& task, const TaskOutcome& out) {
  if (tracks_.writer == nullptr || !tracks_.writer->enabled()) return;
  const sim::SimTime start = is_wait(task.kind) ? s.head_since : out.start;
  sim::TraceField args[6] = {sim::TraceField::str("Task Type", sqe_type(task)),
                             sim::TraceField::num("Stream Id", s.id),
                             sim::TraceField::num("Task Id", task.task_id)};
  std::size_t count = 3;
  if (task.kind == TaskKind::kCopy || task.kind == TaskKind::kMemset) {
    const double ps = static_cast<double>(out.end - start);
    args[count++] = sim::TraceField::num("size(B)", static_cast<double>(task.bytes));
    args[count++] = sim::TraceField::num(
        "bandwidth(GB/s)", ps == 0 ? 0.0 : static_cast<double>(task.bytes) * 1e3 / ps);
    args[count++] = sim::TraceField::str(
        "operation", task.kind == TaskKind::kMemset ? "memset" : operation(task.direction));
  }
  tracks_.writer->complete(tracks_.device_pid, s.tid, task.name, start, out.end, args, count);
  if (task.flow_id != 0) tracks_.writer->flow_end(tracks_.device_pid, s.tid, task.flow_id, start);
}

void TaskScheduler::register_stats(sim::StatGroup& stats) {
  stats.add("submitted", submitted_, "", "tasks submitted");
  stats.add("completed", completed_, "", "tasks completed");
  stats.add("discarded", discarded_, "", "tasks dropped unexecuted");
  sim::StatGroup& engines = stats.child("engine_tasks");
  for (int k = 0; k < kEngineKinds; ++k) {
    engines.add(engine_name(static_cast<EngineKind>(k)), pools_[k].tasks, "",
                "tasks dispatched to this engine");
  }
}

}  // namespace npusim::models
