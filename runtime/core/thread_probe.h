// SPDX-License-Identifier: Apache-2.0
// What the operating system says a host thread is doing while it is outside the runtime:
// computing (running or runnable, or in uninterruptible I/O) or blocked (sleeping on a lock, a
// condition variable, a timer), and how much CPU time it has used. HostThreads asks this before it
// stops waiting for a thread that makes no API call (host_threads.h, "passive"): a thread that is
// computing — filling buffers, however slowly a loaded machine runs it — keeps its place in the
// order, so the timeline does not depend on the machine's load; a blocked one does not.
// Linux only (/proc/self/task/<tid>/stat and the thread's CPU-time clock).
#pragma once

#include <cstdint>
#include <ctime>
#include <sys/types.h>

namespace npusim::rt {

struct ThreadProbe {
  pid_t tid = 0;         // kernel thread id; 0: not known (the thread has not started yet)
  clockid_t cpu_clock{};  // the thread's CPU-time clock
};

/// The calling thread's probe.
ThreadProbe probe_this_thread();

/// CPU time the thread has used, in ns; -1 if it cannot be read (the thread has exited).
std::int64_t thread_cpu_ns(const ThreadProbe& probe);

/// True if the thread is running or runnable ('R') or in uninterruptible sleep ('D').
bool thread_on_cpu(const ThreadProbe& probe);

}  // namespace npusim::rt
