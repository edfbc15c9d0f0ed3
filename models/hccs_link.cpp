// SPDX-License-Identifier: Apache-2.0
#include "models/hccs_link.h"

#include <algorithm>

#include "models/hbm.h"
#include "models/interconnect.h"
#include "models/sdma_config.h"
#include "sim/engine.h"

namespace npusim::models {

HccsLink::HccsLink(const sc_core::sc_module_name& name, UnitContext& ctx)
    : ChannelEngine(name, ctx.cfg.unit<SdmaConfig>().channels, ctx.tracks, "HCCS", ctx.stats),
      device_(ctx.device),
      fabric_(ctx.fabric),
      burst_(ctx.cfg.unit<SdmaConfig>().burst_bytes()),
      work_(ctx.cfg.unit<SdmaConfig>().channel_slots()) {
  bind_memory(ctx.hbm);
  if (fabric_ != nullptr) fabric_->attach_memory(device_, ctx.hbm);
  ctx.routes.claim(TaskKind::kCopy, Direction::kPeer, *this, "hccs");
  ctx.routes.claim(TaskKind::kReduce, Direction::kPeer, *this, "hccs");
  ctx.stats.add("hccs_bytes", hccs_bytes_, "B", "bytes this chip's transfers moved over HCCS");
  ctx.stats.add("host_bytes", host_bytes_, "B",
                "bytes this chip's peer transfers moved through the host (no HCCS link)");
}

bool HccsLink::reachable(const Task& task) const {
  return fabric_ != nullptr && task.peer != device_ && fabric_->memory(task.peer) != nullptr &&
         fabric_->pcie(task.peer, true) != nullptr && fabric_->pcie(device_, true) != nullptr;
}

sim::SimTime HccsLink::lead_time(const Task& task) const {
  if (!reachable(task)) return 0;
  return fabric_->hccs(source(task), destination(task)) != nullptr ? fabric_->hccs_latency()
                                                                   : 2 * fabric_->pcie_latency();
}

sim::SimTime HccsLink::memory(std::uint32_t device, bool write, sim::SimTime at,
                              std::uint64_t bytes) {
  sim::SimTime slot_end = at;
  if (device == device_) {
    memory_access(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, at, bytes, slot_end);
  } else {
    fabric_->memory(device)->remote_access(write, at, bytes, slot_end);
  }
  return slot_end;
}

// A transfer starts: over the HCCS link between the chips when there is one (declared on the
// link's track once), else through the host's PCIe root complex.
void HccsLink::start_transfer(Work& w, const Task& task, sim::SimTime now) {
  w.issue = now;  // the channel slept through the latency
  w.started = now;
  w.left = task.bytes;
  w.link = fabric_->hccs(source(task), destination(task));
  if (w.link != nullptr) {
    if (!w.link->declared) {
      w.link->track.declare(w.link->name);
      w.link->declared = true;
    }
    if (w.link->active++ == 0) fabric_->update_counter(*w.link, now);
  }
  w.step = 1;
}

// One burst of `n` bytes issued at w.issue: when the path and both memories let the next go.
sim::SimTime HccsLink::reserve_burst(const Work& w, const Task& task, std::uint64_t n) {
  const std::uint32_t src = source(task);
  const std::uint32_t dst = destination(task);
  sim::SimTime next = w.issue;
  if (w.link != nullptr) {
    next = std::max(next, w.link->bandwidth.reserve(w.issue, n));
  } else {
    next = std::max(next, fabric_->pcie(src, false)->reserve(w.issue, n));
    next = std::max(next, fabric_->root_complex(false).reserve(w.issue, n));
    next = std::max(next, fabric_->root_complex(true).reserve(w.issue, n));
    next = std::max(next, fabric_->pcie(dst, true)->reserve(w.issue, n));
  }
  next = std::max(next, memory(src, false, w.issue, n));
  if (task.kind == TaskKind::kReduce) next = std::max(next, memory(dst, false, w.issue, n));
  return std::max(next, memory(dst, true, w.issue, n));
}

// The transfer is done at `now`: counted, and traced on the link it used.
void HccsLink::finish_transfer(Work& w, const Task& task, sim::SimTime now) {
  if (w.link != nullptr) {
    hccs_bytes_ += task.bytes;
    const double secs = static_cast<double>(now - w.started) / 1e12;
    const double gbps = secs > 0 ? static_cast<double>(task.bytes) / secs / 1e9 : 0.0;
    w.link->track.span(
        task.name.empty() ? "SDMA_SQE" : task.name, w.started, now,
        {sim::TraceField::num("device", device_), sim::TraceField::num("Stream Id", task.stream),
         sim::TraceField::num("Task Id", task.task_id),
         sim::TraceField::num("size(B)", static_cast<double>(task.bytes)),
         sim::TraceField::num("bandwidth(GB/s)", gbps)});
    if (--w.link->active == 0) fabric_->update_counter(*w.link, now);
  } else {
    host_bytes_ += task.bytes;
  }
  bytes_ += task.bytes;
  w = Work{};
}

std::optional<sim::SimTime> HccsLink::resume(EngineJob& job, sim::SimTime now) {
  Work& w = work_[static_cast<std::size_t>(job.channel)];
  const Task& task = *job.task;
  if (w.step == 0) {
    if (!reachable(task)) return std::nullopt;  // the runtime never sends these
    start_transfer(w, task, now);
  }
  while (w.step == 1) {
    if (w.issue > now) return w.issue;
    const std::uint64_t n = std::min(w.left, burst_);
    w.left -= n;
    w.issue = reserve_burst(w, task, n);
    if (w.left == 0) w.step = 2;
  }
  if (w.issue > now) return w.issue;
  finish_transfer(w, task, now);
  return std::nullopt;
}

std::size_t HccsLink::span_args(const EngineJob& job, sim::TraceField* args) const {
  std::size_t n = ChannelEngine::span_args(job, args);
  const Task& task = *job.task;
  args[n++] = sim::TraceField::str("operation",
                                   task.kind == TaskKind::kReduce ? "peer reduce" : "peer copy");
  args[n++] = sim::TraceField::num("src device", source(task));
  args[n++] = sim::TraceField::num("dst device", destination(task));
  const bool hccs = fabric_ != nullptr && fabric_->hccs(source(task), destination(task));
  args[n++] = sim::TraceField::str("path", hccs ? "HCCS" : "PCIe through the host");
  return n;
}

}  // namespace npusim::models
