// SPDX-License-Identifier: Apache-2.0
// The argument block of ScaleAicpu (scale.aicpu), shared with the launching source.
#pragma once
#include <cstdint>

struct ScaleArgs {
  float* data;  // device memory, n floats, scaled in place
  std::uint64_t n;
  float factor;
};
