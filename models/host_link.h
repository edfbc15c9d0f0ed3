// SPDX-License-Identifier: Apache-2.0
// The PCIe host link: one PcieDma engine per direction (H2D, D2H), independent, so both directions
// run at full bandwidth at once.
//
// Timing model of one transfer of S bytes on a direction's DMA queue (pcie.dma_channels queues):
// pcie.latency once, then S is moved in pcie.burst bursts; each burst reserves the direction's
// link (BandwidthResource at pcie.{h2d,d2h}_bandwidth) and, in parallel, device memory through
// the Hbm target (H2D writes, D2H reads), and the next burst is issued when both are done with it.
// Concurrent transfers of one direction therefore interleave burst by burst (fair sharing).
// pcie.latency covers the whole path, device memory access included: HBM only adds contention,
// so a lone transfer takes exactly latency + S / bandwidth while HBM is the faster side.
// Every burst also reserves the host's root complex in its direction (pcie.root_complex_bandwidth,
// shared by all chips of the system; models/interconnect.h), so several chips' copies of one
// direction slow down once their links together exceed it.
// Pageable host memory is staged through two pinned bounce buffers in pcie.pageable_chunk chunks:
// the host memcpy of a chunk (host.memcpy_bandwidth) overlaps the DMA of the previous chunk (H2D)
// or the DMA of the next chunk (D2H); each chunk is its own DMA (pays the latency).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/channel_engine.h"
#include "models/unit.h"
#include "sim/bandwidth_resource.h"

namespace npusim::models {

class PcieDma : public ChannelEngine {
 public:
  /// `root`: the root complex port of this direction (nullptr: none, the link alone limits).
  PcieDma(const sc_core::sc_module_name& name, bool to_device, const ChipConfig& cfg,
          sim::TrackGroup& tracks, sim::StatGroup& stats, sim::BandwidthResource* root);

  /// The link direction (peer copies through the host reserve it too).
  sim::BandwidthResource& link() { return link_; }

  const char* task_type(const Task&) const override { return "PCIE_DMA_SQE"; }

 protected:
  std::optional<sim::SimTime> resume(EngineJob& job, sim::SimTime now) override;
  sim::SimTime lead_time(const Task& task) const override { return task.pageable ? 0 : latency_; }
  std::size_t span_args(const EngineJob& job, sim::TraceField* args) const override;

 private:
  /// One DMA in progress: its next burst issues at `issue`.
  struct Dma {
    sim::SimTime issue = 0;
    std::uint64_t left = 0;
    bool bursts_done = false;
  };
  /// A channel's job: one DMA (pinned memory), or a chain of staged chunks (pageable memory).
  struct Work {
    int step = 0;  // 0 = not started; then the step of the job's kind (resume())
    Dma dma;
    std::uint64_t left = 0;              // bytes not yet handed to a chunk's DMA
    std::uint64_t chunk = 0, next = 0;   // this chunk's and the next chunk's bytes
    sim::SimTime staged = 0;             // H2D: the host has copied the chunk into a buffer
    sim::SimTime copied_prev = 0;        // D2H: chunk k-1 copied out by the host
    sim::SimTime copied_prev2 = 0;       // D2H: chunk k-2 copied out by the host
  };

  /// Starts a DMA of `bytes` that began `waited` ago (latency, then bursts).
  void start_dma(Dma& d, std::uint64_t bytes, sim::SimTime waited, sim::SimTime now) const;
  /// Advances `d`; the time to be called again, or nullopt when its data is complete (now).
  std::optional<sim::SimTime> step_dma(Dma& d, sim::SimTime now);
  std::optional<sim::SimTime> staged_to_device(Work& w, std::uint64_t bytes, sim::SimTime now);
  std::optional<sim::SimTime> staged_from_device(Work& w, std::uint64_t bytes, sim::SimTime now);
  sim::SimTime host_copy_time(std::uint64_t bytes) const;

  bool to_device_;
  sim::BandwidthResource link_;
  sim::BandwidthResource* root_;
  sim::SimTime latency_;
  std::uint64_t burst_;
  std::uint64_t chunk_;
  sim::Bandwidth host_memcpy_;
  std::vector<Work> work_;  // per channel
};

/// Claims host copies: kCopy H2D ("pcie_h2d") and D2H ("pcie_d2h").
class HostLink : public sc_core::sc_module, public Unit {
 public:
  PcieDma h2d;
  PcieDma d2h;

  HostLink(const sc_core::sc_module_name& name, UnitContext& ctx);
};

}  // namespace npusim::models
