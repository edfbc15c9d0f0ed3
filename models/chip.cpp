// SPDX-License-Identifier: Apache-2.0
#include "models/chip.h"

#include <string>

namespace npusim::models {

DeviceTracks Chip::declare_tracks(std::uint32_t device, sim::TraceWriter& trace) {
  DeviceTracks tracks;
  tracks.writer = &trace;
  if (!trace.enabled()) return tracks;
  const std::string label = "NPU " + std::to_string(device);
  tracks.device_pid = trace.process("Ascend Hardware", label, 14);
  tracks.units_pid = trace.process(label + " Units", label, 15);
  return tracks;
}

Chip::Chip(const sc_core::sc_module_name& name, std::uint32_t device, const ChipConfig& cfg,
           sim::StatGroup& stats, sim::TraceWriter& trace)
    : sc_module(name),
      device_(device),
      tracks_(declare_tracks(device, trace)),
      hbm_("hbm", cfg.hbm, stats.child("hbm")),
      host_link_("pcie", cfg, trace, tracks_.units_pid, stats.child("pcie")),
      sdma_("sdma", cfg.sdma, trace, tracks_.units_pid, stats.child("sdma")),
      l2_("l2", cfg.l2, stats.child("l2")),
      aicore_("aicore", device, cfg, tracks_, stats.child("aicore")),
      scheduler_("scheduler", cfg, tracks_, stats.child("scheduler")) {
  host_link_.bind_memory(hbm_);
  sdma_.bind_memory(hbm_);
  l2_.bind_memory(hbm_);
  aicore_.bind_memory(l2_);
  scheduler_.set_engine(EngineKind::kPcieH2D, &host_link_.h2d);
  scheduler_.set_engine(EngineKind::kPcieD2H, &host_link_.d2h);
  scheduler_.set_engine(EngineKind::kSdma, &sdma_);
  scheduler_.set_engine(EngineKind::kAiCore, &aicore_);
}

}  // namespace npusim::models
