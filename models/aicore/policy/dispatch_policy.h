// SPDX-License-Identifier: Apache-2.0
// AI Core dispatch order (scheduler.policy): which kernel's waiting blocks get free cores first.
// One implementation per file (dispatch_<name>.cpp), chosen by name (policy/registry.cpp). The
// engine (aicore_engine.h states the whole timing model) keeps its kernels in priority order,
// then arrival; a policy sets that priority and may reorder the list at every dispatch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/aicore/engine_kernel.h"

namespace npusim::models {

class DispatchPolicy {
 public:
  virtual ~DispatchPolicy() = default;
  /// The priority the engine orders a kernel of a stream of `stream_priority` by (0 = highest).
  virtual std::uint32_t priority(std::uint32_t stream_priority) const { return stream_priority; }
  /// True: block 0 of every kernel runs when it becomes ready, so order() can predict from it.
  virtual bool predicts_at_ready() const { return false; }
  /// A kernel became ready at `now`.
  virtual void on_ready(AicoreKernel& k, SimTime now) { (void)k, (void)now; }
  /// Reorders `kernels` (the engine's list: priority, then arrival) for a dispatch at `now`.
  virtual void order(std::vector<AicoreKernel*>& kernels, SimTime now) { (void)kernels, (void)now; }
  /// True: a running kernel is preempted only for kernels ahead of it in order().
  virtual bool preempts_only_later() const { return false; }
};

/// The policy called `name`. Throws sim::ConfigError "scheduler.policy: ..." listing the valid
/// names when there is none.
std::unique_ptr<DispatchPolicy> make_dispatch_policy(const std::string& name);
/// "priority|fifo|prema": every registered name.
std::string dispatch_policy_names();

// The implementations (one file each).
std::unique_ptr<DispatchPolicy> make_priority_dispatch();
std::unique_ptr<DispatchPolicy> make_fifo_dispatch();
std::unique_ptr<DispatchPolicy> make_prema_dispatch();

}  // namespace npusim::models
