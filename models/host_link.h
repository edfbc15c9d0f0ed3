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
// Pageable host memory is staged through two pinned bounce buffers in pcie.pageable_chunk chunks:
// the host memcpy of a chunk (host.memcpy_bandwidth) overlaps the DMA of the previous chunk (H2D)
// or the DMA of the next chunk (D2H); each chunk is its own DMA (pays the latency).
#pragma once

#include <cstdint>

#include "models/channel_engine.h"
#include "models/unit.h"
#include "sim/bandwidth_resource.h"

namespace npusim::models {

class PcieDma : public ChannelEngine {
 public:
  PcieDma(const sc_core::sc_module_name& name, bool to_device, const ChipConfig& cfg,
          sim::TrackGroup& tracks, sim::StatGroup& stats);

  const char* task_type(const Task&) const override { return "PCIE_DMA_SQE"; }

 protected:
  void run(EngineJob& job) override;
  sim::SimTime lead_time(const Task& task) const override { return task.pageable ? 0 : latency_; }
  std::size_t span_args(const EngineJob& job, sim::TraceField* args) const override;

 private:
  /// One DMA of `bytes` that started `waited` ago: latency, then bursts; returns when it is
  /// complete.
  void transfer(std::uint64_t bytes, sim::SimTime waited = 0);
  void staged_to_device(std::uint64_t bytes);
  void staged_from_device(std::uint64_t bytes);
  sim::SimTime host_copy_time(std::uint64_t bytes) const;

  bool to_device_;
  sim::BandwidthResource link_;
  sim::SimTime latency_;
  std::uint64_t burst_;
  std::uint64_t chunk_;
  sim::Bandwidth host_memcpy_;
};

/// Claims host copies: kCopy H2D ("pcie_h2d") and D2H ("pcie_d2h").
class HostLink : public sc_core::sc_module, public Unit {
 public:
  PcieDma h2d;
  PcieDma d2h;

  HostLink(const sc_core::sc_module_name& name, UnitContext& ctx);
};

}  // namespace npusim::models
