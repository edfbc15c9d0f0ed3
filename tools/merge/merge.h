// SPDX-License-Identifier: Apache-2.0
// `npusim merge`: one timeline for the processes of a session (docs/multiprocess.md). Each process
// of a session writes its own timeline.json (NPUSIM_OUT=dir/%p); all of them count simulated time
// from the machine's boot, so they merge into one Chrome-trace view: every input's processes keep
// their tracks under their own pids, named "<input>: <name>" and ordered input by input; flow
// arrows keep pairing within their input. Plain C++ over nlohmann::json.
#pragma once

#include <string>
#include <vector>

namespace npusim::tools {

struct MergeInput {
  std::string label;  // shown before each of its process names
  std::string path;   // a timeline.json
};

/// Merges `inputs` into `out_path`. Returns "" or the reason it could not (a file that is missing
/// or not a Chrome-trace event array is named).
std::string merge_timelines(const std::vector<MergeInput>& inputs, const std::string& out_path);

}  // namespace npusim::tools
