// SPDX-License-Identifier: Apache-2.0
// `msprof op` / `msopprof` (`npusim op`): runs a program with NPUSIM_OP_PROFILE_DIR set, then turns
// the op_profile.json the runtime wrote (models/aicore/op_profile.h) into msprof's per-kernel
// files. `msopprof simulator` only prepares OPPROF_.../simulator/ and runs the program with
// NPUSIM_OP_SIMULATOR_DIR (the runtime writes the instruction view there). Plain C++ (the CLI,
// tools/npusim.cpp, parses the options).
//
// Output: <output>/OPPROF_<YYYYMMDDhhmmss>_<6 hex digits of the tool's pid>/ with
//   dump/op_profile.json            the raw counters (every AI Core launch of the run)
//   and, per collected launch (one launch: in the folder itself; several: in <n>_<kernel>/):
//   OpBasicInfo.csv, PipeUtilization.csv, ArithmeticUtilization.csv, L2Cache.csv, Memory.csv,
//   MemoryL0.csv, MemoryUB.csv, ResourceConflictRatio.csv
// Collected launches: the AI Core launches whose kernel name matches --kernel-name (a glob with
// * and ?, else a prefix; empty: every kernel), the first --launch-count of them in launch
// order. Rows of the per-core files: one per block and core (block_id, sub_block_id cube<i> /
// vector<i>); a row fills its side's aic_* or aiv_* columns and leaves the other side N/A (a
// coupled AI Core fills both). The columns and formulas are in docs/outputs.md.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace npusim::opprof {

struct Options {
  std::vector<std::string> program;  // the program and its arguments
  std::string kernel_name;           // empty: every kernel
  int launch_count = 1;
  int warm_up = 0;  // accepted; a simulated launch is the same every time, so it changes nothing
  std::string output = ".";
  bool simulator = false;
};

/// "OPPROF_<YYYYMMDDhhmmss>_<tag>" for the UTC time `t` and a 6-character tag from `pid`.
std::string run_dir_name(std::int64_t unix_seconds, std::int64_t pid);

/// --soc-version: the npusim preset of an Ascend SoC name ("Ascend910B1".."Ascend910B4",
/// "Ascend910B" -> "ascend910b"; "Ascend310P*" -> "ascend310p"); false with `error` otherwise.
bool preset_of_soc(const std::string& soc, std::string& preset, std::string& error);

/// --application's text split into words (whitespace; '...' and "..." quote, as a shell would).
bool split_command(const std::string& text, std::vector<std::string>& words, std::string& error);

/// Whether a kernel named `name` is selected by --kernel-name `pattern` (see the file comment).
bool kernel_matches(const std::string& pattern, const std::string& name);

/// The files of one launch (file name -> contents) from op_profile.json's text: launch index
/// `launch` (its "launch" field). Throws std::runtime_error on a malformed profile.
std::map<std::string, std::string> launch_files(const std::string& profile_json, int launch);

/// After the program ran: reads <run_dir>/dump/op_profile.json and writes the collected
/// launches' files (see the file comment). Returns 0, or 1 with a message on `err` (no profile,
/// no launch matched, a file that cannot be written).
int write_run(const std::string& run_dir, const Options& options, std::ostream& err);

}  // namespace npusim::opprof
