// SPDX-License-Identifier: Apache-2.0
// The AI Core policies by name: the one place a dispatch order or preemption mechanism is listed
// (scheduler.policy and scheduler.preemption name them).
#include <iterator>

#include "models/aicore/policy/dispatch_policy.h"
#include "models/aicore/policy/preemption.h"
#include "sim/config.h"

namespace npusim::models {
namespace {

struct DispatchEntry {
  const char* name;
  std::unique_ptr<DispatchPolicy> (*make)();
};
const DispatchEntry kDispatch[] = {
    {"priority", make_priority_dispatch},
    {"fifo", make_fifo_dispatch},
    {"prema", make_prema_dispatch},
};

struct PreemptionEntry {
  const char* name;
  std::unique_ptr<PreemptionMechanism> (*make)(const PreemptionCosts&);
};
const PreemptionEntry kPreemption[] = {
    {"none", make_no_preemption},
    {"drain", make_drain_preemption},
    {"checkpoint", make_checkpoint_preemption},
    {"kill", make_kill_preemption},
    {"dynamic", make_dynamic_preemption},
};

template <class Table>
std::string names_of(const Table& table, const char* separator) {
  std::string out;
  for (const auto& e : table) out += (out.empty() ? "" : separator) + std::string(e.name);
  return out;
}

template <class Table>
const auto* find(const Table& table, const std::string& name) {
  for (const auto& e : table) {
    if (name == e.name) return &e;
  }
  return static_cast<decltype(&*std::begin(table))>(nullptr);
}

}  // namespace

std::unique_ptr<DispatchPolicy> make_dispatch_policy(const std::string& name) {
  if (const auto* e = find(kDispatch, name)) return e->make();
  throw sim::ConfigError("scheduler.policy: unknown dispatch policy \"" + name +
                         "\" (valid: " + names_of(kDispatch, ", ") + ")");
}

std::string dispatch_policy_names() { return names_of(kDispatch, "|"); }

std::unique_ptr<PreemptionMechanism> make_preemption(const std::string& name,
                                                     const PreemptionCosts& costs) {
  if (const auto* e = find(kPreemption, name)) return e->make(costs);
  throw sim::ConfigError("scheduler.preemption: unknown preemption mechanism \"" + name +
                         "\" (valid: " + names_of(kPreemption, ", ") + ")");
}

std::string preemption_names() { return names_of(kPreemption, "|"); }

}  // namespace npusim::models
