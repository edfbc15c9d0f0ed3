// SPDX-License-Identifier: Apache-2.0
// DSA: the unit's configuration group (dsa.*), declared beside the unit (models/dsa_engine.h) and
// registered in models/unit_configs.cpp (models/unit_config.h). Plain C++: the runtime may read it.
#pragma once

#include <cstdint>

#include "models/config_types.h"

namespace npusim::models {

/// DSA: the scheduler's random-number accelerator (aclrtRandomNumAsync; models/dsa_engine.h).
struct DsaConfig {
  static constexpr const char* kGroup = "dsa";
  static constexpr const char* kDescription = "random-number accelerator (DSA)";

  Duration setup{1 * sim::kUs};
  Frequency clock{1e9};
  double numbers_per_cycle = 4;
  Bytes burst{64 * 1024};

  template <class V>
  void visit(V& v) {
    v.field("setup", setup, "per-task setup of the DSA (read the task's parameters and counter)");
    v.field("clock", clock, "DSA clock");
    v.field("numbers_per_cycle", numbers_per_cycle,
            "random numbers (or dropout mask bits) the DSA generates per cycle",
            sim::above(0));
    v.field("burst", burst, "size of the DSA's writes of its results to device memory");
  }
};

}  // namespace npusim::models
