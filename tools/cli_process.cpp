// SPDX-License-Identifier: Apache-2.0
#include "tools/cli_process.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace npusim::cli {

namespace fs = std::filesystem;

fs::path self_dir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return {};
  buf[n] = '\0';
  return fs::path(buf).parent_path();
}

void prepend_env_path(const char* var, const fs::path& dir) {
  if (!fs::is_directory(dir)) return;
  std::string value = dir.string();
  if (const char* old = std::getenv(var); old && *old) value += std::string(":") + old;
  setenv(var, value.c_str(), 1);
}

int spawn_and_wait(std::vector<std::string> argv, const char* command, const std::string& cannot,
                   int exec_failure) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    std::cerr << "npusim " << command << ": fork: " << std::strerror(errno) << "\n";
    return -1;
  }
  if (pid == 0) {
    execvp(args[0], args.data());
    std::cerr << "npusim " << command << ": " << cannot << ": " << std::strerror(errno) << "\n";
    _exit(exec_failure);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace npusim::cli
