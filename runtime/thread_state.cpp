// SPDX-License-Identifier: Apache-2.0
#include "runtime/thread_state.h"

#include <dlfcn.h>
#include <pthread.h>

#include <cerrno>
#include <mutex>

#include "runtime/runtime.h"

namespace npusim::rt {
namespace {

// Owns the calling thread's state; unregisters the thread from the Runtime when it exits. The
// state is on the heap: a thread created by pthread_create gets the one its creator registered.
struct ThreadSlot {
  ThreadState* state = nullptr;
  ~ThreadSlot() {
    if (state == nullptr) return;
    {
      Runtime& rt = Runtime::instance();
      std::lock_guard<std::mutex> lock(rt.mutex());
      if (state->registered) rt.unregister_thread(*state);
    }
    delete state;
  }
};

thread_local ThreadSlot t_slot;

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

CreateFn real_pthread_create() {
  static const CreateFn fn = reinterpret_cast<CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
  return fn;
}

struct Start {
  void* (*fn)(void*);
  void* arg;
  ThreadState* state;
};

void* start_registered(void* p) {
  const Start start = *static_cast<Start*>(p);
  delete static_cast<Start*>(p);
  {
    Runtime& rt = Runtime::instance();
    std::lock_guard<std::mutex> lock(rt.mutex());
    t_slot.state = start.state;
    rt.thread_running(*start.state);
  }
  return start.fn(start.arg);
}

}  // namespace

ThreadState& this_thread_state() {
  if (t_slot.state == nullptr) t_slot.state = new ThreadState;
  if (!t_slot.state->registered) Runtime::instance().register_thread(*t_slot.state);
  return *t_slot.state;
}

}  // namespace npusim::rt

// Interposes pthread_create (std::thread uses it) so that a thread is known to the runtime from
// its creation, in its creator's program order, with its creator's simulated clock and the next
// thread index: the order of API calls between threads, the thread's timeline track and its
// synchronous-copy stream do not depend on when it makes its first call in wall time
// (runtime.h, "Several host threads"). A thread created from inside an API call (none is) or when
// the real function cannot be found is created as it is.
extern "C" __attribute__((visibility("default"))) int pthread_create(
    pthread_t* thread, const pthread_attr_t* attr, void* (*fn)(void*), void* arg) {
  using namespace npusim::rt;
  const CreateFn real = real_pthread_create();
  if (real == nullptr) return EAGAIN;
  ThreadState* creator = t_slot.state;
  if ((creator != nullptr && creator->in_call) || in_host_callback()) {
    return real(thread, attr, fn, arg);
  }
  auto* state = new ThreadState;
  Runtime& rt = Runtime::instance();
  {
    std::lock_guard<std::mutex> lock(rt.mutex());
    try {
      rt.register_created(*state, creator);
    } catch (...) {  // too many threads: the thread registers at its first call (which fails)
      delete state;
      return real(thread, attr, fn, arg);
    }
  }
  auto* start = new Start{fn, arg, state};
  const int rc = real(thread, attr, start_registered, start);
  if (rc != 0) {
    {
      std::lock_guard<std::mutex> lock(rt.mutex());
      rt.unregister_thread(*state);
    }
    delete start;
    delete state;
  }
  return rc;
}
