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

using ascendc::Pipe;

bool vector_lane(int lane) {
  return lane == kMte2AivLane || lane == static_cast<int>(Pipe::kVector) ||
         lane == static_cast<int>(Pipe::kMte3);
}

void add_to_side(KernelSide& side, const std::array<SimTime, ascendc::kPipeCount>& busy,
                 SimTime executed, bool block) {
  side.used = true;
  if (block) ++side.blocks;
  side.total += executed;
  for (int p = 0; p < ascendc::kPipeCount; ++p) side.busy[p] += busy[p];
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
  hbm_bandwidth_ = ctx.cfg.hbm.bandwidth.bytes_per_sec * ctx.cfg.hbm.efficiency;
  policy_ = make_dispatch_policy(ctx.cfg.scheduler.policy);
  preemption_ = make_preemption(ctx.cfg.scheduler.preemption, {block_launch_, hbm_bandwidth_});
  threshold_ = static_cast<std::uint32_t>(
      std::max<std::int64_t>(ctx.cfg.scheduler.preempt_threshold, 1));
  context_bytes_ = ctx.cfg.aicore.context_bytes.value;
  predictor_ = std::make_unique<BlockReplay>(costs_);
  SC_METHOD(on_wake);
  sensitive << wake_;
  dont_initialize();
  opsim_ = OpSimulator::process();
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
    if (opsim_ != nullptr) {  // msopprof's names: AI Core c has cubecore0 and veccore0..r-1
      const int r = std::max(aiv / aic, 1);
      const std::string unit = coupled_  ? "core" + std::to_string(n) + ".aicore0"
                               : vector ? "core" + std::to_string(n / r) + ".veccore" +
                                              std::to_string(n % r)
                                        : "core" + std::to_string(n) + ".cubecore0";
      // Chips after the first: their own names (one recorder serves the process).
      const std::string chip = device_ == 0 ? "" : "dev" + std::to_string(device_) + ".";
      cores_.back()->set_op_simulator(opsim_, chip + unit);
    }
  }
  busy_.assign(cores_.size(), false);
  slots_.resize(cores_.size());
}

const char* AiCoreEngine::task_type(const Task& task) const {
  const KernelWork* work = task.payload.get<KernelWork>();
  if (coupled_ || work == nullptr) return "AI_CORE";
  if (work->core_type == CoreType::kAiv) return "AI_VECTOR_CORE";
  if (work->core_type == CoreType::kMix) return "MIX_AIC";
  return "AI_CORE";
}

bool AiCoreEngine::has_free_channel() const { return kernels_.size() < max_kernels_; }

void AiCoreEngine::start(EngineJob& job, SimTime delay, JobSink& sink) {
  const std::uint32_t priority = policy_->priority(job.task->priority);
  auto at_pos = std::find_if(kernels_.begin(), kernels_.end(),
                             [priority](const Kernel& o) { return o.priority > priority; });
  const auto it = kernels_.emplace(at_pos);
  Kernel& k = *it;
  k.self = it;
  k.priority = priority;
  k.job = &job;
  k.sink = &sink;
  k.work = job.task->payload.share<KernelWork>();
  k.seq = seq_ + 1;
  if (opsim_ != nullptr && k.work) {
    k.opsim = opsim_->begin_launch(k.work->name, costs_.frequency_hz());
  }
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
  if (k.next_block == 0 && k.parked.empty()) k.type = w.core_type;  // else: block 0 decided
  r.name = w.name.empty() ? task.name : w.name;
  r.op_type = w.op_type;
  r.info = w.info;
  r.block_dim = w.block_dim;
  k.type_name = "AI_CORE";
  k.pool = 0;
  if (!coupled_ && k.type == CoreType::kAiv && pool_size_[1] > 0) {
    k.pool = 1;
    k.need = {0, 1};
    k.type_name = "AI_VECTOR_CORE";
  } else if (!coupled_ && k.type == CoreType::kMix) {
    k.need = {1, static_cast<std::uint32_t>(pool_size_[1] / pool_size_[0])};
    k.type_name = "MIX_AIC";
    r.mix_block_num = w.block_dim * k.need[1];
  } else {
    k.need = {1, 0};
  }
  r.task_type = k.type_name;
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
    k.ready_at = now;
    policy_->on_ready(k, now);
    if (!k.work || k.work->block_dim == 0) {
      finish(k);
    } else if ((policy_->predicts_at_ready() || !k.work->core_type_known) && k.next_block == 0) {
      // Block 0 runs now: its trace is PREMA's prediction, and it shows which cores a kernel of
      // unknown type needs (its first launch: a cube kernel must not start on AIV cores).
      Parked first;
      first.block = k.next_block++;
      first.error = run_block(k, first.block, first.trace);
      if (!k.work->core_type_known && first.error == 0) {
        PipeUse use;
        use.note(first.trace);
        k.type = k.work->declared ? k.work->declared_type : use.type();
        k.parked.push_back(std::move(first));
        plan(k);  // the cores per block of that type
      } else {
        k.parked.push_back(std::move(first));
      }
      if (policy_->predicts_at_ready()) predict(k, k.parked.back().trace);
    }
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

namespace {

/// An isolated replay: no other initiator, so a GM access costs its latency only.
class IsolatedHost : public ReplayHost {
 public:
  SimTime gm_access(const ascendc::Instr&, SimTime request, SimTime&) override { return request; }
};

}  // namespace

const std::vector<AiCoreEngine::Kernel*>& AiCoreEngine::order() {
  order_.clear();
  for (Kernel& k : kernels_) order_.push_back(&k);
  policy_->order(order_, sim::sim_now());
  return order_;
}

void AiCoreEngine::dispatch() {
  const std::vector<Kernel*>& ord = order();
  std::array<bool, 2> blocked{false, false};
  const auto hold = [&blocked](const Kernel& k) {
    for (int p = 0; p < 2; ++p) blocked[p] = blocked[p] || k.need[p] > 0;
  };
  for (Kernel* kp : ord) {
    Kernel& k = *kp;
    const std::uint32_t dim = k.work ? k.work->block_dim : 0;
    if (!k.ready || k.failed || waiting_blocks(k) == 0) continue;
    if ((k.need[0] > 0 && blocked[0]) || (k.need[1] > 0 && blocked[1]) ||
        (k.work->batch_mode && !k.started && free_blocks(k) < std::min(dim, k.cap))) {
      hold(k);
      continue;
    }
    while (!k.failed && waiting_blocks(k) > 0 && k.running < k.cap && free_blocks(k) > 0) {
      assign(k);
    }
    if (!k.failed && waiting_blocks(k) > 0 && k.running < k.cap) hold(k);
  }
  if (!preemption_->preempts()) return;
  for (Kernel* kp : ord) {
    Kernel& k = *kp;
    if (k.ready && !k.failed && waiting_blocks(k) > 0 && k.running < k.cap) preempt_for(k, ord);
  }
}

void AiCoreEngine::preempt_for(Kernel& h, const std::vector<Kernel*>& ord) {
  const std::uint32_t wanted = std::min(waiting_blocks(h), h.cap - h.running);
  std::array<std::int64_t, 2> deficit{};
  for (int p = 0; p < 2; ++p) {
    deficit[p] = static_cast<std::int64_t>(wanted) * h.need[p] - free_[p] - incoming_[p];
  }
  const auto short_of = [&h, &deficit] {
    bool any = false;
    for (int p = 0; p < 2; ++p) any = any || (h.need[p] > 0 && deficit[p] > 0);
    return any;
  };
  while (short_of()) {
    const int victim = pick_victim(h, ord, deficit);
    if (victim < 0) return;
    preempt_slot(h, victim, deficit);
  }
}

int AiCoreEngine::pick_victim(const Kernel& h, const std::vector<Kernel*>& ord,
                              const std::array<std::int64_t, 2>& deficit) const {
  const auto rank = [&ord](const Kernel* k) { return std::find(ord.begin(), ord.end(), k); };
  const auto h_rank = rank(&h);
  int best = -1;
  for (int i = static_cast<int>(slots_.size()) - 1; i >= 0; --i) {
    const Slot& s = slots_[i];
    if (s.kernel == nullptr || s.yielding || s.kernel == &h) continue;
    const Kernel& v = *s.kernel;
    if (v.priority < h.priority + threshold_) continue;
    if (policy_->preempts_only_later() && rank(&v) < h_rank) continue;
    const bool useful = (h.need[v.pool] > 0 && deficit[v.pool] > 0) ||
                        (!s.partners.empty() && h.need[1] > 0 && deficit[1] > 0);
    if (!useful) continue;
    if (best >= 0) {
      const Kernel& b = *slots_[best].kernel;
      if (b.priority > v.priority || (b.priority == v.priority && b.seq >= v.seq)) continue;
    }
    best = i;
  }
  return best;
}

void AiCoreEngine::preempt_slot(Kernel& h, int index, std::array<std::int64_t, 2>& deficit) {
  const SimTime now = sim::sim_now();
  Slot& s = slots_[index];
  Kernel& v = *s.kernel;
  s.yielding = true;
  s.asked = now;
  ++incoming_[v.pool];
  --deficit[v.pool];
  incoming_[1] += static_cast<int>(s.partners.size());
  deficit[1] -= static_cast<std::int64_t>(s.partners.size());
  ++preemptions_;
  ++stream_stats(h.rec.stream).caused;
  ++stream_stats(v.rec.stream).suffered;
  h.preempted_others = true;
  h.latency_pending = true;
  AiCore& core = *cores_[index];
  const std::uint64_t bytes = context_bytes_ > 0 ? context_bytes_ : core.trace_buffer().local_bytes;
  const PreemptAction action = preemption_->choose({now, core.job().start, v.block_time, bytes});
  s.drain = action == PreemptAction::kDrain;  // the block runs to its end
  if (action == PreemptAction::kKill) {
    core.preempt(PreemptMode::kKill, 0);
  } else if (action == PreemptAction::kCheckpoint) {
    core.preempt(PreemptMode::kCheckpoint, bytes);
  }
}

void AiCoreEngine::predict(Kernel& k, const ascendc::BlockTrace& block0) {
  IsolatedHost host;
  const bool split_mix = k.pool == 0 && k.need[1] > 0;
  const SimTime block = predictor_->run(block0, 0, split_mix, false, host).end;
  const std::uint32_t dim = k.work->block_dim;
  const SimTime waves = (dim + k.cap - 1) / k.cap;
  double gm_bytes = 0;  // the memory roofline: every block moves block 0's GM bytes through HBM
  for (const ascendc::Instr& in : block0.instrs) {
    if (in.touches_gm()) gm_bytes += static_cast<double>(in.bytes);
  }
  const auto memory = static_cast<SimTime>(gm_bytes * dim / hbm_bandwidth_ * 1e12);
  k.predicted = kernel_launch_ + std::max(waves * (block_launch_ + block), block_launch_ + memory);
  k.block_time = std::max(block, memory / waves);  // one block, its wave sharing HBM
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

// The cores for the kernel's next block: a core of its pool and, for a MIX block, the AIV
// partners. Returns the main core's index.
int AiCoreEngine::claim_slot(Kernel& k) {
  const int main = take_core(k.pool);
  Slot& slot = slots_[main];
  slot.kernel = &k;
  slot.partners.clear();
  slot.yielding = false;
  slot.drain = false;
  if (k.pool == 0) {
    for (std::uint32_t i = 0; i < k.need[1]; ++i) slot.partners.push_back(take_core(1));
  }
  return main;
}

// The block `job` runs next on `core`: a preempted block (or prema's block 0) first, else the
// next one (run functionally now, its trace in the core's buffer). Returns its error.
int AiCoreEngine::take_next_block(Kernel& k, AiCore& core, BlockJob& job) {
  if (k.parked.empty()) {
    job.block = k.next_block++;
    const int error = run_block(k, job.block, core.trace_buffer());
    if (job.block == 0 && k.predicted == 0) predict(k, core.trace_buffer());
    return error;
  }
  Parked& p = k.parked.front();
  if (p.preempted) ++stream_stats(k.rec.stream).redispatched;
  job.block = p.block;
  job.restore_bytes = p.restore_bytes;
  const int error = p.error;
  std::swap(core.trace_buffer(), p.trace);
  k.parked.pop_front();
  return error;
}

void AiCoreEngine::assign(Kernel& k) {
  const SimTime now = sim::sim_now();
  const int main = claim_slot(k);
  ++k.running;
  const bool first = !k.started;
  if (first) {
    k.started = true;
    k.rec.first_block = now;
  }
  AiCore& core = *cores_[main];
  BlockJob job;
  job.task_id = k.rec.task_id;  // for the pipe spans' args
  job.record = k.opsim;
  const int error = take_next_block(k, core, job);
  if (error != 0) fail(k, error);
  job.dispatched = now;
  job.start = now + block_launch_;
  const Slot& slot = slots_[main];
  job.partner = slot.partners.empty() ? nullptr : cores_[slot.partners[0]].get();
  note_start_latency(k, job.start, first);
  core.assign(job);
}

// A block of the kernel failed: the kernel fails with the first error.
void AiCoreEngine::fail(Kernel& k, int error) {
  if (k.error == 0) k.error = error;
  k.failed = true;
}

// Readiness to the first issue slot, for the kernel's first block (start latency) and for the
// first block it dispatched after preempting (preemption latency).
void AiCoreEngine::note_start_latency(Kernel& k, SimTime start, bool first) {
  if (first) stream_stats(k.rec.stream).start.add(start - k.ready_at);
  if (k.latency_pending) {
    k.latency_pending = false;
    stream_stats(k.rec.stream).latency.add(start - k.ready_at);
  }
}

int AiCoreEngine::run_block(Kernel& k, std::uint32_t block, ascendc::BlockTrace& trace) {
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

void AiCoreEngine::release_slot(Kernel& k, AiCore& core, Slot& slot) {
  busy_[core.index()] = false;
  ++free_[k.pool];
  for (int p : slot.partners) {
    busy_[p] = false;
    ++free_[1];
  }
  if (slot.yielding) {
    slot.yielding = false;
    --incoming_[k.pool];
    incoming_[1] -= static_cast<int>(slot.partners.size());
  }
  slot.kernel = nullptr;
  --k.running;
}

void AiCoreEngine::block_finished(AiCore& core) {
  Slot& slot = slots_[core.index()];
  Kernel& k = *slot.kernel;
  account(k, core, slot);
  if (core.timed_out()) {  // the watchdog stopped the block: the kernel fails, no more blocks
    sim::log_error("npusim: kernel " + k.rec.name + " block " + std::to_string(core.job().block) +
                   " ran longer than aicore.timeout: stopped by the watchdog");
    fail(k, core.core_kind() == CoreKind::kAiv ? kVectorCoreTimeout : kAicoreTimeout);
  }
  if (slot.yielding && slot.drain && core.tracing()) {
    core.trace_block("preempt (drain)", slot.asked, sim::sim_now(), {});
  }
  release_slot(k, core, slot);
  ++blocks_;
  if (k.running == 0 && (k.failed || waiting_blocks(k) == 0)) finish(k);
  wake_.notify(sc_core::SC_ZERO_TIME);  // dispatch on the main stack, after this delta
}

void AiCoreEngine::block_preempted(AiCore& core) {
  Slot& slot = slots_[core.index()];
  Kernel& k = *slot.kernel;
  const BlockJob& job = core.job();
  StreamStats& st = stream_stats(k.rec.stream);
  if (job.restore_bytes > 0 && core.restored() > 0) {  // its context read was issued
    st.restored_bytes += job.restore_bytes;
    st.restore_time += std::min(core.restored(), core.preempted().at) - job.start;
  }
  Parked back;
  back.block = job.block;
  back.preempted = true;
  std::swap(back.trace, core.trace_buffer());  // kill: the whole trace; checkpoint: the rest
  charge_preempted(k, core, slot, st, back);
  if (core.tracing()) trace_preempted(k, core, slot);
  k.parked.push_back(std::move(back));
  release_slot(k, core, slot);
  if (k.running == 0 && (k.failed || waiting_blocks(k) == 0)) finish(k);
  wake_.notify(sc_core::SC_ZERO_TIME);
}

// What a preempted block ran up to its cut: killed, its time is lost; checkpointed, its done
// instructions count and it saved its context (which it restores when it runs again).
void AiCoreEngine::charge_preempted(Kernel& k, AiCore& core, const Slot& slot, StreamStats& st,
                                    Parked& back) {
  const PreemptResult& pr = core.preempted();
  const SimTime from = core.replay_start();
  if (pr.mode == PreemptMode::kKill) {
    const SimTime lost = pr.cut.progress && pr.at > from ? pr.at - from : 0;
    st.killed_time += lost;
    charge(k, core, slot, pr.cut.busy, lost, false, false);  // the core was busy; nothing stands
    return;
  }
  const SimTime executed = pr.cut.progress ? pr.drained - from : 0;
  charge(k, core, slot, pr.cut.busy, executed, true, false);
  k.rec.instrs += pr.cut.done;
  instrs_ += pr.cut.done;
  st.saved_bytes += pr.saved_bytes;
  st.save_time += pr.free - pr.drained;
  back.restore_bytes = pr.cut.progress ? pr.saved_bytes : core.job().restore_bytes;
}

// The preempted block's span and how it gave its core up (kill, or drain and save).
void AiCoreEngine::trace_preempted(const Kernel& k, AiCore& core, const Slot& slot) {
  const PreemptResult& pr = core.preempted();
  const BlockJob& job = core.job();
  const std::vector<sim::TraceArg> args = {sim::TraceArg::num("block", job.block),
                                           sim::TraceArg::num("Stream Id", k.rec.stream),
                                           sim::TraceArg::num("Task Id", k.rec.task_id),
                                           sim::TraceArg::num("preempted", 1)};
  core.trace_block(k.rec.name, job.dispatched, pr.at, args);
  if (pr.mode == PreemptMode::kKill) {
    core.trace_block("preempt (kill)", pr.at, pr.at, {});
  } else {
    if (pr.drained > pr.at) core.trace_block("preempt (drain pipes)", pr.at, pr.drained, {});
    core.trace_block("save context", pr.drained, pr.free,
                     {sim::TraceArg::num("bytes", pr.saved_bytes)});
  }
  for (int p : slot.partners) cores_[p]->trace_block(k.rec.name, job.dispatched, pr.free, args);
}

void AiCoreEngine::charge(Kernel& k, AiCore& core, const Slot& slot,
                          const std::array<SimTime, kLaneCount>& lanes, SimTime executed,
                          bool record, bool block) {
  std::array<SimTime, ascendc::kPipeCount> own{}, vec{};
  for (int lane = 0; lane < kLaneCount; ++lane) {
    const bool to_partner = !slot.partners.empty() && vector_lane(lane);
    (to_partner ? vec : own)[static_cast<int>(lane_pipe(lane))] += lanes[lane];
  }
  core.account(own, executed, block);
  for (std::size_t i = 0; i < slot.partners.size(); ++i) {
    cores_[slot.partners[i]]->account(i == 0 ? vec : decltype(vec){}, executed, block);
  }
  if (!record) return;
  add_to_side(core.core_kind() == CoreKind::kAiv ? k.rec.aiv : k.rec.aic, own, executed, block);
  if (!slot.partners.empty()) add_to_side(k.rec.aiv, vec, executed, block);
}

void AiCoreEngine::account(Kernel& k, AiCore& core, const Slot& slot) {
  const ReplayResult& r = core.result();
  const BlockJob& job = core.job();
  const SimTime now = sim::sim_now();
  const SimTime executed = core.end() - core.replay_start();
  charge(k, core, slot, r.busy, executed, true, true);
  if (keep_records_ && keep_profiles_) profile_block(k, core, slot);
  k.rec.instrs += r.instrs;
  k.rec.last_block_end = now;
  ++k.rec.blocks_run;
  instrs_ += r.instrs;
  if (job.restore_bytes > 0) {
    StreamStats& st = stream_stats(k.rec.stream);
    st.restored_bytes += job.restore_bytes;
    st.restore_time += core.restored() - job.start;
  }
  if (!core.tracing()) return;  // (the args below cost an allocation per block)
  const std::vector<sim::TraceArg> args = {sim::TraceArg::num("block", job.block),
                                           sim::TraceArg::num("Stream Id", k.rec.stream),
                                           sim::TraceArg::num("Task Id", k.rec.task_id)};
  core.trace_block(k.rec.name, job.dispatched, now, args);
  if (job.restore_bytes > 0) {
    core.trace_block("restore context", job.start, core.restored(),
                     {sim::TraceArg::num("bytes", job.restore_bytes)});
  }
  for (int p : slot.partners) cores_[p]->trace_block(k.rec.name, job.dispatched, now, args);
}

void AiCoreEngine::profile_block(Kernel& k, AiCore& core, const Slot& slot) {
  const bool split = !slot.partners.empty();
  BlockProfile own;
  own.block = core.job().block;
  own.core = core.label();
  own.vector = core.core_kind() == CoreKind::kAiv;
  own.start = core.replay_start();
  own.end = core.end();
  BlockProfile vec = own;
  if (split) {
    vec.core = cores_[slot.partners[0]]->label();
    vec.vector = true;
  }
  const ReplayResult& r = core.result();
  for (int lane = 0; lane < kLaneCount; ++lane) {
    BlockProfile& p = split && vector_lane(lane) ? vec : own;
    const int pipe = static_cast<int>(lane_pipe(lane));
    p.busy[pipe] += r.busy[lane];
    const L2Traffic& t = core.l2_traffic()[lane];
    p.l2[pipe].read_hit += t.read_hit;
    p.l2[pipe].read_miss += t.read_miss;
    p.l2[pipe].write_hit += t.write_hit;
    p.l2[pipe].write_miss += t.write_miss;
  }
  for (const ascendc::Instr& in : core.trace_buffer().instrs) {
    add_instr(in, costs_.cycles(in), split && mix_vector_side(in) ? vec : own);
  }
  k.rec.blocks.push_back(std::move(own));
  if (split) k.rec.blocks.push_back(std::move(vec));
}

void AiCoreEngine::finish(Kernel& k) {
  const SimTime now = sim::sim_now();
  EngineJob& job = *k.job;
  JobSink& sink = *k.sink;
  job.engine_end = now;
  forget_syncs(k);
  if (k.work) {
    if (!k.work->core_type_known) job.task_type = k.type_name;  // decided from block 0
    k.rec.end = now + completion_;
    k.rec.error = k.error;
    if (keep_records_) records_.push_back(k.rec);
    ++kernels_done_;
    StreamStats& st = stream_stats(k.rec.stream);
    if (st.kernels == 0 || job.start < st.first_received) st.first_received = job.start;
    st.last_end = std::max<std::uint64_t>(st.last_end, now);
    ++st.kernels;
    if (k.predicted > 0 && k.error == 0) {
      st.iso += static_cast<double>(k.predicted);
      st.turnaround += static_cast<double>(now - job.start);
    }
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

}  // namespace npusim::models
