// SPDX-License-Identifier: Apache-2.0
// One metric spec (the `metric:` of a targets file, docs/check.md) parsed from a YAML node, for
// other files that name metrics (the sweep file, tools/sweep). Kept apart from check.h so that
// only the files that parse YAML include yaml-cpp.
#ifndef NPUSIM_TOOLS_CHECK_METRIC_YAML_H_
#define NPUSIM_TOOLS_CHECK_METRIC_YAML_H_

#include <yaml-cpp/yaml.h>

#include <string>

#include "tools/check/check.h"

namespace npusim::check {

/// Parses `{stats: path}`, `{replay: field}`, `{op_summary: {...}}` or `{timeline: {...}}`, each
/// with an optional `unit: U` (tools/check/units.h) the value is converted to.
/// Throws TargetsError naming `file`, the node's line and `context`.
Metric parse_metric(const YAML::Node& node, const std::string& file, const std::string& context);

}  // namespace npusim::check

#endif  // NPUSIM_TOOLS_CHECK_METRIC_YAML_H_
