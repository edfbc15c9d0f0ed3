// SPDX-License-Identifier: Apache-2.0
// scheduler.preemption=none: running blocks finish (CANN's documented behaviour); a waiting
// higher-priority kernel gets the next free cores.
#include "models/aicore/policy/preemption.h"

namespace npusim::models {
namespace {

class NoPreemption final : public PreemptionMechanism {
 public:
  bool preempts() const override { return false; }
  PreemptAction choose(const VictimBlock&) const override { return PreemptAction::kDrain; }
};

}  // namespace

std::unique_ptr<PreemptionMechanism> make_no_preemption(const PreemptionCosts&) {
  return std::make_unique<NoPreemption>();
}

}  // namespace npusim::models
