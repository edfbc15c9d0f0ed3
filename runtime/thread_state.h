// SPDX-License-Identifier: Apache-2.0
// What the runtime keeps per host thread: its simulated host clock, its current context, its last
// error, and whether it is parked waiting for other threads (deadlock detection). Lives in a
// thread_local slot; the slot registers with the Runtime on the thread's first API call and
// unregisters when the thread exits, so the Runtime always knows the live API threads.
//
// Host clock (plan: inline thread model): on each API entry clock = max(clock, backend.now());
// each call adds its modelled host cost; a blocking call sets clock = max(clock, completion).
#pragma once

#include <cstdint>
#include <string>

#include "sim/quantity.h"

namespace npusim::rt {

using sim::SimTime;

struct ThreadState {
  std::uint32_t index = 0;  // host thread index (timeline "Thread <n>", sync stream id)
  std::uint64_t os_id = 0;  // pthread_self (the id aclrtSubscribeReport names)
  bool registered = false;
  std::uint64_t backend_epoch = 0;  // the backend the clock refers to
  SimTime clock = 0;                // simulated host clock (ps)
  SimTime callbacks_until = 0;      // end of the last host callback this thread ran (callback.h)
  void* context = nullptr;          // current context handle (may be stale: always look it up)
  bool waiting = false;             // parked in a wait, API lock released
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
