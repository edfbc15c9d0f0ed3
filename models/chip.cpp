// SPDX-License-Identifier: Apache-2.0
#include "models/chip.h"

#include <string>

namespace npusim::models {
namespace {

std::string npu_label(std::uint32_t device) { return "NPU " + std::to_string(device); }

}  // namespace

Chip::Chip(const sc_core::sc_module_name& name, std::uint32_t device, const ChipConfig& cfg,
           sim::StatGroup& stats, sim::TraceWriter& trace, Interconnect* fabric)
    : sc_module(name),
      device_(device),
      stream_tracks_(trace, "Ascend Hardware", npu_label(device), 14),
      unit_tracks_(trace, npu_label(device) + " Units", npu_label(device), 15),
      hbm_("hbm", cfg.hbm, stats.child("hbm")),
      l2_("l2", cfg.l2, stats.child("l2")),
      scheduler_("scheduler", cfg, stream_tracks_, stats.child("scheduler")) {
  l2_.bind_memory(hbm_);
  for (const UnitSpec& spec : unit_specs()) {
    UnitContext ctx{device, cfg, stats.child(spec.name), unit_tracks_, hbm_, l2_, scheduler_,
                    fabric};
    units_.push_back(spec.make(spec.name, ctx));
  }
}

}  // namespace npusim::models
