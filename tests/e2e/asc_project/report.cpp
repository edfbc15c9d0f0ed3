// SPDX-License-Identifier: Apache-2.0
// Plain host C++ in an ASC project: compiled by the C++ compiler, linked by npusim-asc.
#include <cstdio>

#include "vadd.h"

void Report(const char* what, size_t elements, size_t wrong, float us) {
  std::printf("%s: %zu elements, %zu wrong, %s\n", what, elements, wrong,
              us > 0 ? "simulated time > 0" : "no simulated time");
}
