// SPDX-License-Identifier: Apache-2.0
// One device: the only place with topology. Composes the task scheduler, the PCIe host link
// (H2D and D2H DMA), device memory (HBM), the SDMA engine, the L2 cache and the AI Cores; binds
// the DMA initiators and L2 to HBM and the AI Cores to L2, and plugs the engines into the
// scheduler. No timing of its own.
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>

#include "models/aicore/aicore_engine.h"
#include "models/chip_config.h"
#include "models/dma_engine.h"
#include "models/hbm.h"
#include "models/host_link.h"
#include "models/l2_cache.h"
#include "models/task_scheduler.h"
#include "sim/stats.h"
#include "sim/trace.h"

namespace npusim::models {

class Chip : public sc_core::sc_module {
 public:
  /// `stats` is this chip's group ("chip0"); timeline tracks are declared on `trace` if enabled.
  Chip(const sc_core::sc_module_name& name, std::uint32_t device, const ChipConfig& cfg,
       sim::StatGroup& stats, sim::TraceWriter& trace);

  TaskScheduler& scheduler() { return scheduler_; }
  AiCoreEngine& aicore() { return aicore_; }
  std::uint32_t device() const { return device_; }

 private:
  static DeviceTracks declare_tracks(std::uint32_t device, sim::TraceWriter& trace);

  std::uint32_t device_;
  DeviceTracks tracks_;
  Hbm hbm_;
  HostLink host_link_;
  DmaEngine sdma_;
  L2Cache l2_;
  AiCoreEngine aicore_;
  TaskScheduler scheduler_;
};

}  // namespace npusim::models
