// SPDX-License-Identifier: Apache-2.0
#include "models/interconnect.h"

#include "sim/engine.h"

namespace npusim::models {

Interconnect::Interconnect(const ChipConfig& cfg, const Topology& topology, sim::StatGroup& stats,
                           sim::TraceWriter& trace)
    : devices_(topology.devices()),
      root_h2d_(cfg.pcie.root_complex_bandwidth),
      root_d2h_(cfg.pcie.root_complex_bandwidth),
      hccs_latency_(cfg.topology.hccs_latency.ps),
      pcie_latency_(cfg.pcie.latency.ps),
      index_(static_cast<std::size_t>(devices_) * devices_, -1),
      memory_(devices_, nullptr),
      pcie_h2d_(devices_, nullptr),
      pcie_d2h_(devices_, nullptr) {
  sim::StatGroup& root = stats.child("root_complex");
  sim::StatGroup& h2d = root.child("h2d");
  h2d.add("bytes", root_h2d_.bytes(), "B", "bytes the host sent to every device");
  sim::add_resource_stats(h2d, root_h2d_, "the root complex (to the devices)", &sim::sim_now);
  sim::StatGroup& d2h = root.child("d2h");
  d2h.add("bytes", root_d2h_.bytes(), "B", "bytes every device sent to the host");
  sim::add_resource_stats(d2h, root_d2h_, "the root complex (from the devices)", &sim::sim_now);
  bool any = false;
  for (const Link& link : topology.links()) any = any || link.kind == LinkKind::kHccs;
  if (!any) return;
  tracks_ = sim::TrackGroup(trace, "HCCS", "NPU", 20);
  sim::StatGroup& hccs = stats.child("hccs");
  for (const Link& link : topology.links()) {
    if (link.kind != LinkKind::kHccs) continue;
    const sim::Bandwidth bw{cfg.topology.hccs_bandwidth.bytes_per_sec * link.count};
    for (int dir = 0; dir < 2; ++dir) {
      const std::uint32_t from = dir == 0 ? link.ends.a : link.ends.b;
      const std::uint32_t to = dir == 0 ? link.ends.b : link.ends.a;
      const std::string label = std::to_string(from) + "->" + std::to_string(to);
      auto l = std::make_unique<LinkDirection>(from, to, "HCCS " + label, bw);
      l->track = tracks_.reserve();  // shown once used: a full mesh of 8 has 56 directions
      sim::StatGroup& g = hccs.child(std::to_string(from) + "_to_" + std::to_string(to));
      g.add("bytes", l->bandwidth.bytes(), "B", ("bytes moved from device " + label).c_str());
      g.add("bursts", l->bandwidth.transfers(), "", "bursts over the link");
      sim::add_resource_stats(g, l->bandwidth, "the link direction", &sim::sim_now);
      index_[from * devices_ + to] = static_cast<int>(links_.size());
      links_.push_back(std::move(l));
    }
  }
}

LinkDirection* Interconnect::hccs(std::uint32_t from, std::uint32_t to) {
  if (from >= devices_ || to >= devices_) return nullptr;
  const int i = index_[from * devices_ + to];
  return i < 0 ? nullptr : links_[static_cast<std::size_t>(i)].get();
}

void Interconnect::attach_memory(std::uint32_t device, Hbm& hbm) {
  if (device < devices_) memory_[device] = &hbm;
}

void Interconnect::attach_pcie(std::uint32_t device, sim::BandwidthResource& h2d,
                               sim::BandwidthResource& d2h) {
  if (device >= devices_) return;
  pcie_h2d_[device] = &h2d;
  pcie_d2h_[device] = &d2h;
}

Hbm* Interconnect::memory(std::uint32_t device) const {
  return device < devices_ ? memory_[device] : nullptr;
}

sim::BandwidthResource* Interconnect::pcie(std::uint32_t device, bool to_device) const {
  if (device >= devices_) return nullptr;
  return to_device ? pcie_h2d_[device] : pcie_d2h_[device];
}

void Interconnect::update_counter(const LinkDirection& link, sim::SimTime at) const {
  const double gbps = link.active > 0 ? link.bandwidth.bandwidth().bytes_per_sec / 1e9 : 0.0;
  tracks_.counter(link.name + " (GB/s)", at, gbps);
}

}  // namespace npusim::models
