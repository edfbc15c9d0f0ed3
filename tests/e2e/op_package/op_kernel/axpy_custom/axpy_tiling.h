// SPDX-License-Identifier: Apache-2.0
// AxpyCustom's tiling: elements per block and the attribute.
#pragma once
#include <cstdint>

struct AxpyTiling {
  uint32_t perBlock;
  uint32_t total;
  float alpha;
};
