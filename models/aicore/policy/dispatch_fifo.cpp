// SPDX-License-Identifier: Apache-2.0
// scheduler.policy=fifo: every kernel has the same priority, so the engine's list is arrival
// order (and nothing is ever preempted: no kernel is above another).
#include "models/aicore/policy/dispatch_policy.h"

namespace npusim::models {
namespace {

class FifoDispatch final : public DispatchPolicy {
 public:
  std::uint32_t priority(std::uint32_t) const override { return 0; }
};

}  // namespace

std::unique_ptr<DispatchPolicy> make_fifo_dispatch() { return std::make_unique<FifoDispatch>(); }

}  // namespace npusim::models
