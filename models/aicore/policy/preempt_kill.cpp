// SPDX-License-Identifier: Apache-2.0
// scheduler.preemption=kill: the victim block's cores are free at once; the block is dispatched
// again later and replays its whole trace.
#include "models/aicore/policy/preemption.h"

namespace npusim::models {

std::unique_ptr<PreemptionMechanism> make_kill_preemption(const PreemptionCosts&) {
  return std::make_unique<FixedPreemption<PreemptAction::kKill>>();
}

}  // namespace npusim::models
