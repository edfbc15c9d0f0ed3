// SPDX-License-Identifier: Apache-2.0
// Shared by the session tests: bounded waits for child processes and for the server's answers.
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "runtime/session/session.h"

namespace npusim::rt::remote {

/// waitpid with a wall-clock bound: the exit status, or -1 (after killing it) after `ms`.
inline int wait_bounded(pid_t pid, int ms) {
  for (int i = 0; i < ms / 10; ++i) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

/// kList answered within `ms` (other pushes skipped): the client list, or "?" when not.
inline std::string list_within(int fd, int ms) {
  using Ms = std::chrono::milliseconds;
  if (!write_frame(fd, {FrameType::kList, ""})) return "?";
  const auto end = std::chrono::steady_clock::now() + Ms(ms);
  for (;;) {
    const auto left = std::chrono::duration_cast<Ms>(end - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) != 1) return "?";
    Frame f;
    int passed = -1;
    if (!read_frame(fd, f, &passed)) return "?";
    if (passed >= 0) close(passed);
    if (f.type == FrameType::kClients) return f.payload;
  }
}

}  // namespace npusim::rt::remote
