// SPDX-License-Identifier: Apache-2.0
// Small file helpers shared by the tests of every layer (sim, models, runtime, tools).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace npusim::test_util {

/// A file's whole contents, byte for byte ("" when it cannot be read).
inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A directory under the system's temp directory named `prefix`, the process id and the running
/// test's name (ctest runs tests in parallel processes), created empty.
inline std::filesystem::path fresh_test_dir(const std::string& prefix) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      (prefix + std::to_string(::getpid()) + "_" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// A test with a fresh scratch directory (fresh_test_dir), removed afterwards.
class ScratchDirTest : public ::testing::Test {
 protected:
  explicit ScratchDirTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override { dir_ = fresh_test_dir(prefix_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  /// Writes `text` to `name` in the directory; returns its path.
  std::string write(const std::string& name, const std::string& text) {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace npusim::test_util
