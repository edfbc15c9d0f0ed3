// SPDX-License-Identifier: Apache-2.0
#include "models/system.h"

#include <stdexcept>
#include <string>

#include "models/aicore/aicore_engine.h"
#include "models/aicpu.h"
#include "models/dvpp.h"

namespace npusim::models {

System::System(const ChipConfig& cfg, sim::StatGroup& stats, sim::TraceWriter& trace)
    : topology_(cfg), fabric_(cfg, topology_, stats.child("system"), trace) {
  for (std::uint32_t d = 0; d < topology_.devices(); ++d) {
    const std::string name = "chip" + std::to_string(d);
    chips_.push_back(std::make_unique<Chip>(name.c_str(), d, cfg, stats.child(name), trace, &fabric_));
  }
}

Chip& System::device(std::uint32_t d) {
  if (d >= chips_.size()) {
    throw std::out_of_range("npusim: device " + std::to_string(d) + " does not exist (" +
                            std::to_string(chips_.size()) + " configured)");
  }
  return *chips_[d];
}

void System::set_completion_hook(std::function<void()> hook) {
  for (auto& chip : chips_) chip->scheduler().set_completion_hook(hook);
}

void System::reevaluate_waits() {
  for (auto& chip : chips_) chip->scheduler().reevaluate_waits();
}

void System::keep_kernel_records(bool on) {
  for (auto& chip : chips_) {
    if (AiCoreEngine* aicore = chip->unit<AiCoreEngine>()) aicore->keep_records(on);
    if (AiCpu* aicpu = chip->unit<AiCpu>()) aicpu->keep_records(on);
    if (Dvpp* dvpp = chip->unit<Dvpp>()) dvpp->keep_records(on);
  }
}

std::vector<KernelRecord> System::kernel_records() const {
  std::vector<KernelRecord> records;
  for (const auto& chip : chips_) {
    if (const AiCoreEngine* aicore = chip->unit<AiCoreEngine>()) {
      records.insert(records.end(), aicore->records().begin(), aicore->records().end());
    }
    if (const AiCpu* aicpu = chip->unit<AiCpu>()) {
      records.insert(records.end(), aicpu->records().begin(), aicpu->records().end());
    }
    if (const Dvpp* dvpp = chip->unit<Dvpp>()) {
      const std::vector<KernelRecord> d = dvpp->records();
      records.insert(records.end(), d.begin(), d.end());
    }
  }
  return records;
}

}  // namespace npusim::models
