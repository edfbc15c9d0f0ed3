// SPDX-License-Identifier: Apache-2.0
// What op_summary.csv says of an operator beyond its timing: its instance name and its tensors,
// in msprof's text. The launching runtime fills it in (the operator library knows its tensors;
// a kernel launched by hand has none known). Plain C++.
//
// Op Name (models/aicore/op_summary.h, "Op Name" vs "OP Type"): "<API>_<kernel><Engine>_<OP
// Type>", where API is the call that launched the task ("aclnnAdd", "KernelLaunch" for `<<<>>>`,
// "aclrtLaunchKernelWithConfig"...), kernel the kernel's name and Engine "AiCore" or "AiCpu";
// e.g. "aclnnAdd_AddAiCore_Add", "KernelLaunch_vaddAiCore_vadd". Stable: the same launch gives
// the same name in every run.
#pragma once

#include <string>

namespace npusim::models {

struct OpInfo {
  std::string op_name;  // "Op Name"; empty: the kernel's name
  // "4,1024;1024" (dims by ',', tensors by ';'), "FLOAT16;FLOAT16", "ND;ND"; empty: "N/A".
  std::string input_shapes, input_types, input_formats;
  std::string output_shapes, output_types, output_formats;
};

}  // namespace npusim::models
