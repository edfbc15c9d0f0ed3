// SPDX-License-Identifier: Apache-2.0
// The chip presets built into the library (configs/*.yaml, embedded at build time).
#pragma once

#include <string>
#include <vector>

namespace npusim::models {

struct Preset {
  const char* name;  // "ascend910b" (the default), "ascend310p", "tiny"
  const char* yaml;  // the file's text
};

const std::vector<Preset>& presets();

}  // namespace npusim::models
