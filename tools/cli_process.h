// SPDX-License-Identifier: Apache-2.0
// How the npusim CLI starts other programs: the user's program under `npusim run`, the report
// script, sweep runs; and where the CLI itself lives (the install tree is found from it).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace npusim::cli {

/// The directory of the running executable ("" if /proc/self/exe cannot be read).
std::filesystem::path self_dir();

/// Puts `dir` first in the PATH-like variable `var`, if `dir` exists.
void prepend_env_path(const char* var, const std::filesystem::path& dir);

/// Runs argv[0] (looked up on PATH) with argv and waits for it; returns its wait status, or -1
/// when it could not be started. When exec fails the child prints
/// "npusim <command>: <cannot>: <reason>" and exits with `exec_failure`.
int spawn_and_wait(std::vector<std::string> argv, const char* command, const std::string& cannot,
                   int exec_failure);

}  // namespace npusim::cli
