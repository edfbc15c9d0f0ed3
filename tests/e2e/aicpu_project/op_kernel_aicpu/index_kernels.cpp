// SPDX-License-Identifier: Apache-2.0
// AI CPU kernels with the documented signature `uint32_t Kernel(void* args)`.
#include <cstdint>

#include "index_args.h"

extern "C" std::uint32_t RunNonZeroIndex(void* args) {
  auto* a = static_cast<NonZeroArgs*>(args);
  if (a->input == nullptr || a->indices == nullptr || a->count == nullptr) return 1;
  std::int64_t found = 0;
  for (std::uint64_t i = 0; i < a->n; ++i) {
    if (a->input[i] != 0.0f) a->indices[found++] = static_cast<std::int64_t>(i);
  }
  *a->count = found;
  return 0;
}

extern "C" std::uint32_t RunFailing(void* args) {
  return args == nullptr ? 2 : 3;  // always fails: the task ends with an AI CPU exception
}
