// SPDX-License-Identifier: Apache-2.0
#include "models/task_scheduler.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

#include "models/follow_ups.h"
#include "sim/engine.h"
#include "sim/log.h"

namespace npusim::models {
namespace {

constexpr int kSyncStreamFirstTid = 60000;

const char* operation(const Task& task) {
  if (task.kind == TaskKind::kMemset) return "memset";
  switch (task.direction) {
    case Direction::kH2H: return "host to host";
    case Direction::kH2D: return "host to device";
    case Direction::kD2H: return "device to host";
    case Direction::kD2D: return "device to device";
    case Direction::kPeer: return "device to peer device";
  }
  return "";
}

std::size_t route_index(TaskKind kind, Direction direction) {
  return static_cast<std::size_t>(kind) * kDirections + static_cast<std::size_t>(direction);
}

}  // namespace

SC_HAS_PROCESS(TaskScheduler);

TaskScheduler::TaskScheduler(const sc_core::sc_module_name& name, const ChipConfig& cfg,
                             sim::TrackGroup& streams, sim::StatGroup& stats)
    : sc_module(name),
      doorbell_(cfg.scheduler.doorbell.ps),
      dispatch_(cfg.scheduler.dispatch.ps),
      completion_(cfg.scheduler.completion.ps),
      by_priority_(cfg.scheduler.policy != "fifo"),
      tracks_(streams),
      stream_stats_(stats.child("streams")),
      engine_stats_(stats.child("engine_tasks")) {
  SC_METHOD(on_agenda);
  sensitive << agenda_event_;
  dont_initialize();
  pools_.emplace_back();  // [0]: tasks no unit claimed
  register_stats(stats);
}

void TaskScheduler::claim(TaskKind kind, Direction direction, TaskEngine& engine,
                          const std::string& name) {
  std::uint8_t& slot = route_[route_index(kind, direction)];
  if (slot != 0) {
    throw std::logic_error("npusim: " + name + " claims task kind " +
                           std::to_string(static_cast<int>(kind)) + " already claimed by " +
                           pools_[slot].name);
  }
  auto it = std::find_if(pools_.begin() + 1, pools_.end(),
                         [&engine](const Pool& p) { return p.engine == &engine; });
  if (it == pools_.end()) {
    if (pools_.size() > 255) throw std::logic_error("npusim: more than 255 task engines");
    Pool& p = pools_.emplace_back();
    p.engine = &engine;
    p.name = name;
    engine_stats_.add(name, p.tasks, "", "tasks dispatched to this engine");
    it = std::prev(pools_.end());
  }
  slot = static_cast<std::uint8_t>(std::distance(pools_.begin(), it));
}

TaskEngine* TaskScheduler::engine_for(const Task& task) const {
  return pools_[route_[route_index(task.kind, task.direction)]].engine;
}

TaskScheduler::Pool& TaskScheduler::pool_for(const Task& task) {
  return pools_[route_[route_index(task.kind, task.direction)]];
}

TaskScheduler::Stream& TaskScheduler::stream(std::uint32_t id) {
  auto [it, inserted] = streams_.try_emplace(id);
  Stream& s = it->second;
  if (!inserted) return s;
  s.id = id;
  const bool sync = id >= kSyncStreamBase;
  const std::string name = sync ? "Sync copies " + std::to_string(id - kSyncStreamBase)
                                : "Stream " + std::to_string(id);
  s.track = tracks_.at(sync ? kSyncStreamFirstTid + static_cast<int>(id - kSyncStreamBase)
                            : static_cast<int>(id),
                       name);
  sim::StatGroup& group = stream_stats_.child(
      sync ? "sync_" + std::to_string(id - kSyncStreamBase) : "stream_" + std::to_string(id));
  group.add("tasks", s.tasks, "", "tasks completed on this stream");
  group.add("bytes", s.bytes, "B", "bytes copied or set by this stream's tasks");
  return s;
}

void TaskScheduler::submit(Task task) {
  Stream& s = stream(task.stream);
  if (task.name.empty() && tracks_.on()) {
    const TaskEngine* engine = engine_for(task);
    task.name = engine != nullptr ? engine->task_type(task) : "PLACE_HOLDER_SQE";
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
  const Task& head = s.queue.front();
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
  const Task& head = s.queue.front();
  s.queued = true;
  s.ready_seq = ++seq_;
  s.pool = &pool_for(head);
  s.pool->ready.push(ReadyEntry{by_priority_ ? head.priority : 0, sim::sim_now(), s.ready_seq, &s});
  if (!in_agenda_ && !dispatch_pending_) {
    dispatch_pending_ = true;
    agenda_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

void TaskScheduler::dispatch_all() {
  for (Pool& pool : pools_) {
    while (!pool.ready.empty()) {
      if (pool.engine != nullptr && !pool.engine->has_free_channel()) break;
      const ReadyEntry entry = pool.ready.top();
      pool.ready.pop();
      Stream& s = *entry.stream;
      if (!s.queued || s.ready_seq != entry.seq) continue;  // discarded meanwhile
      dispatch(s, pool);
    }
  }
}

void TaskScheduler::dispatch(Stream& s, Pool& pool) {
  s.queued = false;
  s.in_flight = true;
  Task& task = s.queue.front();
  s.job = EngineJob{};
  s.job.task = &task;
  s.job.task_type = nullptr;
  ++pool.tasks;
  TaskEngine* engine = pool.engine;
  if (engine == nullptr) {  // nobody executes it: it ends at once (complete() sets the error)
    s.job.start = s.job.engine_end = sim::sim_now();
    schedule(s.job.engine_end, s, true);
    return;
  }
  const std::optional<sim::SimTime> fixed = engine->fixed_time(task);
  if (!fixed) {
    engine->start(s.job, dispatch_, *this);
    return;
  }
  const bool host = engine->host_side();
  s.job.start = sim::sim_now() + (host ? 0 : dispatch_);
  s.job.engine_end = s.job.start + *fixed;
  engine->record(s.job);
  schedule(s.job.engine_end + (host ? 0 : completion_), s, true);
}

sim::SimTime TaskScheduler::visible_at(const Task& task) const {
  if (task.resident) return task.submit_at;
  const TaskEngine* engine = engine_for(task);
  return task.submit_at + (engine != nullptr && engine->host_side() ? 0 : doorbell_);
}

void TaskScheduler::job_finished(EngineJob& job) {
  Stream& s = streams_.find(job.task->stream)->second;
  schedule(sim::sim_now() + completion_, s, true);
  // The engine has room again: arbitrate among waiting heads after this delta.
  if (!s.pool->ready.empty() && !dispatch_pending_) {
    dispatch_pending_ = true;
    agenda_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

void TaskScheduler::complete(Stream& s) {
  Task& task = s.queue.front();
  TaskOutcome out{task.submit_at, s.job.start, sim::sim_now(), 0, false};
  if (s.pool->engine == nullptr) {
    sim::log_error("npusim: no unit executes task kind " +
                   std::to_string(static_cast<int>(task.kind)) + " (stream " +
                   std::to_string(s.id) + ")");
    out.error = kUnclaimedTask;
  } else if (task.effect) {
    out.error = task.effect();
  }
  // Queued before this stream advances: a follow-up on `s` runs next.
  for (Task& t : follow_ups(task, out.end)) submit(std::move(t));
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
    const Task& head = s->queue.front();
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
  std::vector<Task> dropped(std::make_move_iterator(s.queue.begin() + keep),
                            std::make_move_iterator(s.queue.end()));
  s.queue.erase(s.queue.begin() + keep, s.queue.end());
  const sim::SimTime now = sim::sim_now();
  discarded_ += dropped.size();
  outstanding_ -= dropped.size();
  for (Task& task : dropped) {
    if (task.done) task.done(TaskOutcome{task.submit_at, now, now, 0, true});
  }
}

void TaskScheduler::trace_task(const Stream& s, const Task& task, const TaskOutcome& out) {
  if (!s.track.on()) return;
  const sim::SimTime start = is_wait(task.kind) ? s.head_since : out.start;
  const TaskEngine* engine = s.pool->engine;
  sim::TraceField args[6] = {
      sim::TraceField::str("Task Type", s.job.task_type != nullptr ? s.job.task_type
                                        : engine != nullptr          ? engine->task_type(task)
                                                                     : "PLACE_HOLDER_SQE"),
      sim::TraceField::num("Stream Id", s.id), sim::TraceField::num("Task Id", task.task_id)};
  std::size_t count = 3;
  if (task.kind == TaskKind::kCopy || task.kind == TaskKind::kMemset) {
    const double ps = static_cast<double>(out.end - start);
    args[count++] = sim::TraceField::num("size(B)", static_cast<double>(task.bytes));
    args[count++] = sim::TraceField::num(
        "bandwidth(GB/s)", ps == 0 ? 0.0 : static_cast<double>(task.bytes) * 1e3 / ps);
    args[count++] = sim::TraceField::str("operation", operation(task));
  }
  s.track.span(task.name, start, out.end, args, count);
  if (task.flow_id != 0) s.track.flow_end(task.flow_id, start);
  // A device-to-device arrow binds inside the spans at their last picosecond: a wait's span
  // starts when it reached the head of its stream, long before the record that releases it.
  const sim::SimTime last = out.end > start ? out.end - 1 : out.end;
  if (task.sync_flow_out != 0) {
    s.track.flow_begin(task.sync_flow_out, last, sim::FlowKind::kDeviceToDevice);
  }
  if (task.sync_flow_in != 0) {
    s.track.flow_end(task.sync_flow_in, last, sim::FlowKind::kDeviceToDevice);
  }
}

void TaskScheduler::register_stats(sim::StatGroup& stats) {
  stats.add("submitted", submitted_, "", "tasks submitted");
  stats.add("completed", completed_, "", "tasks completed");
  stats.add("discarded", discarded_, "", "tasks dropped unexecuted");
}

}  // namespace npusim::models
