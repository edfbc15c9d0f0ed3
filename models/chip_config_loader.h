// SPDX-License-Identifier: Apache-2.0
// Where a ChipConfig comes from: a built-in preset or a YAML file (optionally starting with
// `base: <preset or path>`, chains allowed), then "a.b=value" overrides, then range checks.
// Every problem is a sim::ConfigError naming the origin, the key and the reason. Plain C++.
#pragma once

#include <string>
#include <vector>

#include "models/chip_config.h"
#include "sim/config.h"

namespace npusim::models {

/// The preset used when nothing is configured.
inline constexpr const char* kDefaultPreset = "ascend910b";

/// Loads `source` ("" = kDefaultPreset; a preset name from presets.h; or a YAML file path), then
/// applies `overrides` ("a.b=value", errors prefixed by `overrides_origin`), then validates.
/// Throws sim::ConfigError.
ChipConfig load_chip_config(const std::string& source, const std::vector<std::string>& overrides,
                            const std::string& overrides_origin = "override");

/// Range checks (positive bandwidths and frequencies, soc.num_devices 1..16, sdma.channels >= 1,
/// scheduler.policy priority|fifo, ...). Throws sim::ConfigError "<origin>: <key>: <reason>".
void validate_chip_config(const ChipConfig& config, const std::string& origin);

/// Splits NPUSIM_SET text on ';' and newlines, trims each item, drops empty ones.
std::vector<std::string> split_overrides(const std::string& text);

/// load_chip_config(NPUSIM_CONFIG, split_overrides(NPUSIM_SET)), overrides origin "NPUSIM_SET".
ChipConfig config_from_env();

/// A one-line description of what config_from_env() loads, for the effective-config dump:
/// e.g. "preset ascend910b", "file my.yaml + NPUSIM_SET: pcie.h2d_bandwidth=16GB/s".
std::string config_origin_from_env();
/// The same for explicit arguments.
std::string describe_config_source(const std::string& source,
                                   const std::vector<std::string>& overrides);

/// The effective configuration as re-loadable YAML, headed by a comment naming `origin`.
std::string effective_config_yaml(const ChipConfig& config, const std::string& origin);

/// "ascend910b, ascend310p, tiny".
std::string preset_names();

}  // namespace npusim::models
