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

/// The YAML document `text` of `file` (a targets or sweep file: `kind`); Error (naming the file,
/// the line and yaml-cpp's reason) when it is not YAML or is empty.
template <class Error>
YAML::Node load_yaml_file(const std::string& text, const std::string& file, const char* kind) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw Error(file + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  if (!root || root.IsNull()) throw Error(file + ": empty " + kind + " file");
  return root;
}

}  // namespace npusim::check

#endif  // NPUSIM_TOOLS_CHECK_METRIC_YAML_H_
