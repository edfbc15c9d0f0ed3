// SPDX-License-Identifier: Apache-2.0
#include "models/aicpu.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace npusim::models {
namespace {

const AiCpuConfig& aicpu_config(const UnitContext& ctx) { return ctx.cfg.unit<AiCpuConfig>(); }

std::uint64_t ceil_cycles(double v) {
  if (!(v > 0)) return 0;
  const double c = std::ceil(v);
  return c >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(c);
}

}  // namespace

AiCpu::AiCpu(const sc_core::sc_module_name& name, UnitContext& ctx)
    : ChannelEngine(name, aicpu_config(ctx).cores, ctx.tracks, "AI CPU", ctx.stats, "core"),
      device_(ctx.device),
      task_start_(aicpu_config(ctx).task_start.ps),
      clock_(aicpu_config(ctx).clock),
      ipc_(aicpu_config(ctx).ipc),
      instructions_per_bb_(aicpu_config(ctx).instructions_per_bb),
      bytes_per_cycle_(aicpu_config(ctx).hbm_bytes_per_cycle),
      completion_(ctx.cfg.scheduler.completion.ps) {
  bind_memory(ctx.hbm);
  const std::int64_t n = std::max<std::int64_t>(aicpu_config(ctx).cores, 1);
  for (std::int64_t i = 0; i < n; ++i) {
    cores_.push_back(std::make_unique<Core>());
    sim::StatGroup& g = ctx.stats.child("core" + std::to_string(i));
    g.add("tasks", cores_.back()->tasks, "", "AI CPU tasks this core ran");
    g.add("busy_time", cores_.back()->busy_time, "ps", "time this core ran tasks");
  }
  ctx.stats.add("basic_blocks", basic_blocks_, "", "basic blocks of AI CPU kernel code executed");
  ctx.stats.add("failed_tasks", failed_, "", "AI CPU tasks that ended with an error");
  // A chip without AI CPU cores executes no AI CPU task (the runtime rejects such launches).
  if (aicpu_config(ctx).cores > 0) ctx.routes.claim(TaskKind::kAiCpu, *this, "aicpu");
}

sim::SimTime AiCpu::duration(const AiCpuCount& count) const {
  const std::uint64_t compute = ceil_cycles(static_cast<double>(count.basic_blocks) *
                                            instructions_per_bb_ / ipc_);
  const std::uint64_t memory = ceil_cycles(static_cast<double>(count.bytes) / bytes_per_cycle_);
  return task_start_ + clock_.cycles(compute + memory);
}

// The task's blocks run (functionally) on the host, one after the other, until one fails.
void AiCpu::run_blocks(Core& core, const AiCpuWork* work) {
  core.running = true;
  core.count = AiCpuCount{};
  core.error = 0;
  if (work == nullptr || !work->run_block) return;
  for (std::uint32_t b = 0; b < work->block_dim && core.error == 0; ++b) {
    core.error = work->run_block(b, core.count);
  }
}

// The kernel failed: the task's effect reports its error.
void AiCpu::fail(Task& task, int error) {
  ++failed_;
  task.effect = [effect = std::move(task.effect), error]() {
    const int e = effect ? effect() : 0;
    return error != 0 ? error : e;
  };
}

void AiCpu::record(const EngineJob& job, const AiCpuWork* work, const Core& core,
                   sim::SimTime now) {
  const Task& task = *job.task;
  KernelRecord r;
  r.device = device_;
  r.stream = task.stream;
  r.task_id = task.task_id;
  r.name = work ? work->name : task.name;
  r.op_type = work ? work->op_type : std::string();
  if (work) r.info = work->info;
  r.task_type = "AI_CPU";
  r.block_dim = work ? work->block_dim : 1;
  r.start = job.start;
  r.end = now + completion_;
  r.first_block = job.start;
  r.last_block_end = now;
  r.blocks_run = r.block_dim;
  r.error = core.error;
  records_.push_back(std::move(r));
}

std::optional<sim::SimTime> AiCpu::resume(EngineJob& job, sim::SimTime now) {
  Core& core = *cores_[job.channel];
  Task& task = *job.task;
  const AiCpuWork* work = task.payload.get<AiCpuWork>();
  if (!core.running) {
    run_blocks(core, work);
    return now + duration(core.count);
  }
  core.running = false;
  ++core.tasks;
  core.busy_time += now - job.start;
  basic_blocks_ += core.count.basic_blocks;
  bytes_ += core.count.bytes;
  if (core.error != 0) fail(task, core.error);
  if (keep_records_) record(job, work, core, now);
  return std::nullopt;
}

std::size_t AiCpu::span_args(const EngineJob& job, sim::TraceField* args) const {
  const Core& core = *cores_[job.channel];
  args[0] = sim::TraceField::num("Stream Id", job.task->stream);
  args[1] = sim::TraceField::num("Task Id", job.task->task_id);
  args[2] = sim::TraceField::num("basic blocks", static_cast<double>(core.count.basic_blocks));
  args[3] = sim::TraceField::num("device memory(B)", static_cast<double>(core.count.bytes));
  return 4;
}

}  // namespace npusim::models
