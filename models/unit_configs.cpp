// SPDX-License-Identifier: Apache-2.0
// The one place built-in units' configuration groups are registered (models/unit_config.h), in
// the order the effective-config dump and `npusim info --reference` list them.
#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "models/added_specs.h"
#include "models/aicpu_config.h"
#include "models/dsa_config.h"
#include "models/dvpp_config.h"
#include "models/sdma_config.h"
#include "models/unit_config.h"

namespace npusim::models {
namespace {

/// The built-in groups (a function: configurations made during static initialisation see them).
const std::vector<UnitConfigSpec>& builtin_groups() {
  static const std::vector<UnitConfigSpec> groups = {
      unit_config<SdmaConfig>(),
      unit_config<DsaConfig>(),
      unit_config<AiCpuConfig>(),
      unit_config<DvppConfig>(),
  };
  return groups;
}

/// ChipConfig's own groups (chip_config.h): a unit may not take their names.
const char* const kCoreGroups[] = {"soc", "host", "pcie", "hbm", "l2",
                                   "scheduler", "aicore", "hccl", "topology"};

}  // namespace

std::vector<UnitConfigSpec> unit_config_specs() {
  return AddedSpecs<UnitConfigSpec>::instance().after(builtin_groups());
}

void add_unit_config(UnitConfigSpec spec) {
  const std::string name = spec.group;
  const auto taken = [&name](const char* g) { return name == g; };
  bool clash = std::any_of(std::begin(kCoreGroups), std::end(kCoreGroups), taken);
  for (const UnitConfigSpec& s : unit_config_specs()) clash = clash || taken(s.group);
  if (clash) throw std::logic_error("configuration group \"" + name + "\" registered twice");
  AddedSpecs<UnitConfigSpec>::instance().add(spec);
}

UnitConfigs::UnitConfigs() { refresh(); }
UnitConfigs::~UnitConfigs() = default;

UnitConfigs::UnitConfigs(const UnitConfigs& other) { *this = other; }

UnitConfigs& UnitConfigs::operator=(const UnitConfigs& other) {
  if (this == &other) return *this;
  std::vector<Entry> copy;
  copy.reserve(other.entries_.size());
  for (const Entry& e : other.entries_) {
    copy.push_back({e.group, e.description, e.value->clone()});
  }
  entries_ = std::move(copy);
  return *this;
}

UnitConfigValue* UnitConfigs::find(const std::string& group) const {
  for (const Entry& e : entries_) {
    if (e.group == group) return e.value.get();
  }
  return nullptr;
}

UnitConfigValue& UnitConfigs::add(const UnitConfigSpec& spec) {
  entries_.push_back({spec.group, spec.description, spec.make()});
  return *entries_.back().value;
}

void UnitConfigs::refresh() {
  for (const UnitConfigSpec& spec : unit_config_specs()) {
    if (find(spec.group) == nullptr) add(spec);
  }
}

void UnitConfigs::visit(sim::FieldVisitor& v) {
  refresh();
  for (Entry& e : entries_) v.group(e.group.c_str(), *e.value, e.description);
}

void UnitConfigs::check(const std::string& origin) const {
  for (const Entry& e : entries_) e.value->check(origin);
}

void UnitConfigs::wrong_type(const char* group, const char* type) {
  throw std::logic_error(std::string("configuration group \"") + group +
                         "\" does not hold a " + type);
}

}  // namespace npusim::models
