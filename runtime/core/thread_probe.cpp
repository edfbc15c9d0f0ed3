// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/thread_probe.h"

#include <cstdio>
#include <cstring>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace npusim::rt {

ThreadProbe probe_this_thread() {
  ThreadProbe p;
  p.tid = static_cast<pid_t>(::syscall(SYS_gettid));
  if (pthread_getcpuclockid(pthread_self(), &p.cpu_clock) != 0) p.tid = 0;
  return p;
}

std::int64_t thread_cpu_ns(const ThreadProbe& probe) {
  timespec ts{};
  if (probe.tid == 0 || clock_gettime(probe.cpu_clock, &ts) != 0) return -1;
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

bool thread_on_cpu(const ThreadProbe& probe) {
  if (probe.tid == 0) return false;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/stat", static_cast<int>(probe.tid));
  std::FILE* f = std::fopen(path, "re");
  if (f == nullptr) return false;
  char buf[512];
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  // "tid (comm) S ...": the state follows the last ')' (comm may hold spaces and parentheses).
  const char* close = std::strrchr(buf, ')');
  if (close == nullptr || close[1] != ' ') return false;
  return close[2] == 'R' || close[2] == 'D';
}

}  // namespace npusim::rt
