// SPDX-License-Identifier: Apache-2.0
// scheduler.preemption=checkpoint: the victim block stops at once (its started instructions
// drain), saves its context to HBM, frees its cores, and later restores it and resumes.
#include "models/aicore/policy/preemption.h"

namespace npusim::models {

std::unique_ptr<PreemptionMechanism> make_checkpoint_preemption(const PreemptionCosts&) {
  return std::make_unique<FixedPreemption<PreemptAction::kCheckpoint>>();
}

}  // namespace npusim::models
