// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstddef>
#include <cstdint>

#include "acl/acl.h"

constexpr uint32_t kTileElems = 1024;

// fill.cpp (an ASC-language .cpp): out[i] = start + i on `blocks` cores.
aclError LaunchIota(uint32_t blocks, aclrtStream stream, void* out, int32_t start, uint32_t tiles);
// checksum.aicpu (an AI CPU kernel): *sum = data[0] + ... + data[n-1].
struct ChecksumArgs {
  const int32_t* data;
  uint64_t n;
  int64_t* sum;
};

// report.cpp (plain C++): one result line.
void Report(const char* what, size_t elements, size_t wrong, float us);
