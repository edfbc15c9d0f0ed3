// SPDX-License-Identifier: Apache-2.0
#include "runtime/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "acl/acl_base.h"
#include "models/chip_config_loader.h"
#include "runtime/errors.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

double hang_timeout_from_env() {
  const char* text = std::getenv("NPUSIM_HANG_TIMEOUT");
  if (text == nullptr || *text == '\0') return 30;
  char* end = nullptr;
  double v = std::strtod(text, &end);
  if (end == text || v <= 0) {
    sim::log_warn("NPUSIM_HANG_TIMEOUT='" + std::string(text) +
                  "' is not a positive number; using 30");
    return 30;
  }
  return v;
}

// At process exit, write the outputs of a run that never called aclFinalize. A thread still
// inside an API call at exit may hold the lock: give up after a second rather than hang.
void write_outputs_at_exit() {
  Runtime& rt = Runtime::instance();
  std::unique_lock<std::mutex> lock(rt.mutex(), std::try_to_lock);
  for (int i = 0; i < 100 && !lock.owns_lock(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    lock.try_lock();
  }
  if (!lock.owns_lock()) {
    sim::log_warn("exit during an API call: the outputs were not written");
    return;
  }
  if (rt.initialized() && rt.backend() != nullptr) rt.backend()->write_outputs();
}

}  // namespace

Runtime& Runtime::instance() {
  // Never destroyed: threads may still unregister, and the SystemC backend must not be torn down
  // during static destruction. Outputs are written by aclFinalize or the atexit hook.
  static Runtime* runtime = [] {
    auto* r = new Runtime();
    std::atexit(write_outputs_at_exit);
    return r;
  }();
  return *runtime;
}

Runtime::Runtime() : hang_timeout_s_(hang_timeout_from_env()) {}

void Runtime::init() {
  if (initialized_) {
    ++init_references_;
    fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit has already been called");
  }
  if (!backend_) {
    try {
      backend_ = factory_ ? factory_() : make_sim_backend();
    } catch (const std::exception& e) {
      sim::log_error(std::string("cannot start the simulated chip: ") + e.what());
      fail(ACL_ERROR_INVALID_FILE, std::string("cannot start the simulated chip: ") + e.what());
    }
    ++backend_epoch_;
  }
  const models::ChipConfig& cfg = backend_->config();
  devices_.assign(static_cast<std::size_t>(std::max<std::int64_t>(1, cfg.soc.num_devices)), {});
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    devices_[i].id = static_cast<std::uint32_t>(i);
    devices_[i].sat_mode = cfg.generation().inf_nan_mode ? 1 : 0;  // else saturation only
  }
  initialized_ = true;
  init_references_ = 1;
}

void Runtime::mark_finalized() {
  initialized_ = false;
  init_references_ = 0;
  devices_.clear();
  for (ThreadState* t : threads_) {  // per-thread session state ends with the session
    t->context = nullptr;
    t->res_stream = nullptr;
    t->has_task = false;
  }
}

void Runtime::set_backend_factory(BackendFactory factory) {
  if (initialized_) throw std::logic_error("set_backend_factory while initialized");
  factory_ = std::move(factory);
  backend_.reset();
}

const models::ChipConfig& Runtime::config() {
  if (backend_) return backend_->config();
  if (!env_config_) {
    try {
      env_config_ = models::config_from_env();
    } catch (const std::exception& e) {
      // Say it on stderr too: the program may only see a NULL or an error code.
      std::string message = std::string("bad npusim configuration: ") + e.what();
      sim::log_error(message);
      fail(ACL_ERROR_INVALID_FILE, message);
    }
  }
  return *env_config_;
}

void Runtime::register_thread(ThreadState& thread) {
  // Indices of exited threads are reused, so they (and each thread's synchronous-copy stream id,
  // kSyncStream + index) stay below the number of threads alive at once.
  if (!free_thread_indices_.empty()) {
    thread.index = *free_thread_indices_.begin();
    free_thread_indices_.erase(free_thread_indices_.begin());
  } else {
    if (next_thread_index_ >= kMaxHostThreads) {
      fail(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
           "more than " + std::to_string(kMaxHostThreads) + " host threads call the runtime at once");
    }
    thread.index = next_thread_index_++;
  }
  thread.registered = true;
  threads_.push_back(&thread);
}

void Runtime::unregister_thread(ThreadState& thread) {
  threads_.erase(std::remove(threads_.begin(), threads_.end(), &thread), threads_.end());
  thread.registered = false;
  free_thread_indices_.insert(thread.index);
  note_activity();
}

void Runtime::note_activity() {
  ++activity_;
  if (parked_ > 0) activity_cv_.notify_all();
}

bool Runtime::others_all_waiting(const ThreadState& me) const {
  return std::all_of(threads_.begin(), threads_.end(),
                     [&](const ThreadState* t) { return t == &me || t->waiting; });
}

WaitResult Runtime::wait(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                         const std::function<bool()>& done, SimTime deadline,
                         Describe what) {
  if (!backend_) fail(ACL_ERROR_UNINITIALIZE, "the runtime is not initialized");
  for (;;) {
    WaitResult r = backend_->run_until(done, deadline);
    if (r != WaitResult::kStarved) return r;
    if (others_all_waiting(thread)) {
      sim::log_error("deadlock: " + what() +
                     ", but no task can make progress and no other host thread can act");
      return r;
    }
    std::uint64_t seen = activity_;
    thread.waiting = true;
    ++parked_;
    bool woke = activity_cv_.wait_for(lock, std::chrono::duration<double>(hang_timeout_s_),
                                      [&] { return activity_ != seen; });
    --parked_;
    thread.waiting = false;
    if (!woke) {
      sim::log_error("hang: " + what() + ", and no host thread made an API call for " +
                     std::to_string(hang_timeout_s_) + " s (NPUSIM_HANG_TIMEOUT)");
      return r;
    }
  }
}

void Runtime::report_unsupported(const char* function) {
  if (unsupported_reported_.insert(function).second) {
    std::fprintf(stderr, "npusim: %s is not supported yet\n", function);
  }
}

}  // namespace npusim::rt
