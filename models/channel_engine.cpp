// SPDX-License-Identifier: Apache-2.0
#include "models/channel_engine.h"

#include <algorithm>
#include <functional>

#include "models/hbm.h"
#include "sim/engine.h"

namespace npusim::models {

ChannelEngine::ChannelEngine(const sc_core::sc_module_name& name, std::int64_t channels,
                             sim::TrackGroup& tracks, const std::string& label,
                             sim::StatGroup& stats, const std::string& noun)
    : sc_module(name), mem("mem") {
  const int count = static_cast<int>(std::max<std::int64_t>(channels, 1));
  for (int i = 0; i < count; ++i) {
    channels_.push_back(std::make_unique<Channel>());
    channels_.back()->track = tracks.add(label + " " + noun + " " + std::to_string(i));
    free_.push_back(count - 1 - i);
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&channels_.back()->go);
    opts.dont_initialize();
    sc_core::sc_spawn(std::bind(&ChannelEngine::on_channel, this, i),
                      ("ch" + std::to_string(i)).c_str(), &opts);
  }
  payload_.set_data_ptr(nullptr);
  payload_.set_byte_enable_ptr(nullptr);
  payload_.set_dmi_allowed(false);
  stats.add("tasks", jobs_, "", "tasks executed");
  stats.add("busy_time", busy_time_, "ps", "channel busy time summed over channels");
  stats.add("bytes", bytes_, "B", "bytes moved");
  stats.formula("bandwidth", [this] {
    if (busy_time_ == 0) return 0.0;
    return static_cast<double>(bytes_) * 1e3 / static_cast<double>(busy_time_);
  }, "GB/s", "bytes / busy_time (per-channel average while busy)");
}

void ChannelEngine::bind_memory(Hbm& hbm) {
  mem.bind(hbm.socket);
  memory_latency_ = hbm.latency();
}

void ChannelEngine::start(EngineJob& job, sim::SimTime delay, JobSink& sink) {
  const int index = free_.back();
  free_.pop_back();
  Channel& ch = *channels_[index];
  ch.job = &job;
  ch.sink = &sink;
  job.channel = index;
  ch.lead = lead_time(*job.task);
  ch.go.notify(sim::to_sc_time(delay + ch.lead));
}

void ChannelEngine::on_channel(int index) {
  Channel& ch = *channels_[index];
  EngineJob& job = *ch.job;
  const sim::SimTime now = sim::sim_now();
  if (!ch.started) {
    ch.started = true;
    job.start = now - ch.lead;
  }
  if (const std::optional<sim::SimTime> next = resume(job, now)) {
    sc_core::next_trigger(sim::to_sc_time(*next - now));
    return;
  }
  ch.started = false;
  job.engine_end = now;
  ++jobs_;
  busy_time_ += job.engine_end - job.start;
  trace_job(job);
  JobSink& sink = *ch.sink;
  release(index);
  sink.job_finished(job);
}

void ChannelEngine::release(int index) {
  Channel& ch = *channels_[index];
  ch.job = nullptr;
  ch.sink = nullptr;
  free_.insert(std::upper_bound(free_.begin(), free_.end(), index, std::greater<int>()), index);
}

void ChannelEngine::trace_job(const EngineJob& job) {
  const sim::Track& track = channels_[job.channel]->track;
  if (!track.on()) return;
  sim::TraceField args[kMaxSpanArgs];
  const std::size_t count = span_args(job, args);
  track.span(job.task->name, job.start, job.engine_end, args, count);
}

std::size_t ChannelEngine::span_args(const EngineJob& job, sim::TraceField* args) const {
  args[0] = sim::TraceField::num("Stream Id", job.task->stream);
  args[1] = sim::TraceField::num("Task Id", job.task->task_id);
  args[2] = sim::TraceField::num("size(B)", static_cast<double>(job.task->bytes));
  return 3;
}

sim::SimTime ChannelEngine::memory_access(tlm::tlm_command cmd, sim::SimTime at,
                                          std::uint64_t bytes, sim::SimTime& slot_end) {
  const sim::SimTime now = sim::sim_now();
  payload_.set_command(cmd);
  payload_.set_address(0);
  payload_.set_data_length(static_cast<unsigned int>(bytes));
  payload_.set_streaming_width(static_cast<unsigned int>(bytes));
  payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sim::to_sc_time(at - now);
  mem->b_transport(payload_, delay);
  const sim::SimTime complete = now + delay.value();
  slot_end = complete - memory_latency_;
  return complete;
}

}  // namespace npusim::models
