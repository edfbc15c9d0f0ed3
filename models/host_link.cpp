// SPDX-License-Identifier: Apache-2.0
#include "models/host_link.h"

#include <algorithm>

#include "models/hbm.h"
#include "models/interconnect.h"
#include "sim/engine.h"

namespace npusim::models {
PcieDma::PcieDma(const sc_core::sc_module_name& name, bool to_device, const ChipConfig& cfg,
                 sim::TrackGroup& tracks, sim::StatGroup& stats,
                 sim::BandwidthResource* root)
    : ChannelEngine(name, cfg.pcie.dma_channels, tracks, to_device ? "PCIe H2D" : "PCIe D2H",
                    stats),
      to_device_(to_device),
      link_(to_device ? cfg.pcie.h2d_bandwidth : cfg.pcie.d2h_bandwidth),
      root_(root),
      latency_(cfg.pcie.latency.ps),
      burst_(std::max<std::uint64_t>(cfg.pcie.burst.value, 1)),
      chunk_(std::max<std::uint64_t>(cfg.pcie.pageable_chunk.value, 1)),
      host_memcpy_(cfg.host.memcpy_bandwidth),
      work_(static_cast<std::size_t>(std::max<std::int64_t>(cfg.pcie.dma_channels, 1))) {
  sim::StatGroup& link = stats.child("link");
  link.add("bytes", link_.bytes(), "B", "bytes moved over the link");
  link.add("bursts", link_.transfers(), "", "DMA bursts");
  sim::add_resource_stats(link, link_, "the link", &sim::sim_now);
}

std::optional<sim::SimTime> PcieDma::resume(EngineJob& job, sim::SimTime now) {
  Work& w = work_[static_cast<std::size_t>(job.channel)];
  const Task& task = *job.task;
  std::optional<sim::SimTime> next;
  if (!task.pageable) {
    if (w.step == 0) {
      start_dma(w.dma, task.bytes, latency_, now);  // the channel slept through the latency
      w.step = 1;
    }
    next = step_dma(w.dma, now);
  } else {
    next = to_device_ ? staged_to_device(w, task.bytes, now)
                      : staged_from_device(w, task.bytes, now);
  }
  if (next) return next;
  w = Work{};
  bytes_ += task.bytes;
  return std::nullopt;
}

void PcieDma::start_dma(Dma& d, std::uint64_t bytes, sim::SimTime waited,
                        sim::SimTime now) const {
  d.issue = now + latency_ - waited;
  d.left = bytes;
  d.bursts_done = false;
}

std::optional<sim::SimTime> PcieDma::step_dma(Dma& d, sim::SimTime now) {
  const tlm::tlm_command cmd = to_device_ ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND;
  while (!d.bursts_done) {
    // Reserve one burst at a time, when it issues, so concurrent transfers interleave on the link
    // and never hold a resource ahead of time.
    if (d.issue > now) return d.issue;
    const std::uint64_t n = std::min(d.left, burst_);
    d.left -= n;
    sim::SimTime link_end = link_.reserve(d.issue, n);
    if (root_ != nullptr) link_end = std::max(link_end, root_->reserve(d.issue, n));
    sim::SimTime mem_slot_end = 0;
    memory_access(cmd, d.issue, n, mem_slot_end);  // its latency is part of pcie.latency
    d.issue = std::max(link_end, mem_slot_end);
    d.bursts_done = d.left == 0;
  }
  if (d.issue > now) return d.issue;
  return std::nullopt;
}

sim::SimTime PcieDma::host_copy_time(std::uint64_t bytes) const {
  return host_memcpy_.transfer_time(bytes);
}

// The host copies chunk k+1 into the free bounce buffer while chunk k is DMA'd.
std::optional<sim::SimTime> PcieDma::staged_to_device(Work& w, std::uint64_t bytes,
                                                      sim::SimTime now) {
  for (;;) {
    switch (w.step) {
      case 0:  // the first chunk is copied into a buffer
        w.left = bytes;
        w.chunk = std::min(w.left, chunk_);
        w.staged = now + host_copy_time(w.chunk);
        w.step = 1;
        break;
      case 1:  // a chunk is staged: its DMA starts, the host stages the next one meanwhile
        if (w.staged > now) return w.staged;
        w.left -= w.chunk;
        w.next = std::min(w.left, chunk_);
        w.staged = now + host_copy_time(w.next);
        start_dma(w.dma, w.chunk, 0, now);
        w.step = 2;
        break;
      case 2:  // the chunk's DMA
        if (auto t = step_dma(w.dma, now)) return t;
        if (w.left == 0) return std::nullopt;
        w.chunk = w.next;
        w.step = 1;
        break;
    }
  }
}

// Chunk k is DMA'd into a bounce buffer, then copied out by the host while chunk k+1 is DMA'd;
// with two buffers, chunk k's DMA waits for chunk k-2's copy to have drained its buffer.
std::optional<sim::SimTime> PcieDma::staged_from_device(Work& w, std::uint64_t bytes,
                                                        sim::SimTime now) {
  for (;;) {
    switch (w.step) {
      case 0:
        w.left = bytes;
        w.copied_prev = w.copied_prev2 = 0;
        w.step = 1;
        break;
      case 1:  // the next chunk, once its buffer is free
        w.chunk = std::min(w.left, chunk_);
        w.left -= w.chunk;
        w.step = 2;
        break;
      case 2:
        if (w.copied_prev2 > now) return w.copied_prev2;
        start_dma(w.dma, w.chunk, 0, now);
        w.step = 3;
        break;
      case 3: {
        if (auto t = step_dma(w.dma, now)) return t;
        const sim::SimTime copied = std::max(now, w.copied_prev) + host_copy_time(w.chunk);
        w.copied_prev2 = w.copied_prev;
        w.copied_prev = copied;
        w.step = w.left > 0 ? 1 : 4;
        break;
      }
      case 4:  // the last chunk copied out
        if (w.copied_prev > now) return w.copied_prev;
        return std::nullopt;
    }
  }
}

std::size_t PcieDma::span_args(const EngineJob& job, sim::TraceField* args) const {
  std::size_t n = ChannelEngine::span_args(job, args);
  args[n++] = sim::TraceField::str("operation", to_device_ ? "host to device" : "device to host");
  args[n++] = sim::TraceField::str("memory", job.task->pageable ? "pageable" : "pinned");
  return n;
}

HostLink::HostLink(const sc_core::sc_module_name& name, UnitContext& ctx)
    : sc_module(name),
      h2d("h2d", true, ctx.cfg, ctx.tracks, ctx.stats.child("h2d"),
          ctx.fabric != nullptr ? &ctx.fabric->root_complex(true) : nullptr),
      d2h("d2h", false, ctx.cfg, ctx.tracks, ctx.stats.child("d2h"),
          ctx.fabric != nullptr ? &ctx.fabric->root_complex(false) : nullptr) {
  if (ctx.fabric != nullptr) ctx.fabric->attach_pcie(ctx.device, h2d.link(), d2h.link());
  h2d.bind_memory(ctx.hbm);
  d2h.bind_memory(ctx.hbm);
  ctx.routes.claim(TaskKind::kCopy, Direction::kH2D, h2d, "pcie_h2d");
  ctx.routes.claim(TaskKind::kCopy, Direction::kD2H, d2h, "pcie_d2h");
}

}  // namespace npusim::models
