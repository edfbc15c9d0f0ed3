// SPDX-License-Identifier: Apache-2.0
#include "models/system.h"

#include <stdexcept>
#include <string>


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
    for (const auto& unit : chip->units()) unit->keep_records(on);
  }
}

void System::keep_block_profiles(bool on) {
  for (auto& chip : chips_) {
    for (const auto& unit : chip->units()) unit->keep_block_profiles(on);
  }
}

std::vector<KernelRecord> System::kernel_records() const {
  std::vector<KernelRecord> records;
  for (const auto& chip : chips_) {
    for (const auto& unit : chip->units()) unit->append_records(records);
  }
  return records;
}

}  // namespace npusim::models
