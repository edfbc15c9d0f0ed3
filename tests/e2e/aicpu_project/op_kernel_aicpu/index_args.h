// SPDX-License-Identifier: Apache-2.0
// The argument block of the e2e AI CPU kernels (shared by the kernels and the host program).
#pragma once
#include <cstdint>

struct NonZeroArgs {
  const float* input;     // device memory, n floats
  std::int64_t* indices;  // device memory, room for n int64 indices
  std::int64_t* count;    // device memory, one int64
  std::uint64_t n;
};
