// SPDX-License-Identifier: Apache-2.0
// One device: its memory (HBM, and the L2 in front of it), its task scheduler, and the units the
// registry lists (models/units.cpp: PCIe host link, SDMA, host CPU, scheduler-internal tasks,
// AI Cores...). Each unit binds itself to the memory and claims its tasks from the scheduler; the
// chip only builds them in order and owns them. No timing of its own.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "models/chip_config.h"
#include "models/hbm.h"
#include "models/l2_cache.h"
#include "models/task_scheduler.h"
#include "models/unit.h"
#include "sim/stats.h"
#include "sim/trace.h"
#include "sim/tracks.h"

namespace npusim::models {

class Chip : public sc_core::sc_module {
 public:
  /// `stats` is this chip's group ("chip0"); its timeline processes are "Ascend Hardware" (a
  /// track per stream) and "NPU <device> Units" (the units' tracks), labelled "NPU <device>".
  /// `fabric`: what the chips of a system share (System passes it; nullptr for a lone chip).
  Chip(const sc_core::sc_module_name& name, std::uint32_t device, const ChipConfig& cfg,
       sim::StatGroup& stats, sim::TraceWriter& trace, Interconnect* fabric = nullptr);

  TaskScheduler& scheduler() { return scheduler_; }
  std::uint32_t device() const { return device_; }

  /// Every unit, in unit_specs() order.
  const std::vector<std::unique_ptr<Unit>>& units() const { return units_; }

  /// The first unit of type T, or nullptr.
  template <class T>
  T* unit() const {
    for (const auto& u : units_) {
      if (auto* t = dynamic_cast<T*>(u.get())) return t;
    }
    return nullptr;
  }

 private:
  std::uint32_t device_;
  sim::TrackGroup stream_tracks_;
  sim::TrackGroup unit_tracks_;
  Hbm hbm_;
  L2Cache l2_;
  TaskScheduler scheduler_;
  std::vector<std::unique_ptr<Unit>> units_;
};

}  // namespace npusim::models
