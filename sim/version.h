// SPDX-License-Identifier: Apache-2.0
// npusim's version: project(VERSION ...) in the top-level CMakeLists.txt is the one source; the
// git commit is the checkout's at configure time (absent outside a git checkout, e.g. a source
// tarball). Written into sim/version.cpp by CMake (sim/version.cpp.in). Plain C++.
#pragma once

#include <string>

namespace npusim::sim {

/// "0.1.0": the project version (also the Debian package's).
const char* version();
/// The abbreviated git commit at configure time ("3790eb8"), or "" when unknown.
const char* version_commit();
/// What `npusim --version` prints and stats.json records: "0.1.0+g3790eb8", or "0.1.0" without
/// a commit (the `+g<commit>` suffix as `git describe` names a commit).
std::string version_string();

}  // namespace npusim::sim
