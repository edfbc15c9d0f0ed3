// SPDX-License-Identifier: Apache-2.0
#include "models/dvpp.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace npusim::models {
namespace {

/// The base class's per-channel task tracks: off (the unit draws per-frame unit tracks).
sim::TrackGroup& off_tracks() {
  static sim::TrackGroup group;
  return group;
}

const char* lower_name(DvppModule m) {
  static const char* const kNames[kDvppModules] = {"vpc", "jpegd", "jpege", "pngd", "vdec", "venc"};
  return kNames[static_cast<int>(m)];
}

}  // namespace

DvppModuleEngine::DvppModuleEngine(const sc_core::sc_module_name& name, DvppModule module,
                                   const DvppModuleConfig& cfg, UnitContext& ctx,
                                   sim::StatGroup& stats)
    : ChannelEngine(name, cfg.channels, off_tracks(), dvpp_module_name(module), stats),
      module_(module),
      ref_pixels_(static_cast<double>(cfg.ref_width) * static_cast<double>(cfg.ref_height)),
      fps_(cfg.fps),
      total_fps_(cfg.total_fps),
      overhead_s_(static_cast<double>(cfg.frame_overhead.ps) * 1e-12),
      unit_free_(static_cast<std::size_t>(cfg.channels), 0),
      jobs_(static_cast<std::size_t>(cfg.channels)) {
  depth_ = static_cast<sim::SimTime>(
      std::llround(static_cast<double>(cfg.channels) / total_fps_ * 1e12));
  level_ = static_cast<std::int64_t>(depth_);
  completion_ = ctx.cfg.scheduler.completion.ps;
  bind_memory(ctx.hbm);
  for (std::int64_t i = 0; i < cfg.channels; ++i) {
    unit_tracks_.push_back(ctx.tracks.add(std::string("DVPP ") + dvpp_module_name(module) + " ch " +
                                          std::to_string(i)));
  }
  stats.add("frames", frames_, "", "frames processed");
  stats.add("pixels", pixels_, "", "pixels processed");
  ctx.routes.claim(dvpp_task_kind(module), *this, std::string("dvpp_") + lower_name(module));
}

// A channel: overhead + (1 / fps - overhead) x pixels / reference pixels; the module total
// (rate = total_fps) the same scaled by fps / total_fps.
sim::SimTime DvppModuleEngine::frame_time(std::uint64_t pixels, double rate) const {
  const double channel =
      overhead_s_ + (1.0 / fps_ - overhead_s_) * static_cast<double>(pixels) / ref_pixels_;
  const double seconds = channel * fps_ / rate;
  return static_cast<sim::SimTime>(std::llround(seconds * 1e12));
}

void DvppModuleEngine::admit(Frame& f, const DvppFrame& frame, sim::SimTime now) {
  int unit = -1;
  for (std::size_t u = 0; u < unit_free_.size(); ++u) {
    if (unit_free_[u] <= now) {
      unit = static_cast<int>(u);
      break;
    }
  }
  if (unit < 0) {
    unit = static_cast<int>(std::min_element(unit_free_.begin(), unit_free_.end()) -
                            unit_free_.begin());
  }
  f.unit = unit;
  f.issue = now;
  // Refill the bucket up to now (capped), then wait out any debt.
  level_ = std::min<std::int64_t>(static_cast<std::int64_t>(depth_),
                                  level_ + static_cast<std::int64_t>(now - level_at_));
  level_at_ = now;
  const sim::SimTime debt = level_ < 0 ? static_cast<sim::SimTime>(-level_) : 0;
  f.admit = std::max(now + debt, unit_free_[unit]);
  f.work = frame_time(frame.pixels, fps_);
  level_ -= static_cast<std::int64_t>(frame_time(frame.pixels, total_fps_));
  unit_free_[unit] = f.admit + f.work;  // provisional: extended to the write's end below
  f.phase = 1;
}

// Moves admitted frame `f` (number i of the task) as far as `now` allows: input read, computed,
// output written (its unit busy until then), done.
void DvppModuleEngine::advance(const Task& task, Frame& f, const DvppFrame& in, std::size_t i,
                               sim::SimTime now) {
  if (f.phase == 1 && f.admit <= now) {
    sim::SimTime slot = 0;
    const sim::SimTime read =
        in.read_bytes > 0 ? memory_access(tlm::TLM_READ_COMMAND, f.admit, in.read_bytes, slot)
                          : f.admit;
    f.compute = std::max(f.admit + f.work, read);
    f.phase = 2;
  }
  if (f.phase == 2 && f.compute <= now) {
    sim::SimTime slot = 0;
    f.end = in.write_bytes > 0
                ? memory_access(tlm::TLM_WRITE_COMMAND, f.compute, in.write_bytes, slot)
                : f.compute;
    unit_free_[static_cast<std::size_t>(f.unit)] =
        std::max(unit_free_[static_cast<std::size_t>(f.unit)], f.end);
    f.phase = 3;
  }
  if (f.phase == 3 && f.end <= now) finish(task, f, in, i);
}

// A frame done: counted, and drawn on its unit's track.
void DvppModuleEngine::finish(const Task& task, Frame& f, const DvppFrame& in, std::size_t i) {
  f.phase = 4;
  ++frames_;
  pixels_ += in.pixels;
  bytes_ += in.read_bytes + in.write_bytes;
  const sim::Track& track = unit_tracks_[static_cast<std::size_t>(f.unit)];
  if (track.on()) {
    track.span(task.name, f.admit, f.end,
               {sim::TraceField::num("Stream Id", task.stream),
                sim::TraceField::num("Task Id", task.task_id),
                sim::TraceField::num("frame", static_cast<double>(i)),
                sim::TraceField::num("pixels", static_cast<double>(in.pixels)),
                sim::TraceField::num("read(B)", static_cast<double>(in.read_bytes)),
                sim::TraceField::num("write(B)", static_cast<double>(in.write_bytes))});
  }
}

void DvppModuleEngine::keep_record(const Task& task, sim::SimTime start, std::size_t frames,
                                   sim::SimTime now) {
  KernelRecord r;
  r.device = task.device;
  r.stream = task.stream;
  r.task_id = task.task_id;
  r.name = task.name;
  r.op_type = task.name;
  r.task_type = "DVPP";
  r.block_dim = static_cast<std::uint32_t>(frames);
  r.start = start;
  r.end = now + completion_;
  records_.push_back(std::move(r));
}

std::optional<sim::SimTime> DvppModuleEngine::resume(EngineJob& job, sim::SimTime now) {
  const Task& task = *job.task;
  JobState& st = jobs_[static_cast<std::size_t>(job.channel)];
  const DvppWork* work = task.payload.get<DvppWork>();
  const std::vector<DvppFrame>* frames = work ? &work->frames : nullptr;
  if (frames == nullptr || frames->empty()) return std::nullopt;  // nothing to process
  if (st.frames.empty()) {
    st.frames.resize(frames->size());
    st.frames[0].issue = now;
  }
  sim::SimTime next = 0;
  bool pending = false;
  for (std::size_t i = 0; i < st.frames.size(); ++i) {
    Frame& f = st.frames[i];
    const DvppFrame& in = (*frames)[i];
    if (f.phase == 0) {
      if (i > 0 && st.frames[i - 1].phase == 0) break;  // not issued yet
      if (i > 0) f.issue = st.frames[i - 1].admit;
      if (f.issue > now) {
        next = pending ? std::min(next, f.issue) : f.issue;
        pending = true;
        break;
      }
      admit(f, in, now);
    }
    advance(task, f, in, i, now);
    if (f.phase < 4) {
      const sim::SimTime at = f.phase == 1 ? f.admit : f.phase == 2 ? f.compute : f.end;
      next = pending ? std::min(next, at) : at;
      pending = true;
    }
  }
  if (pending) return std::max(next, now + 1);
  st.frames.clear();
  if (keep_records_) keep_record(task, job.start, frames->size(), now);
  return std::nullopt;
}

void Dvpp::keep_records(bool on) {
  for (auto& m : modules_) {
    if (m) m->keep_records(on);
  }
}

void Dvpp::append_records(std::vector<KernelRecord>& out) const {
  for (const auto& m : modules_) {
    if (m) out.insert(out.end(), m->records().begin(), m->records().end());
  }
}

std::vector<KernelRecord> Dvpp::records() const {
  std::vector<KernelRecord> all;
  for (const auto& m : modules_) {
    if (m) all.insert(all.end(), m->records().begin(), m->records().end());
  }
  return all;
}

Dvpp::Dvpp(const sc_core::sc_module_name& name, UnitContext& ctx) : sc_module(name) {
  for (int m = 0; m < kDvppModules; ++m) {
    const auto module = static_cast<DvppModule>(m);
    const DvppModuleConfig& cfg = ctx.cfg.unit<DvppConfig>().module(module);
    if (cfg.channels <= 0) continue;
    modules_[static_cast<std::size_t>(m)] = std::make_unique<DvppModuleEngine>(
        lower_name(module), module, cfg, ctx, ctx.stats.child(lower_name(module)));
  }
}

}  // namespace npusim::models
