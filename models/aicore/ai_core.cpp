// SPDX-License-Identifier: Apache-2.0
#include "models/aicore/ai_core.h"

#include <algorithm>
#include <limits>

#include "sim/engine.h"

namespace npusim::models {
namespace {

using ascendc::Pipe;

/// Stat names of the pipes, in Pipe order.
const char* const kPipeStatNames[ascendc::kPipeCount] = {"scalar", "vector", "cube",   "mte1",
                                                         "mte2",   "mte3",   "fixpipe"};

}  // namespace

SC_HAS_PROCESS(AiCore);

AiCore::AiCore(const sc_core::sc_module_name& name, int index, CoreKind kind, std::string label,
               const PipeCosts& costs, SimTime timeout, CoreTracks tracks, sim::StatGroup& stats,
               CoreSink& sink)
    : sc_module(name),
      mem("mem"),
      index_(index),
      kind_(kind),
      label_(std::move(label)),
      costs_(costs),
      tracks_(tracks),
      sink_(sink),
      replay_(costs) {
  timeout_ = timeout;
  SC_METHOD(step);
  sensitive << go_;
  dont_initialize();
  payload_.set_data_ptr(nullptr);
  payload_.set_byte_enable_ptr(nullptr);
  payload_.set_dmi_allowed(false);
  payload_.set_extension(&access_);
  register_stats(stats);
}

void AiCore::declare_tracks() {
  declared_ = true;
  tracks_.core.declare(label_);
  if (!tracks_.pipes) return;
  for (int p = 0; p < ascendc::kPipeCount; ++p) {
    tracks_.pipe[p].declare(label_ + " " + ascendc::pipe_name(Pipe(p)));
  }
}

void AiCore::assign(const BlockJob& job) {
  job_ = job;
  phase_ = Phase::kStart;
  l2_ = {};
  restored_ = 0;
  timed_out_ = false;
  want_ = false;
  go_.notify();  // step() runs in this evaluation phase
}

void AiCore::preempt(PreemptMode mode, std::uint64_t save_bytes) {
  if (phase_ == Phase::kIdle || phase_ == Phase::kSave || phase_ == Phase::kSaving || want_) return;
  want_ = true;
  want_mode_ = mode;
  want_bytes_ = save_bytes;
  preempt_ev_.notify();  // step() runs in this evaluation phase
}

void AiCore::sleep_until(SimTime until, SimTime now) {
  sc_core::next_trigger(sim::to_sc_time(until - now), preempt_ev_);
}

bool AiCore::begin_preempt(SimTime now) {
  if (phase_ == Phase::kIdle || timed_out_) return false;
  preempt_ = PreemptResult{};
  preempt_.mode = want_mode_;
  preempt_.at = now;
  preempt_.drained = now;
  preempt_.free = now;
  preempt_.restored = restored_;
  if (phase_ == Phase::kStart || phase_ == Phase::kRestore) return true;  // nothing ran yet
  SimTime wake_at = 0;  // every GM instruction that started by now gets its data time
  if (phase_ == Phase::kReplay && replay_.advance(now, wake_at)) {
    timed_out_ = replay_.result().end > replay_start_ + timeout_;
    end_ = timed_out_ ? replay_start_ + timeout_ : replay_.result().end;
    result_ = &replay_.result();
    phase_ = Phase::kTail;
  }
  if (!replay_.cut(now, rest_, preempt_.cut)) return false;
  if (want_mode_ == PreemptMode::kKill) return true;  // trace_ stays whole: the block re-runs
  std::swap(trace_, rest_);  // the remaining work, for the engine to resume
  preempt_.drained = preempt_.cut.drained;
  preempt_.saved_bytes = want_bytes_;
  return true;
}

SimTime AiCore::transfer(bool write, std::uint64_t bytes) {
  constexpr std::uint64_t kMaxLength = std::numeric_limits<unsigned int>::max();
  const auto n = static_cast<unsigned int>(std::clamp<std::uint64_t>(bytes, 1, kMaxLength));
  payload_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  payload_.set_address(0);  // core state: no address, timed as untagged traffic
  access_.bursts = 1;
  access_.pitch = 0;
  payload_.set_data_length(n);
  payload_.set_streaming_width(n);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  mem->b_transport(payload_, delay);
  return sim::sim_now() + delay.value();
}

// A preemption was asked for and takes: true when the core is free at once (a kill, or nothing
// ran yet), otherwise the context goes to be saved.
bool AiCore::preempt_now(SimTime now) {
  if (preempt_.mode == PreemptMode::kKill || !preempt_.cut.progress) {
    preempt_.saved_bytes = 0;  // nothing to save: the core is free now
    preempt_.drained = now;
    phase_ = Phase::kIdle;
    sink_.block_preempted(*this);
    return true;
  }
  phase_ = Phase::kSave;
  return false;
}

// kSave/kSaving: the started instructions drain, then the context is written.
void AiCore::step_save(SimTime now) {
  if (phase_ == Phase::kSave) {
    if (preempt_.drained > now) {
      sc_core::next_trigger(sim::to_sc_time(preempt_.drained - now));
      return;
    }
    preempt_.free = preempt_.saved_bytes > 0 ? transfer(true, preempt_.saved_bytes) : now;
    phase_ = Phase::kSaving;
  }
  if (preempt_.free > now) {
    sc_core::next_trigger(sim::to_sc_time(preempt_.free - now));
    return;
  }
  phase_ = Phase::kIdle;
  sink_.block_preempted(*this);
}

// kStart/kRestore: a checkpointed block's context comes back first, then the replay begins.
// False while the core sleeps.
bool AiCore::step_start(SimTime now) {
  if (phase_ == Phase::kStart) {
    timed_out_ = false;
    if (job_.restore_bytes > 0) {
      if (job_.start > now) {
        sleep_until(job_.start, now);
        return false;
      }
      restored_ = transfer(false, job_.restore_bytes);
      phase_ = Phase::kRestore;
    } else {
      replay_start_ = job_.start;
    }
  }
  if (phase_ == Phase::kRestore) {
    if (restored_ > now) {
      sleep_until(restored_, now);
      return false;
    }
    replay_start_ = restored_;
    phase_ = Phase::kStart;
  }
  if (phase_ == Phase::kStart) {
    const bool record = job_.record >= 0 && opsim_ != nullptr;
    if (record) opsim_->begin_block(job_.record, job_.block, trace_);
    const bool pipes = (tracks_.pipes && tracks_.core.on()) || record;
    replay_.begin(trace_, replay_start_, job_.partner != nullptr, pipes, *this);
    phase_ = Phase::kReplay;
  }
  return true;
}

// kReplay: the replay advanced to `now`; false while it waits for its next GM instruction.
bool AiCore::step_replay(SimTime now) {
  const SimTime limit = replay_start_ + timeout_;  // the watchdog
  SimTime wake_at = 0;
  if (replay_.advance(now, wake_at)) {
    timed_out_ = replay_.result().end > limit;
    end_ = timed_out_ ? limit : replay_.result().end;
  } else if (wake_at == ReplayHost::kNever && now < limit) {  // another block's kSyncSet
    sleep_until(limit, now);
    return false;
  } else if (wake_at <= limit) {  // the next GM instruction starts later
    sleep_until(wake_at, now);
    return false;
  } else {  // the watchdog fires first: the block stops there (its counts so far stand)
    timed_out_ = true;
    end_ = limit;
  }
  result_ = &replay_.result();
  phase_ = Phase::kTail;
  return true;
}

void AiCore::step() {
  const SimTime now = sim::sim_now();
  if (want_) {
    want_ = false;
    if (begin_preempt(now) && preempt_now(now)) return;
  }
  if (phase_ == Phase::kSave || phase_ == Phase::kSaving) {
    step_save(now);
    return;
  }
  if (!step_start(now)) return;
  if (phase_ == Phase::kReplay && !step_replay(now)) return;
  if (end_ > now) {
    sleep_until(end_, now);
    return;
  }
  phase_ = Phase::kIdle;
  sink_.block_finished(*this);
}

SimTime AiCore::gm_access(const ascendc::Instr& in, SimTime request, SimTime& latency) {
  const SimTime now = sim::sim_now();
  constexpr std::uint64_t kMaxLength = std::numeric_limits<unsigned int>::max();
  const auto bytes = static_cast<unsigned int>(std::clamp<std::uint64_t>(in.bytes, 1, kMaxLength));
  const bool write = in.dst == ascendc::Mem::kGm;
  payload_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  payload_.set_address(in.gm_addr);
  payload_.set_data_length(bytes);
  payload_.set_streaming_width(bytes);
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  access_.bursts = in.gm_pitch != 0 ? std::max<std::uint32_t>(in.count, 1) : 1;
  access_.pitch = in.gm_pitch;
  access_.hit_bytes = 0;
  access_.write_hit_bytes = 0;
  sc_core::sc_time delay = sim::to_sc_time(request > now ? request - now : 0);
  mem->b_transport(payload_, delay);
  SimTime data = now + delay.value();
  // The block's L2 traffic by lane (block_profile.h): a MIX block's vector-side MTE2 on its own.
  const int lane = job_.partner != nullptr && in.pipe == ascendc::Pipe::kMte2 &&
                           in.dst == ascendc::Mem::kUb
                       ? kMte2AivLane
                       : static_cast<int>(in.pipe);
  L2Traffic& l2 = l2_[lane];
  if (write) {
    const std::uint64_t hit = std::min<std::uint64_t>(access_.write_hit_bytes, bytes);
    l2.write_hit += hit;
    l2.write_miss += bytes - hit;
  } else {
    const std::uint64_t hit = std::min<std::uint64_t>(access_.hit_bytes, bytes);
    l2.read_hit += hit;
    l2.read_miss += bytes - hit;
  }
  if (in.gm_addr != 0 && !write) {  // addressed read: now we know its hits (pipe_costs.h)
    const std::uint64_t misses = bytes - std::min<std::uint64_t>(access_.hit_bytes, bytes);
    if (misses > 0) latency += costs_.hbm_latency();
    if (in.pipe == ascendc::Pipe::kMte2)
      data = std::max(data, request + costs_.mte2_stream_ps(bytes - misses, misses) + latency);
  }
  return data;
}

void AiCore::instr_done(const ascendc::Instr& in, int lane, SimTime start, SimTime end) {
  const bool vector_side = lane == kMte2AivLane || in.pipe == Pipe::kVector ||
                           in.pipe == Pipe::kMte3;
  const AiCore& owner = job_.partner != nullptr && vector_side ? *job_.partner : *this;
  if (job_.record >= 0 && opsim_ != nullptr) {
    const auto index = static_cast<std::uint32_t>(&in - trace_.instrs.data());
    opsim_->instr(job_.record, job_.block, trace_, index, owner.opsim_unit_, lane_pipe(lane),
                  start, end);
  }
  const sim::Track& track = owner.tracks_.pipe[static_cast<int>(lane_pipe(lane))];
  if (!track.on()) return;
  sim::TraceField args[kInstrArgs];
  const std::size_t count =
      instr_args(in, job_.task_id, job_.block, costs_.to_cycles(end - start), args);
  track.span(instr_label(in), start, end, args, count);
}

void AiCore::account(const std::array<SimTime, ascendc::kPipeCount>& busy, SimTime executed,
                     bool block) {
  if (block) ++blocks_;
  busy_ps_ += executed;
  for (int p = 0; p < ascendc::kPipeCount; ++p) pipe_busy_ps_[p] += busy[p];
}

void AiCore::trace_block(const std::string& name, SimTime from, SimTime to,
                         std::vector<sim::TraceArg> args) {
  if (!tracks_.core.on()) return;
  if (!declared_) declare_tracks();  // only cores that ran something get tracks
  tracks_.core.span(name, from, to, std::move(args));
}

void AiCore::register_stats(sim::StatGroup& stats) {
  stats.add("blocks", blocks_, "", "blocks this core ran or (AIV of a MIX block) took part in");
  stats.add("busy_time", busy_ps_, "ps", "block execution time (first issue slot to block end)");
  stats.formula("busy_cycles", [this] { return costs_.to_cycles(busy_ps_); }, "cycles",
                "busy_time in AI Core cycles");
  stats.formula("utilization", [this] {
    const SimTime now = sim::sim_now();
    return now == 0 ? 0.0 : static_cast<double>(busy_ps_) / static_cast<double>(now);
  }, "", "busy_time / simulated time");
  for (int p = 0; p < ascendc::kPipeCount; ++p) {
    const std::string name = kPipeStatNames[p];
    stats.formula(name + "_busy_cycles", [this, p] { return costs_.to_cycles(pipe_busy_ps_[p]); },
                  "cycles", "cycles this pipe executed instructions (scalar: issue + scalar code)");
    stats.formula(name + "_utilization", [this, p] {
      const SimTime now = sim::sim_now();
      return now == 0 ? 0.0 : static_cast<double>(pipe_busy_ps_[p]) / static_cast<double>(now);
    }, "", "pipe busy time / simulated time");
  }
}

}  // namespace npusim::models
