// SPDX-License-Identifier: Apache-2.0
// What the runtime keeps per host thread: its simulated host clock, its current context, its last
// error, and whether it is parked waiting for other threads (deadlock detection). Lives in a
// thread_local slot; the slot registers with the Runtime on the thread's first API call and
// unregisters when the thread exits, so the Runtime always knows the live API threads.
//
// Host clock (plan: inline thread model): on each API entry clock = max(clock, backend.now());
// each call adds its modelled host cost; a blocking call sets clock = max(clock, completion).
// Threads created with pthread_create (std::thread) while the runtime is loaded are registered at
// creation, with their creator's clock (runtime.h, "Several host threads").
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "runtime/core/thread_probe.h"
#include "sim/quantity.h"

namespace npusim::rt {

using sim::SimTime;

/// A thread in a blocking wait (Runtime::wait): woken once `done` holds or simulated time reaches
/// `deadline`, at simulated time `at`.
struct Waiter {
  const std::function<bool()>* done = nullptr;
  SimTime deadline = 0;
  bool woken = false;
  SimTime at = 0;
};

struct ThreadState {
  std::uint32_t index = 0;  // host thread index (timeline "Thread <n>", sync stream id)
  std::uint64_t os_id = 0;  // pthread_self (the id aclrtSubscribeReport names)
  bool registered = false;
  std::uint64_t backend_epoch = 0;  // the backend the clock refers to
  SimTime clock = 0;                // simulated host clock (ps)
  SimTime callbacks_until = 0;      // end of the last host callback this thread ran (callback.h)
  void* context = nullptr;          // current context handle (may be stale: always look it up)
  bool waiting = false;             // parked in a wait, API lock released
  // Order of API calls between threads (runtime.h, "Several host threads").
  bool in_call = false;             // inside an API call (its turn taken or awaited)
  bool polling = false;             // last call was aclrtProcessReport/HostFunc: holds nobody back
  bool passive = false;             // outside the runtime too long: holds nobody back
  Waiter* waiter = nullptr;         // in a blocking wait
  std::uint64_t calls = 0;          // API calls begun
  std::uint64_t seen_calls = ~std::uint64_t{0};  // passivity: `calls` when last looked at...
  std::chrono::steady_clock::time_point seen_since;  // ...and since when (wall time)
  ThreadProbe probe;                // computing or blocked (thread_probe.h)
  std::int64_t seen_cpu = -1;       // its CPU time (ns) at seen_since
  std::int64_t cpu_at_call = -1;    // ...and when `calls` last changed
  std::uint32_t sync_task_seq = 0;  // task ids on this thread's synchronous-copy stream
  std::uint32_t last_task_id = 0;   // aclrtGetThreadLastTaskId
  bool has_task = false;
  void* res_stream = nullptr;  // aclrtUseStreamResInCurrentThread

  // Last error (aclrtGetLastError / aclrtPeekAtLastError) and its text (aclGetRecentErrMsg).
  int last_error = 0;
  bool has_message = false;
  std::string message;
  std::string handed_out;  // keeps the text returned by aclGetRecentErrMsg valid

  void record_error(int code, std::string text) {
    last_error = code;
    message = std::move(text);
    has_message = true;
  }
};

/// The calling thread's state. The first call registers the thread with the Runtime: the caller
/// must hold the API lock.
ThreadState& this_thread_state();

}  // namespace npusim::rt
