// SPDX-License-Identifier: Apache-2.0
// AI CPU kernels for the runtime tests (runtime_test_aicpu.so, built like aicpu_kernel_library
// builds them: -fsanitize-coverage=trace-pc, the documented signature uint32_t K(void* args)).
#include <cstdint>
#include <stdexcept>

#include "tests/runtime/core/aicpu_kernels.h"

extern "C" {

__attribute__((visibility("default"))) std::uint32_t SumInt64(void* args) {
  auto* a = static_cast<SumArgs*>(args);
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < a->n; ++i) sum += a->in[i];
  *a->out = sum;
  return 0;
}

// Counts 0..n-1 with a data-dependent branch: work linear in n.
__attribute__((visibility("default"))) std::uint32_t CountOdd(void* args) {
  auto* a = static_cast<CountArgs*>(args);
  std::uint64_t odd = 0;
  for (std::uint64_t i = 0; i < a->n; ++i) {
    if ((i * 2654435761u) & 1u) ++odd;
  }
  *a->out = odd;
  return 0;
}

// The parameter is a pointer to host-prepared data (a placeholder): sums its n values.
__attribute__((visibility("default"))) std::uint32_t SumPlaceholder(void* args) {
  auto* a = static_cast<PlaceholderArgs*>(args);
  std::int64_t sum = 0;
  for (std::uint64_t i = 0; i < a->n; ++i) sum += a->data[i];
  *a->out = sum;
  return 0;
}

__attribute__((visibility("default"))) std::uint32_t ReturnsSeven(void*) { return 7; }

__attribute__((visibility("default"))) std::uint32_t Throws(void*) {
  throw std::runtime_error("bad input");
}

__attribute__((visibility("default"))) std::uint32_t Spins(void* args) {
  volatile std::uint64_t* flag = static_cast<std::uint64_t*>(args);
  while (*flag == 0) {
  }
  return 0;
}

}  // extern "C"
