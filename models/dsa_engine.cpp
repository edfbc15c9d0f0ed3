// SPDX-License-Identifier: Apache-2.0
#include "models/dsa_engine.h"

#include <algorithm>
#include <cmath>

namespace npusim::models {
namespace {

const DsaConfig& dsa_config(const UnitContext& ctx) { return ctx.cfg.unit<DsaConfig>(); }

}  // namespace

DsaEngine::DsaEngine(const sc_core::sc_module_name& name, UnitContext& ctx)
    : ChannelEngine(name, 1, ctx.tracks, "DSA", ctx.stats),
      setup_(dsa_config(ctx).setup.ps),
      clock_(dsa_config(ctx).clock),
      numbers_per_cycle_(dsa_config(ctx).numbers_per_cycle),
      burst_(std::max<std::uint64_t>(dsa_config(ctx).burst.value, 1)) {
  bind_memory(ctx.hbm);
  ctx.routes.claim(TaskKind::kRandom, *this, "dsa");
}

std::optional<sim::SimTime> DsaEngine::resume(EngineJob& job, sim::SimTime now) {
  const Task& task = *job.task;
  if (step_ == 0) {
    gen_start_ = now + setup_;
    const double cycles = std::ceil(static_cast<double>(task.elements) / numbers_per_cycle_);
    gen_time_ = clock_.cycles(static_cast<std::uint64_t>(cycles));
    slot_ = gen_start_;
    complete_ = gen_start_ + gen_time_;
    written_ = 0;
    step_ = 1;
  }
  if (step_ == 1) {
    while (written_ < task.bytes) {
      const std::uint64_t n = std::min(task.bytes - written_, burst_);
      // The burst exists once the generator has produced its last byte.
      const double share = static_cast<double>(written_ + n) / static_cast<double>(task.bytes);
      const sim::SimTime ready =
          gen_start_ +
          static_cast<sim::SimTime>(std::llround(share * static_cast<double>(gen_time_)));
      const sim::SimTime at = std::max(ready, slot_);
      if (at > now) return at;
      complete_ = std::max(complete_, memory_access(tlm::TLM_WRITE_COMMAND, at, n, slot_));
      written_ += n;
    }
    step_ = 2;
  }
  if (complete_ > now) return complete_;
  step_ = 0;
  bytes_ += task.bytes;
  return std::nullopt;
}

std::size_t DsaEngine::span_args(const EngineJob& job, sim::TraceField* args) const {
  std::size_t n = ChannelEngine::span_args(job, args);
  args[n++] = sim::TraceField::num("numbers", static_cast<double>(job.task->elements));
  return n;
}

}  // namespace npusim::models
