// SPDX-License-Identifier: Apache-2.0
// scheduler.policy=priority: kernels by stream priority (0 first), then in arrival order, as
// CANN dispatches pending tasks of higher-priority streams first. The engine's list is already in
// that order; nothing to add.
#include "models/aicore/policy/dispatch_policy.h"

namespace npusim::models {

std::unique_ptr<DispatchPolicy> make_priority_dispatch() {
  return std::make_unique<DispatchPolicy>();
}

}  // namespace npusim::models
