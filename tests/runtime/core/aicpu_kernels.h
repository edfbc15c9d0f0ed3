// SPDX-License-Identifier: Apache-2.0
// Argument blocks of the runtime tests' AI CPU kernels (tests/runtime/core/aicpu_kernels.cpp).
#pragma once
#include <cstdint>

struct SumArgs {
  const std::int64_t* in;
  std::int64_t* out;
  std::uint64_t n;
};

struct CountArgs {
  std::uint64_t n;
  std::uint64_t* out;
};

struct PlaceholderArgs {
  const std::int64_t* data;  // a placeholder: the runtime patches in the device address
  std::int64_t* out;
  std::uint64_t n;
};
