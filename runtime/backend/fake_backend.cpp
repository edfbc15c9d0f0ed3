// SPDX-License-Identifier: Apache-2.0
#include "runtime/backend/fake_backend.h"

#include <algorithm>
#include <cmath>

#include "models/follow_ups.h"

namespace npusim::rt {
namespace {
constexpr SimTime kNever = ~SimTime{0};

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xFF)) * 1099511628211ull;
  return h;
}

// Every field of a block's trace (field by field: Instr has padding bytes).
std::uint64_t digest(std::uint64_t h, const ascendc::BlockTrace& t) {
  for (const ascendc::Instr& i : t.instrs) {
    h = mix(h, static_cast<std::uint64_t>(i.pipe) | static_cast<std::uint64_t>(i.op) << 8 |
                   static_cast<std::uint64_t>(i.dtype) << 16 |
                   static_cast<std::uint64_t>(i.dtype2) << 24 |
                   static_cast<std::uint64_t>(i.src) << 32 |
                   static_cast<std::uint64_t>(i.dst) << 40);
    h = mix(h, static_cast<std::uint64_t>(i.m) | static_cast<std::uint64_t>(i.n) << 16 |
                   static_cast<std::uint64_t>(i.k) << 32);
    h = mix(h, i.count);
    h = mix(h, i.bytes);
    h = mix(h, i.scalar_bbs);
    h = mix(h, static_cast<std::uint64_t>(i.dep_begin) << 32 | i.dep_count);
  }
  for (std::uint32_t d : t.deps) h = mix(h, d);
  h = mix(h, t.scalar_bbs);
  return mix(h, t.local_bytes);
}
}  // namespace

FakeBackend::FakeBackend(models::ChipConfig config, FakeTiming timing)
    : config_(std::move(config)), timing_(timing) {}

SimTime FakeBackend::duration_of(const Task& task) const {
  switch (task.kind) {
    case TaskKind::kCopy:
    case TaskKind::kMemset:
      return timing_.copy_fixed +
             static_cast<SimTime>(std::llround(static_cast<double>(task.bytes) /
                                               timing_.copy_bytes_per_us * sim::kUs));
    case TaskKind::kKernel:
      return timing_.kernel;
    case TaskKind::kNop:
    case TaskKind::kHostFunc:
      return 0;
    default:
      return timing_.sync_task;
  }
}

void FakeBackend::submit(Task task) {
  queues_[{task.device, task.stream}].pending.push_back(std::move(task));
}

void FakeBackend::start_ready_tasks() {
  for (auto& [key, q] : queues_) {
    if (q.busy || q.pending.empty()) continue;
    Task& head = q.pending.front();
    if (head.submit_at > now_ || (head.ready && !head.ready())) continue;
    q.running = std::move(head);
    q.pending.pop_front();
    q.busy = true;
    q.running_start = now_;
    q.busy_until = now_ + duration_of(q.running);
    run_kernel(q);
  }
}

void FakeBackend::run_kernel(Queue& q) {
  q.kernel_error = 0;
  q.blocks_run = 0;
  q.instrs = 0;
  q.trace_digest = 14695981039346656037ull;
  q.aicpu = models::AiCpuCount{};
  const models::AiCpuWork* cpu_work = q.running.payload.get<models::AiCpuWork>();
  if (q.running.kind == TaskKind::kAiCpu && cpu_work && cpu_work->run_block) {
    const models::AiCpuWork& cpu = *cpu_work;
    for (std::uint32_t b = 0; b < cpu.block_dim && q.kernel_error == 0; ++b) {
      q.kernel_error = cpu.run_block(b, q.aicpu);
      ++q.blocks_run;
    }
    return;
  }
  const models::KernelWork* work = q.running.payload.get<models::KernelWork>();
  if (q.running.kind != TaskKind::kKernel || work == nullptr || !work->run_block) return;
  npusim::ascendc::BlockTrace trace;
  for (std::uint32_t b = 0; b < work->block_dim && q.kernel_error == 0; ++b) {
    trace.clear();
    q.kernel_error = work->run_block(b, trace);
    ++q.blocks_run;
    q.instrs += trace.instrs.size();
    q.trace_digest = digest(q.trace_digest, trace);
  }
}

SimTime FakeBackend::next_event_time() const {
  SimTime next = kNever;
  for (const auto& [key, q] : queues_) {
    if (q.busy) {
      next = std::min(next, q.busy_until);
    } else if (!q.pending.empty() && q.pending.front().submit_at > now_) {
      next = std::min(next, q.pending.front().submit_at);
    }
  }
  return next;
}

void FakeBackend::finish(Queue& q, const StreamKey& key) {
  Task task = std::move(q.running);
  q.busy = false;
  TaskOutcome r;
  r.submit = task.submit_at;
  r.start = q.running_start;
  r.end = q.busy_until;
  r.error = task.effect ? task.effect() : 0;
  if (r.error == 0) r.error = q.kernel_error;
  // Control flow: follow-ups queue now, behind their streams' tasks.
  for (Task& t : models::follow_ups(task, r.end)) submit(std::move(t));
  finished_.push_back({task.name, task.kind, key.first, key.second, task.task_id, task.flow_id, r,
                       task.payload.share<models::KernelWork>(), q.blocks_run, q.instrs, q.trace_digest, q.aicpu});
  if (task.done) task.done(r);
}

void FakeBackend::complete_due_tasks() {
  for (auto& [key, q] : queues_) {
    if (q.busy && q.busy_until <= now_) finish(q, key);
  }
}

WaitResult FakeBackend::run_until(const std::function<bool()>& done, SimTime deadline) {
  for (;;) {
    if (done()) return WaitResult::kDone;
    start_ready_tasks();
    SimTime next = next_event_time();
    if (next == kNever) return WaitResult::kStarved;
    if (next > deadline) {
      now_ = std::max(now_, deadline);
      return WaitResult::kTimeout;
    }
    now_ = std::max(now_, next);
    complete_due_tasks();
  }
}

void FakeBackend::discard_stream(std::uint32_t device, std::uint32_t stream, SimTime at) {
  run_until([] { return false; }, at);
  auto it = queues_.find({device, stream});
  if (it == queues_.end()) return;
  std::deque<Task> dropped = std::move(it->second.pending);
  it->second.pending.clear();
  for (Task& task : dropped) {
    TaskOutcome r;
    r.submit = task.submit_at;
    r.start = r.end = std::max(now_, task.submit_at);
    r.discarded = true;
    if (task.done) task.done(r);
  }
}

void FakeBackend::trace_api(std::uint32_t thread, const char* function, SimTime start,
                            SimTime end, std::uint64_t flow_id) {
  api_calls_.push_back({thread, std::string("AscendCL@") + function, start, end, flow_id});
}

void FakeBackend::trace_host(std::uint32_t thread, const char* name, SimTime start, SimTime end) {
  host_spans_.push_back({thread, name, start, end, 0});
}

void FakeBackend::advance_to(SimTime t) {
  run_until([] { return false; }, t);
  now_ = std::max(now_, t);
}

}  // namespace npusim::rt
