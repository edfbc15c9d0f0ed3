// SPDX-License-Identifier: Apache-2.0
// scheduler.preemption=dynamic: PREMA's choice of mechanism per victim block. Drain when the
// block's predicted remaining time (its predicted time minus the time since its first issue
// slot) is at most what a checkpoint costs (block_launch + saving and restoring its context at
// the sustained HBM bandwidth), else checkpoint.
#include "models/aicore/policy/preemption.h"

namespace npusim::models {
namespace {

class DynamicPreemption final : public PreemptionMechanism {
 public:
  explicit DynamicPreemption(const PreemptionCosts& costs) : costs_(costs) {}
  PreemptAction choose(const VictimBlock& v) const override {
    const SimTime elapsed = v.now > v.started ? v.now - v.started : 0;
    const SimTime remaining = v.predicted > elapsed ? v.predicted - elapsed : 0;
    const auto move = static_cast<SimTime>(static_cast<double>(v.context_bytes) /
                                           costs_.hbm_bandwidth * 1e12);
    return remaining <= costs_.block_launch + 2 * move ? PreemptAction::kDrain
                                                       : PreemptAction::kCheckpoint;
  }

 private:
  PreemptionCosts costs_;
};

}  // namespace

std::unique_ptr<PreemptionMechanism> make_dynamic_preemption(const PreemptionCosts& costs) {
  return std::make_unique<DynamicPreemption>(costs);
}

}  // namespace npusim::models
