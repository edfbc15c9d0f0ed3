// SPDX-License-Identifier: Apache-2.0
// Chip generations: what an NPU architecture number (CANN's __NPU_ARCH__, `soc.npu_arch`) means.
// The one table of chip-generation facts, read by the models, the runtime, the Ascend C twin
// (compile time, from __NPU_ARCH__) and `npusim info`; nothing else compares npu_arch values.
// Plain constexpr C++17, installed beside the twin's headers (include/ascendc/npusim/).
#pragma once

#include <cstdint>

namespace npusim::arch {

struct Generation {
  std::int64_t npu_arch;     // __NPU_ARCH__
  const char* family;        // SoC family (names start with it): "Ascend910B"
  /// Separate AIC (cube) and AIV (vector) cores; false: coupled AI Cores with every pipe.
  bool split_cores;
  /// L1 is reachable from the vector side of a core (positions A1/B1 map to L1 on coupled
  /// cores of the older generations; split cores keep L1 on the cube side only).
  bool old_core;
  bool bf16;                 // bfloat16 arithmetic
  bool inf_nan_mode;         // ACL_RT_OVERFLOW_MODE_INFNAN (else saturation only)
  bool unified_memory;       // aclrtMemAllocManaged
  bool malloc_pad;           // aclrtMalloc adds 32 bytes beyond the 32-byte-rounded size
  bool aicpu;                // has AI CPU cores
  bool dvpp;                 // has DVPP media units
  bool hccs;                 // chip-to-chip HCCS links
  /// aclrtReduceAsync (SDMA): the element types it takes, and whether MAX/MIN exist besides SUM.
  const char* reduce_types;
  bool reduce_min_max;
  bool random_numbers;       // aclrtRandomNumAsync (the DSA random-number unit)
  bool hardware_sync_addr;   // aclrtGetHardwareSyncAddr (the cube/vector sync area: A2/A3)
};

// Sources: docs/sources.md §1 (architecture numbers and unit lists) and §4 (overflow modes,
// managed memory, aclrtMalloc padding); reduce types and kinds: the aclrtReduceAsync and
// aclrtReduceKind pages of the CANN runtime API reference (per product: training = 910 and
// inference = 310P SUM only); random numbers: the aclrtRandomNumAsync page (A2/A3 only);
// hardware sync address: the aclrtGetHardwareSyncAddr page (A2/A3 only).
inline constexpr Generation kGenerations[] = {
    // arch  family        split  old    bf16   infnan unified pad   aicpu  dvpp   hccs
    //   reduce_types, reduce_min_max, random_numbers, hardware_sync_addr
    {1001, "Ascend910",    false, true,  false, false, false,  true,  true,  true,  true,
     "fp32", false, false, false},
    {2002, "Ascend310P",   false, true,  false, false, true,   true,  true,  true,  false,
     "fp32,fp16,int16", false, false, false},
    {2201, "Ascend910B",   true,  false, true,  true,  true,   true,  true,  true,  true,
     "int8,int16,int32,fp16,fp32,bf16", true, true, true},
    {3002, "Ascend310B",   false, false, true,  true,  true,   true,  true,  true,  false,
     "int8,int16,int32,fp16,fp32", true, false, false},
    {3510, "Ascend950",    true,  false, true,  true,  true,   false, true,  true,  true,
     "int8,int16,int32,uint32,fp16,fp32,bf16", true, false, false},
};

inline constexpr int kGenerationCount = sizeof(kGenerations) / sizeof(kGenerations[0]);

/// The index of `npu_arch` in kGenerations, or -1 when it is not in the table. (Indices, not
/// pointers: pointer comparisons are not constant expressions under sanitizers.)
constexpr int index_of(std::int64_t npu_arch) {
  for (int i = 0; i < kGenerationCount; ++i) {
    if (kGenerations[i].npu_arch == npu_arch) return i;
  }
  return -1;
}

/// The generation of `npu_arch`; the 910B's when unknown (config validation rejects unknown
/// numbers, so this fallback is only reached by code that bypassed it).
constexpr const Generation& of(std::int64_t npu_arch) {
  const int i = index_of(npu_arch);
  return kGenerations[i >= 0 ? i : 2];
}

}  // namespace npusim::arch
