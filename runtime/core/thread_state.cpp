// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/thread_state.h"

#include <dlfcn.h>
#include <pthread.h>

#include <cerrno>
#include <map>
#include <mutex>
#include <utility>

#include "runtime/core/runtime.h"

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

using JoinFn = int (*)(pthread_t, void**);

JoinFn real_pthread_join() {
  static const JoinFn fn = reinterpret_cast<JoinFn>(dlsym(RTLD_NEXT, "pthread_join"));
  return fn;
}

// The clock each registered thread ended at (its last API call's end), until someone joins it.
// Guarded by the runtime's lock.
std::map<pthread_t, std::pair<std::uint64_t, SimTime>>& exit_clocks() {
  static auto* clocks = new std::map<pthread_t, std::pair<std::uint64_t, SimTime>>;
  return *clocks;
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
  void* result = start.fn(start.arg);
  {
    Runtime& rt = Runtime::instance();
    std::lock_guard<std::mutex> lock(rt.mutex());
    exit_clocks()[pthread_self()] = {start.state->backend_epoch, start.state->clock};
  }
  return result;
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

// Interposes pthread_join (std::thread::join uses it): a registered thread joining another holds
// the other threads back no longer while it blocks, and continues from the clock the joined thread
// ended at, so a main thread that joins its workers neither stalls them until NPUSIM_PASSIVE_MS
// nor makes the run depend on wall time (runtime.h, "Several host threads").
extern "C" __attribute__((visibility("default"))) int pthread_join(pthread_t thread, void** ret) {
  using namespace npusim::rt;
  const JoinFn real = real_pthread_join();
  if (real == nullptr) return EINVAL;
  ThreadState* me = t_slot.state;
  const bool tracked = me != nullptr && !me->in_call && !in_host_callback();
  Runtime& rt = Runtime::instance();
  if (tracked) {
    std::lock_guard<std::mutex> lock(rt.mutex());
    if (me->registered) rt.thread_joining(*me);
  }
  const int rc = real(thread, ret);
  if (tracked) {
    std::lock_guard<std::mutex> lock(rt.mutex());
    SimTime exit_clock = ~SimTime{0};  // unknown
    auto it = exit_clocks().find(thread);
    if (it != exit_clocks().end()) {
      if (rc == 0 && it->second.first == me->backend_epoch) exit_clock = it->second.second;
      if (rc == 0) exit_clocks().erase(it);
    }
    if (me->registered) rt.thread_joined(*me, exit_clock);
  }
  return rc;
}
