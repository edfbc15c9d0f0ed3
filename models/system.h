// SPDX-License-Identifier: Apache-2.0
// The simulated machine: soc.num_devices chips (each with its own PCIe link to the host) and the
// links between them (`topology`, models/topology.h), which with the host's root complex make its
// Interconnect (models/interconnect.h, statistics under "system"). The runtime asks it for device
// N; it never wires hardware itself. No timing of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/aicore/op_summary.h"
#include "models/chip.h"
#include "models/chip_config.h"
#include "models/interconnect.h"
#include "models/topology.h"
#include "sim/stats.h"
#include "sim/trace.h"

namespace npusim::models {

class System {
 public:
  /// Builds every chip ("chip<N>" in `stats` and in the SystemC hierarchy). Contract: before
  /// elaboration (sim/engine.h).
  System(const ChipConfig& cfg, sim::StatGroup& stats, sim::TraceWriter& trace);

  std::uint32_t device_count() const { return static_cast<std::uint32_t>(chips_.size()); }
  /// Device `d`; throws std::out_of_range naming the device count.
  Chip& device(std::uint32_t d);
  const Topology& topology() const { return topology_; }
  Interconnect& interconnect() { return fabric_; }

  /// Called after every task completion on any device (after the task's done()).
  void set_completion_hook(std::function<void()> hook);
  /// Re-tests every blocked wait on every device (waits may depend on other devices).
  void reevaluate_waits();
  /// Keep the records op_summary.csv needs (AiCoreEngine::keep_records) on every device.
  void keep_kernel_records(bool on);
  /// With the records, per-block profiles (KernelRecord::blocks; AiCoreEngine) on every device.
  void keep_block_profiles(bool on);
  /// Every kernel finished so far on every device, device by device in completion order.
  std::vector<KernelRecord> kernel_records() const;

 private:
  Topology topology_;
  Interconnect fabric_;
  std::vector<std::unique_ptr<Chip>> chips_;
};

}  // namespace npusim::models
