// SPDX-License-Identifier: Apache-2.0
// AI Core preemption mechanism (scheduler.preemption): what a running block of a lower-priority
// kernel does when a waiting higher-priority one needs its cores. One implementation per file
// (preempt_<name>.cpp), chosen by name (policy/registry.cpp). The engine picks the victims
// (aicore_engine.h states the whole timing model); the mechanism decides what each one does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "sim/quantity.h"

namespace npusim::models {

using sim::SimTime;

enum class PreemptAction : std::uint8_t {
  kDrain,       // the block runs to its end; its kernel's further blocks wait
  kCheckpoint,  // the block stops, saves its context to HBM and resumes later
  kKill,        // the block's cores are free at once; it re-runs from the start later
};

/// A block about to be preempted.
struct VictimBlock {
  SimTime now = 0;                   // the preemption
  SimTime started = 0;               // its first issue slot
  SimTime predicted = 0;             // its kernel's predicted block time (0: not known)
  std::uint64_t context_bytes = 0;   // what a checkpoint saves and restores
};

/// What mechanisms may weigh: the engine's costs.
struct PreemptionCosts {
  SimTime block_launch = 0;  // a re-dispatched block pays it again
  double hbm_bandwidth = 1;  // B/s, sustained
};

class PreemptionMechanism {
 public:
  virtual ~PreemptionMechanism() = default;
  /// False: running blocks are never asked to give their cores up.
  virtual bool preempts() const { return true; }
  virtual PreemptAction choose(const VictimBlock& victim) const = 0;
};

/// A mechanism that always takes one action (drain, checkpoint and kill are this).
template <PreemptAction kAction>
class FixedPreemption final : public PreemptionMechanism {
 public:
  PreemptAction choose(const VictimBlock&) const override { return kAction; }
};

/// The mechanism called `name`. Throws sim::ConfigError "scheduler.preemption: ..." listing the
/// valid names when there is none.
std::unique_ptr<PreemptionMechanism> make_preemption(const std::string& name,
                                                     const PreemptionCosts& costs);
/// "none|drain|checkpoint|kill|dynamic": every registered name.
std::string preemption_names();

// The implementations (one file each).
std::unique_ptr<PreemptionMechanism> make_no_preemption(const PreemptionCosts& costs);
std::unique_ptr<PreemptionMechanism> make_drain_preemption(const PreemptionCosts& costs);
std::unique_ptr<PreemptionMechanism> make_checkpoint_preemption(const PreemptionCosts& costs);
std::unique_ptr<PreemptionMechanism> make_kill_preemption(const PreemptionCosts& costs);
std::unique_ptr<PreemptionMechanism> make_dynamic_preemption(const PreemptionCosts& costs);

}  // namespace npusim::models
