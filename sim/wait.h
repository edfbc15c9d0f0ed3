// SPDX-License-Identifier: Apache-2.0
// How a wait for simulated progress ended (sim::Engine::run_until, rt::Backend::run_until).
// Plain C++.
#pragma once

#include <limits>

#include "sim/quantity.h"

namespace npusim::sim {

/// "No deadline" for run_until().
constexpr SimTime kForever = std::numeric_limits<SimTime>::max();

/// kDone: the predicate holds; kTimeout: simulated time reached the deadline; kStarved: nothing is
/// left to simulate and the predicate is false (time does not move).
enum class WaitResult { kDone, kTimeout, kStarved };

}  // namespace npusim::sim
