// SPDX-License-Identifier: Apache-2.0
// What a DVPP task asks of its module (plain C++; the runtime builds it, models/dvpp.h times it):
// the frames the task processes, each with its pixel count (what the module's rate scales with)
// and the bytes it reads from and writes to device memory.
#pragma once

#include <cstdint>
#include <vector>

#include "models/task.h"

namespace npusim::models {

/// The DVPP modules; each executes its own TaskKind (models/task.h: kDvppVpc + module).
enum class DvppModule : std::uint8_t { kVpc, kJpegd, kJpege, kPngd, kVdec, kVenc };
constexpr int kDvppModules = 6;

/// "VPC", "JPEGD", "JPEGE", "PNGD", "VDEC", "VENC".
inline const char* dvpp_module_name(DvppModule m) {
  static const char* const kNames[kDvppModules] = {"VPC", "JPEGD", "JPEGE", "PNGD", "VDEC", "VENC"};
  return kNames[static_cast<int>(m)];
}

/// The TaskKind of a DVPP module.
inline TaskKind dvpp_task_kind(DvppModule module) {
  return static_cast<TaskKind>(static_cast<int>(TaskKind::kDvppVpc) + static_cast<int>(module));
}

struct DvppFrame {
  std::uint64_t pixels = 0;       // the frame's work: the larger of input and output pixels
  std::uint64_t read_bytes = 0;   // read from device memory (input picture or stream)
  std::uint64_t write_bytes = 0;  // written to device memory (output picture or stream)
};

struct DvppWork {
  DvppModule module = DvppModule::kVpc;
  /// The frames of the task: one, or a batch (batch crop: one per ROI) that the module spreads
  /// over its hardware units.
  std::vector<DvppFrame> frames;
};

}  // namespace npusim::models
