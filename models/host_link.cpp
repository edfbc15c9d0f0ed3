// SPDX-License-Identifier: Apache-2.0
#include "models/host_link.h"

#include <algorithm>

#include "models/hbm.h"
#include "sim/engine.h"

namespace npusim::models {
PcieDma::PcieDma(const sc_core::sc_module_name& name, bool to_device, const ChipConfig& cfg,
                 sim::TrackGroup& tracks, sim::StatGroup& stats)
    : ChannelEngine(name, cfg.pcie.dma_channels, tracks, to_device ? "PCIe H2D" : "PCIe D2H",
                    stats),
      to_device_(to_device),
      link_(to_device ? cfg.pcie.h2d_bandwidth : cfg.pcie.d2h_bandwidth),
      latency_(cfg.pcie.latency.ps),
      burst_(std::max<std::uint64_t>(cfg.pcie.burst.value, 1)),
      chunk_(std::max<std::uint64_t>(cfg.pcie.pageable_chunk.value, 1)),
      host_memcpy_(cfg.host.memcpy_bandwidth) {
  sim::StatGroup& link = stats.child("link");
  link.add("bytes", link_.bytes(), "B", "bytes moved over the link");
  link.add("bursts", link_.transfers(), "", "DMA bursts");
  sim::add_resource_stats(link, link_, "the link", &sim::sim_now);
}

void PcieDma::run(EngineJob& job) {
  const Task& task = *job.task;
  if (!task.pageable) {
    transfer(task.bytes, latency_);  // the channel slept through the latency (lead_time)
  } else if (to_device_) {
    staged_to_device(task.bytes);
  } else {
    staged_from_device(task.bytes);
  }
  bytes_ += task.bytes;
}

void PcieDma::transfer(std::uint64_t bytes, sim::SimTime waited) {
  const tlm::tlm_command cmd = to_device_ ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND;
  sim::SimTime issue = sim::sim_now() + latency_ - waited;
  std::uint64_t left = bytes;
  do {
    // Reserve one burst at a time, when it issues, so concurrent transfers interleave on the link
    // and never hold a resource ahead of time.
    wait_until(issue);
    const std::uint64_t n = std::min(left, burst_);
    left -= n;
    const sim::SimTime link_end = link_.reserve(issue, n);
    sim::SimTime mem_slot_end = 0;
    memory_access(cmd, issue, n, mem_slot_end);  // its latency is part of pcie.latency
    issue = std::max(link_end, mem_slot_end);
  } while (left > 0);
  wait_until(issue);
}

sim::SimTime PcieDma::host_copy_time(std::uint64_t bytes) const {
  return host_memcpy_.transfer_time(bytes);
}

void PcieDma::staged_to_device(std::uint64_t bytes) {
  // Host copies chunk k+1 into the free bounce buffer while chunk k is DMA'd.
  std::uint64_t left = bytes;
  std::uint64_t n = std::min(left, chunk_);
  sim::SimTime staged = sim::sim_now() + host_copy_time(n);
  do {
    wait_until(staged);
    left -= n;
    const std::uint64_t next = std::min(left, chunk_);
    staged = sim::sim_now() + host_copy_time(next);
    transfer(n);
    n = next;
  } while (left > 0);
}

void PcieDma::staged_from_device(std::uint64_t bytes) {
  // Chunk k is DMA'd into a bounce buffer, then copied out by the host while chunk k+1 is DMA'd;
  // with two buffers, chunk k's DMA waits for chunk k-2's copy to have drained its buffer.
  std::uint64_t left = bytes;
  sim::SimTime copied_prev = 0;   // chunk k-1 copied out
  sim::SimTime copied_prev2 = 0;  // chunk k-2 copied out
  do {
    const std::uint64_t n = std::min(left, chunk_);
    left -= n;
    wait_until(copied_prev2);
    transfer(n);
    const sim::SimTime copied = std::max(sim::sim_now(), copied_prev) + host_copy_time(n);
    copied_prev2 = copied_prev;
    copied_prev = copied;
  } while (left > 0);
  wait_until(copied_prev);
}

std::size_t PcieDma::span_args(const EngineJob& job, sim::TraceField* args) const {
  std::size_t n = ChannelEngine::span_args(job, args);
  args[n++] = sim::TraceField::str("operation", to_device_ ? "host to device" : "device to host");
  args[n++] = sim::TraceField::str("memory", job.task->pageable ? "pageable" : "pinned");
  return n;
}

HostLink::HostLink(const sc_core::sc_module_name& name, UnitContext& ctx)
    : sc_module(name),
      h2d("h2d", true, ctx.cfg, ctx.tracks, ctx.stats.child("h2d")),
      d2h("d2h", false, ctx.cfg, ctx.tracks, ctx.stats.child("d2h")) {
  h2d.bind_memory(ctx.hbm);
  d2h.bind_memory(ctx.hbm);
  ctx.routes.claim(TaskKind::kCopy, Direction::kH2D, h2d, "pcie_h2d");
  ctx.routes.claim(TaskKind::kCopy, Direction::kD2H, d2h, "pcie_d2h");
}

}  // namespace npusim::models
