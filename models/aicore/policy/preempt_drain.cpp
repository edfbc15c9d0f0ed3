// SPDX-License-Identifier: Apache-2.0
// scheduler.preemption=drain: the victim block runs to its end (the same timing as none: its
// kernel's further blocks already wait behind the preempting one); the preemption is recorded.
#include "models/aicore/policy/preemption.h"

namespace npusim::models {

std::unique_ptr<PreemptionMechanism> make_drain_preemption(const PreemptionCosts&) {
  return std::make_unique<FixedPreemption<PreemptAction::kDrain>>();
}

}  // namespace npusim::models
