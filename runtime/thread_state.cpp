// SPDX-License-Identifier: Apache-2.0
#include "runtime/thread_state.h"

#include <mutex>

#include "runtime/runtime.h"

namespace npusim::rt {
namespace {

// Owns the calling thread's state; unregisters the thread from the Runtime when it exits.
struct ThreadSlot {
  ThreadState state;
  ~ThreadSlot() {
    if (!state.registered) return;
    Runtime& rt = Runtime::instance();
    std::lock_guard<std::mutex> lock(rt.mutex());
    rt.unregister_thread(state);
  }
};

}  // namespace

ThreadState& this_thread_state() {
  thread_local ThreadSlot slot;
  if (!slot.state.registered) Runtime::instance().register_thread(slot.state);
  return slot.state;
}

}  // namespace npusim::rt
