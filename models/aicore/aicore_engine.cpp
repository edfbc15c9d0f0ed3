// SPDX-License-Identifier: Apache-2.0
#include "models/aicore/aicore_engine.h"

#include <algorithm>
#include <exception>
#include <string>

#include "models/l2_cache.h"
#include "sim/engine.h"
#include "sim/log.h"

namespace npusim::models {
namespace {

using kernel::Pipe;

const char* const kPipeStatNames[kernel::kPipeCount] = {"scalar", "vector", "cube",   "mte1",
                                                         "mte2",   "mte3",   "fixpipe"};

bool vector_lane(int lane) {
  return lane == kMte2AivLane || lane == static_cast<int>(Pipe::kVector) ||
         lane == static_cast<int>(Pipe::kMte3);
}

void add_to_side(KernelSide& side, const std::array<SimTime, kernel::kPipeCount>& busy,
                 SimTime executed) {
  side.used = true;
  ++side.blocks;
  side.total += executed;
  for (int p = 0; p < kernel::kPipeCount; ++p) side.busy[p] += busy[p];
}

}  // namespace

SC_HAS_PROCESS(AiCoreEngine);

AiCoreEngine::AiCoreEngine(const sc_core::sc_module_name& name, UnitContext& ctx)
    : sc_module(name),
      device_(ctx.device),
      coupled_(!ctx.cfg.generation().split_cores),
      costs_(ctx.cfg),
      kernel_launch_(ctx.cfg.aicore.kernel_launch.ps),
      block_launch_(ctx.cfg.aicore.block_launch.ps),
      sync_task_(ctx.cfg.scheduler.sync_task.ps),
      completion_(ctx.cfg.scheduler.completion.ps),
      max_kernels_(static_cast<std::size_t>(std::max<std::int64_t>(
          ctx.cfg.aicore.max_concurrent_kernels, 1))) {
  by_priority_ = ctx.cfg.scheduler.policy != "fifo";
  SC_METHOD(on_wake);
  sensitive << wake_;
  dont_initialize();
  build_cores(ctx.cfg, ctx.tracks, ctx.stats);
  register_stats(ctx.stats);
  for (auto& core : cores_) core->mem.bind(ctx.l2.socket);
  ctx.routes.claim(TaskKind::kKernel, *this, "aicore");
}

void AiCoreEngine::build_cores(const ChipConfig& cfg, sim::TrackGroup& tracks,
                               sim::StatGroup& stats) {
  const int aic = static_cast<int>(std::max<std::int64_t>(cfg.aicore.cube_cores, 1));
  const int aiv =
      coupled_ ? 0 : static_cast<int>(std::max<std::int64_t>(cfg.aicore.vector_cores, 0));
  pool_begin_ = {0, aic};
  pool_size_ = {aic, aiv};
  free_ = pool_size_;
  sim::StatGroup& group = stats.child("cores");
  for (int i = 0; i < aic + aiv; ++i) {
    const bool vector = i >= aic;
    const int n = vector ? i - aic : i;
    const CoreKind kind = coupled_ ? CoreKind::kCoupled : vector ? CoreKind::kAiv : CoreKind::kAic;
    const std::string id = (coupled_ ? "core" : vector ? "aiv" : "aic") + std::to_string(n);
    const std::string label =
        (coupled_ ? "AI Core " : vector ? "AIV " : "AIC ") + std::to_string(n);
    CoreTracks ct;
    ct.core = tracks.reserve();
    for (sim::Track& t : ct.pipe) t = tracks.reserve();
    ct.pipes = cfg.aicore.trace_pipes;
    cores_.push_back(std::make_unique<AiCore>(id.c_str(), i, kind, label, costs_,
                                              cfg.aicore.timeout.ps, ct, group.child(id), *this));
  }
  busy_.assign(cores_.size(), false);
  slots_.resize(cores_.size());
}

const char* AiCoreEngine::task_type(const Task& task) const {
  if (coupled_ || !task.kernel) return "AI_CORE";
  if (task.kernel->core_type == CoreType::kAiv) return "AI_VECTOR_CORE";
  if (task.kernel->core_type == CoreType::kMix) return "MIX_AIC";
  return "AI_CORE";
}

bool AiCoreEngine::has_free_channel() const { return kernels_.size() < max_kernels_; }

void AiCoreEngine::start(EngineJob& job, SimTime delay, JobSink& sink) {
  const std::uint32_t priority = by_priority_ ? job.task->priority : 0;
  auto at_pos = std::find_if(kernels_.begin(), kernels_.end(),
                             [priority](const Kernel& o) { return o.priority > priority; });
  const auto it = kernels_.emplace(at_pos);
  Kernel& k = *it;
  k.self = it;
  k.priority = priority;
  k.job = &job;
  k.sink = &sink;
  k.work = job.task->kernel;
  const SimTime now = sim::sim_now();
  job.channel = 0;
  job.start = now + delay;
  plan(k);
  const SimTime at = job.start + (k.work ? kernel_launch_ : sync_task_);
  arrivals_.push(Arrival{at, ++seq_, &k});
  wake_.notify(sim::to_sc_time(at - now));
}

void AiCoreEngine::plan(Kernel& k) const {
  const Task& task = *k.job->task;
  KernelRecord& r = k.rec;
  r.device = device_;
  r.stream = task.stream;
  r.task_id = task.task_id;
  r.start = k.job->start;
  r.coupled = coupled_;
  if (!k.work) return;
  const KernelWork& w = *k.work;
  r.name = w.name.empty() ? task.name : w.name;
  r.op_type = w.op_type;
  r.block_dim = w.block_dim;
  r.task_type = "AI_CORE";
  if (!coupled_ && w.core_type == CoreType::kAiv && pool_size_[1] > 0) {
    k.pool = 1;
    k.need = {0, 1};
    r.task_type = "AI_VECTOR_CORE";
  } else if (!coupled_ && w.core_type == CoreType::kMix) {
    k.need = {1, static_cast<std::uint32_t>(pool_size_[1] / pool_size_[0])};
    r.task_type = "MIX_AIC";
    r.mix_block_num = w.block_dim * k.need[1];
  } else {
    k.need = {1, 0};
  }
  std::uint32_t most = ~0u;
  for (int p = 0; p < 2; ++p) {
    if (k.need[p] > 0) most = std::min(most, static_cast<std::uint32_t>(pool_size_[p]) / k.need[p]);
  }
  most = std::max<std::uint32_t>(most, 1);
  k.cap = w.max_cores > 0 ? std::min(w.max_cores, most) : most;
}

void AiCoreEngine::on_wake() {
  const SimTime now = sim::sim_now();
  while (!arrivals_.empty() && arrivals_.top().at <= now) {
    Kernel& k = *arrivals_.top().kernel;
    arrivals_.pop();
    k.ready = true;
    if (!k.work || k.work->block_dim == 0) finish(k);
  }
  dispatch();
  if (!arrivals_.empty()) wake_.notify(sim::to_sc_time(arrivals_.top().at - now));
}

std::uint32_t AiCoreEngine::free_blocks(const Kernel& k) const {
  std::uint32_t n = ~0u;
  for (int p = 0; p < 2; ++p) {
    if (k.need[p] > 0) n = std::min(n, static_cast<std::uint32_t>(free_[p]) / k.need[p]);
  }
  return n;
}

void AiCoreEngine::dispatch() {
  std::array<bool, 2> blocked{false, false};
  const auto hold = [&blocked](const Kernel& k) {
    for (int p = 0; p < 2; ++p) blocked[p] = blocked[p] || k.need[p] > 0;
  };
  for (Kernel& k : kernels_) {
    const std::uint32_t dim = k.work ? k.work->block_dim : 0;
    if (!k.ready || k.failed || k.next_block >= dim) continue;
    if ((k.need[0] > 0 && blocked[0]) || (k.need[1] > 0 && blocked[1]) ||
        (k.work->batch_mode && !k.started && free_blocks(k) < std::min(dim, k.cap))) {
      hold(k);
      continue;
    }
    while (!k.failed && k.next_block < dim && k.running < k.cap && free_blocks(k) > 0) assign(k);
    if (!k.failed && k.next_block < dim && k.running < k.cap) hold(k);
  }
}

int AiCoreEngine::take_core(int pool) {
  for (int i = pool_begin_[pool]; i < pool_begin_[pool] + pool_size_[pool]; ++i) {
    if (busy_[i]) continue;
    busy_[i] = true;
    --free_[pool];
    return i;
  }
  return -1;  // unreachable: callers check free_blocks()
}

void AiCoreEngine::assign(Kernel& k) {
  const SimTime now = sim::sim_now();
  const int main = take_core(k.pool);
  Slot& slot = slots_[main];
  slot.kernel = &k;
  slot.partners.clear();
  if (k.pool == 0) {
    for (std::uint32_t i = 0; i < k.need[1]; ++i) slot.partners.push_back(take_core(1));
  }
  const std::uint32_t block = k.next_block++;
  ++k.running;
  if (!k.started) {
    k.started = true;
    k.rec.first_block = now;
  }
  AiCore& core = *cores_[main];
  const int error = run_block(k, block, core.trace_buffer());
  if (error != 0) {
    if (k.error == 0) k.error = error;
    k.failed = true;
  }
  BlockJob job;
  job.block = block;
  job.dispatched = now;
  job.start = now + block_launch_;
  job.partner = slot.partners.empty() ? nullptr : cores_[slot.partners[0]].get();
  core.assign(job);
}

int AiCoreEngine::run_block(Kernel& k, std::uint32_t block, kernel::BlockTrace& trace) {
  trace.clear();
  if (!k.work->run_block) return 0;
  try {
    return k.work->run_block(block, trace);
  } catch (const std::exception& e) {
    sim::log_error("npusim: kernel " + k.rec.name + " block " + std::to_string(block) + ": " +
                   e.what());
  } catch (...) {
    sim::log_error("npusim: kernel " + k.rec.name + " block " + std::to_string(block) +
                   ": unknown exception");
  }
  return kAicoreException;
}

void AiCoreEngine::block_finished(AiCore& core) {
  Slot& slot = slots_[core.index()];
  Kernel& k = *slot.kernel;
  account(k, core, slot);
  if (core.timed_out()) {  // the watchdog stopped the block: the kernel fails, no more blocks
    sim::log_error("npusim: kernel " + k.rec.name + " block " + std::to_string(core.job().block) +
                   " ran longer than aicore.timeout: stopped by the watchdog");
    if (k.error == 0) k.error = core.core_kind() == CoreKind::kAiv ? kVectorCoreTimeout : kAicoreTimeout;
    k.failed = true;
  }
  busy_[core.index()] = false;
  ++free_[k.pool];
  for (int p : slot.partners) {
    busy_[p] = false;
    ++free_[1];
  }
  slot.kernel = nullptr;
  --k.running;
  ++blocks_;
  if (k.running == 0 && (k.failed || k.next_block >= k.work->block_dim)) finish(k);
  wake_.notify(sc_core::SC_ZERO_TIME);  // dispatch on the main stack, after this delta
}

void AiCoreEngine::account(Kernel& k, AiCore& core, const Slot& slot) {
  const ReplayResult& r = core.result();
  const BlockJob& job = core.job();
  const SimTime now = sim::sim_now();
  const SimTime executed = core.end() - job.start;
  std::array<SimTime, kernel::kPipeCount> own{}, vec{};
  for (int lane = 0; lane < kLaneCount; ++lane) {
    const bool to_partner = !slot.partners.empty() && vector_lane(lane);
    (to_partner ? vec : own)[static_cast<int>(lane_pipe(lane))] += r.busy[lane];
  }
  core.account(own, executed);
  add_to_side(core.core_kind() == CoreKind::kAiv ? k.rec.aiv : k.rec.aic, own, executed);
  if (!slot.partners.empty()) add_to_side(k.rec.aiv, vec, executed);
  for (std::size_t i = 0; i < slot.partners.size(); ++i) {
    cores_[slot.partners[i]]->account(i == 0 ? vec : decltype(vec){}, executed);
  }
  k.rec.instrs += r.instrs;
  k.rec.last_block_end = now;
  ++k.rec.blocks_run;
  instrs_ += r.instrs;
  if (!core.tracing()) return;  // (the args below cost an allocation per block)
  const std::vector<sim::TraceArg> args = {sim::TraceArg::num("block", job.block),
                                           sim::TraceArg::num("Stream Id", k.rec.stream),
                                           sim::TraceArg::num("Task Id", k.rec.task_id)};
  core.trace_block(k.rec.name, job.dispatched, now, args);
  for (int p : slot.partners) cores_[p]->trace_block(k.rec.name, job.dispatched, now, args);
}

void AiCoreEngine::finish(Kernel& k) {
  const SimTime now = sim::sim_now();
  EngineJob& job = *k.job;
  JobSink& sink = *k.sink;
  job.engine_end = now;
  if (k.work) {
    k.rec.end = now + completion_;
    k.rec.error = k.error;
    if (keep_records_) records_.push_back(k.rec);
    ++kernels_done_;
  }
  if (k.error != 0) {
    ++failed_;
    Task& task = *job.task;
    task.effect = [effect = std::move(task.effect), error = k.error]() {
      const int e = effect ? effect() : 0;
      return error != 0 ? error : e;
    };
  }
  kernels_.erase(k.self);
  sink.job_finished(job);
}

void AiCoreEngine::register_stats(sim::StatGroup& stats) {
  stats.add("kernels", kernels_done_, "", "kernels finished");
  stats.add("failed_kernels", failed_, "", "kernels that ended with an error");
  stats.add("blocks", blocks_, "", "blocks run");
  stats.add("instructions", instrs_, "", "pipe instructions replayed");
  sim::StatGroup& pipes = stats.child("pipes");
  for (int p = 0; p < kernel::kPipeCount; ++p) {
    const auto total = [this, p] {
      std::uint64_t sum = 0;
      for (const auto& core : cores_) sum += core->pipe_busy()[p];
      return sum;
    };
    pipes.formula(std::string(kPipeStatNames[p]) + "_busy_cycles",
                  [this, total] { return costs_.to_cycles(total()); }, "cycles",
                  "busy cycles of this pipe summed over all cores");
    pipes.formula(std::string(kPipeStatNames[p]) + "_utilization", [this, total] {
      const SimTime now = sim::sim_now();
      if (now == 0) return 0.0;
      return static_cast<double>(total()) / (static_cast<double>(now) * cores_.size());
    }, "", "busy time / (simulated time x cores)");
  }
}

}  // namespace npusim::models
