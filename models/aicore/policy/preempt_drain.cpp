// SPDX-License-Identifier: Apache-2.0
// scheduler.preemption=drain: the victim block runs to its end (the same timing as none: its
// kernel's further blocks already wait behind the preempting one); the preemption is recorded.
#include "models/aicore/policy/preemption.h"

namespace npusim::models {
namespace {

class DrainPreemption final : public PreemptionMechanism {
 public:
  PreemptAction choose(const VictimBlock&) const override { return PreemptAction::kDrain; }
};

}  // namespace

std::unique_ptr<PreemptionMechanism> make_drain_preemption(const PreemptionCosts&) {
  return std::make_unique<DrainPreemption>();
}

}  // namespace npusim::models
