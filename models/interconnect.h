// SPDX-License-Identifier: Apache-2.0
// What the chips of a system share: the host's PCIe root complex and the chip-to-chip links.
//
// Timing model: plain BandwidthResources, no process of their own. The root complex is one
// resource per direction at pcie.root_complex_bandwidth: every H2D burst of every chip's PCIe DMA
// reserves the H2D one as well as its own link, every D2H burst the D2H one, so the chips' host
// copies contend once their sum exceeds it. Each HCCS link of the topology is one resource per
// direction at topology.hccs_bandwidth x links_per_pair; the two directions never interfere.
// The units that move the bytes (models/host_link.h, models/hccs_link.h) reserve them burst by
// burst; this class only holds them, with their statistics ("hccs.<a>_<b>", "root_complex") and
// a timeline track per link direction in the "HCCS" process (a span per transfer, and a counter of
// the bandwidth in use).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/chip_config.h"
#include "models/topology.h"
#include "sim/bandwidth_resource.h"
#include "sim/stats.h"
#include "sim/trace.h"
#include "sim/tracks.h"

namespace npusim::models {

class Hbm;

/// One direction of a chip-to-chip link.
struct LinkDirection {
  std::uint32_t from = 0, to = 0;
  std::string name;  // "HCCS 0->1"
  sim::BandwidthResource bandwidth;
  sim::Track track;  // reserved; named when the link first carries a transfer
  bool declared = false;
  int active = 0;  // transfers in progress (the counter shows the bandwidth while > 0)

  LinkDirection(std::uint32_t f, std::uint32_t t, std::string n, sim::Bandwidth bw)
      : from(f), to(t), name(std::move(n)), bandwidth(bw) {}
};

class Interconnect {
 public:
  /// The root complex and the HCCS links of `topology`; statistics in `stats`, tracks in
  /// `trace`. Contract: before the chips are built.
  Interconnect(const ChipConfig& cfg, const Topology& topology, sim::StatGroup& stats,
               sim::TraceWriter& trace);

  /// The root complex port of host DMA towards the devices (to_device) or from them.
  sim::BandwidthResource& root_complex(bool to_device) { return to_device ? root_h2d_ : root_d2h_; }
  /// The direction `from` -> `to` of the HCCS link joining them, or nullptr (no link, or the
  /// topology's links are PCIe: peer copies then go through the host).
  LinkDirection* hccs(std::uint32_t from, std::uint32_t to);
  sim::SimTime hccs_latency() const { return hccs_latency_; }
  sim::SimTime pcie_latency() const { return pcie_latency_; }
  std::uint32_t devices() const { return devices_; }

  /// Each chip's units attach what other chips' transfers must reach (while being built).
  void attach_memory(std::uint32_t device, Hbm& hbm);
  void attach_pcie(std::uint32_t device, sim::BandwidthResource& h2d, sim::BandwidthResource& d2h);
  /// Device `device`'s memory / PCIe link (to_device: its H2D direction); nullptr if not attached.
  Hbm* memory(std::uint32_t device) const;
  sim::BandwidthResource* pcie(std::uint32_t device, bool to_device) const;

  /// The bandwidth counter of `link` changes (a transfer starts or ends at `at`).
  void update_counter(const LinkDirection& link, sim::SimTime at) const;

 private:
  std::uint32_t devices_;
  sim::BandwidthResource root_h2d_;
  sim::BandwidthResource root_d2h_;
  sim::SimTime hccs_latency_;
  sim::SimTime pcie_latency_;
  sim::TrackGroup tracks_;
  std::vector<std::unique_ptr<LinkDirection>> links_;
  std::vector<int> index_;  // devices x devices: index into links_ (from * devices + to) or -1
  std::vector<Hbm*> memory_;
  std::vector<sim::BandwidthResource*> pcie_h2d_;
  std::vector<sim::BandwidthResource*> pcie_d2h_;
};

}  // namespace npusim::models
