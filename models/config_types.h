// SPDX-License-Identifier: Apache-2.0
// What every configuration group of models/ (chip_config.h, the units' *_config.h) declares its
// parameters with: the config walker (sim/config.h) and the quantity types, used unqualified.
#pragma once

#include <cstdint>

#include "sim/config.h"
#include "sim/quantity.h"

namespace npusim::models {

using sim::Bandwidth;
using sim::Bytes;
using sim::Duration;
using sim::Frequency;

}  // namespace npusim::models
