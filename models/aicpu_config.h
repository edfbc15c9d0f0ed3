// SPDX-License-Identifier: Apache-2.0
// AI CPU: the unit's configuration group (aicpu.*), declared beside the unit (models/aicpu.h) and
// registered in models/unit_configs.cpp (models/unit_config.h). Plain C++: the runtime reads it
// (aclrtGetDeviceInfo, AI CPU launches).
#pragma once

#include <cstdint>

#include "models/config_types.h"

namespace npusim::models {

/// The AI CPU: ARM cores that run AI CPU kernels (models/aicpu.h gives the timing model).
struct AiCpuConfig {
  static constexpr const char* kGroup = "aicpu";
  static constexpr const char* kDescription = "AI CPU";

  std::int64_t cores = 6;
  Frequency clock{2e9};
  double ipc = 1.0;
  double instructions_per_bb = 5.0;
  double hbm_bytes_per_cycle = 16.0;
  Duration task_start{10 * sim::kUs};

  template <class V>
  void visit(V& v) {
    v.field("cores", cores, "AI CPU cores available to AI CPU tasks", sim::range(0, 1024));
    v.field("clock", clock, "AI CPU core clock");
    v.field("ipc", ipc,
            "instructions an AI CPU core retires per cycle on a kernel's counted basic-block work",
            sim::above(0));
    v.field("instructions_per_bb", instructions_per_bb,
            "average instructions in one counted basic block of AI CPU kernel code (the count "
            "comes from -fsanitize-coverage=trace-pc, as for AI Core scalar code)",
            sim::above(0));
    v.field("hbm_bytes_per_cycle", hbm_bytes_per_cycle,
            "bytes per AI CPU cycle one core moves to or from device memory (HBM) for the bytes a "
            "kernel reads and writes there",
            sim::above(0));
    v.field("task_start", task_start,
            "per-task overhead of an AI CPU task on its core (the AI CPU scheduler takes the task, "
            "finds the kernel, unpacks its arguments) before the kernel's first instruction");
  }
};

}  // namespace npusim::models
