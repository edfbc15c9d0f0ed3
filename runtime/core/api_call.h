// SPDX-License-Identifier: Apache-2.0
// The C boundary. Every exported acl* function is one api()/api_value() call:
//
//   aclError aclrtSynchronizeStream(aclrtStream stream) {
//     return api("aclrtSynchronizeStream", [&](Call& c) { synchronize_stream(c, stream, -1); });
//   }
//
// run_api() takes the API lock, checks aclInit when the call needs it, runs the body, turns an
// ApiError (or any other exception) into the returned aclError plus the thread's last error and
// message, charges the call's modelled host time and records it on the timeline
// ("AscendCL@<name>", with the flow id of the task it submitted). Nothing is thrown across it.
//
// A Call is the body's view of that one API invocation: the runtime, the calling thread (its
// simulated host clock, current context), task submission and blocking waits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <functional>
#include <mutex>
#include <string>

#include "runtime/core/backend.h"
#include "runtime/core/errors.h"
#include "runtime/core/function_ref.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {

/// An enum argument as the integer the caller passed. Callers may pass any value (an unknown one
/// is reported as ACL_ERROR_INVALID_PARAM), and reading an out-of-range value through the enum
/// type is undefined behaviour, so the API entry points read their enum arguments only with this.
template <class E>
int as_int(const E& e) {
  static_assert(std::is_enum_v<E> && sizeof(E) == sizeof(int), "a 32-bit C enum");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

/// Simulated time is a 64-bit picosecond count (about 213 days); half of it (about 106 days) is
/// the most a run may reach, leaving room for every deadline and latency added to a time. Past it
/// every call that submits work or waits for the device fails (ACL_ERROR_RT_INTERNAL_ERROR)
/// instead of time silently wrapping.
constexpr SimTime kSimTimeLimit = SimTime{1} << 63;

enum class Needs { kNothing, kInit };

/// Simulated time meaning "no deadline".
constexpr SimTime kForever = ~SimTime{0};

class Call {
 public:
  Call(Runtime& runtime, ThreadState& thread, std::unique_lock<std::mutex>& lock, const char* name);

  Runtime& runtime() const { return runtime_; }
  ThreadState& thread() const { return thread_; }
  const char* name() const { return name_; }
  /// Throws ACL_ERROR_UNINITIALIZE when aclInit has not been called.
  Backend& backend() const;
  const models::ChipConfig& config() const { return runtime_.config(); }
  SimTime clock() const { return thread_.clock; }

  // ---- Objects of this call (each throws the documented ApiError) ----
  /// The thread's current context (107002 when there is none).
  Context& context() const;
  void* context_handle() const;
  /// A live stream; NULL means the current context's default stream.
  Stream& stream(void* handle) const;
  void* stream_handle(void* handle) const;
  Event& event(void* handle) const;
  /// A device by id (107001 when out of range).
  Device& device(std::int64_t id) const;

  // ---- Simulation ----
  /// Submits `task` (fully described: device, stream, ...) at the thread's host clock, after
  /// charging the launch cost once per call; the task carries this call's flow id.
  void submit(Task task);
  /// Blocks until `done` holds or simulated time reaches `deadline`; handles starvation (see
  /// runtime.h). `what` names the wait in deadlock messages (built only for one). Advances the
  /// host clock.
  WaitResult wait(const std::function<bool()>& done, SimTime deadline, Describe what);
  /// Advances the simulation to the thread's host clock (non-blocking queries look at "now").
  void catch_up();
  /// Deadline for a timeout in milliseconds: -1 = forever, > 0 = now + ms; others → 107000.
  SimTime deadline_after_ms(std::int32_t ms) const;

  /// Charges extra modelled host time to this call (e.g. a synchronous copy's driver path).
  void spend(SimTime d) { charge(d); }
  /// This call leaves no trace: no host time, no timeline span, no wake-up of parked threads
  /// (an idle aclrtProcessReport poll, whose number depends on wall time).
  void set_silent(bool silent) { silent_ = silent; }
  bool silent() const { return silent_; }
  /// The call's span is [start, end] (a report thread that ran a callback: callback.h).
  void set_span(SimTime start, SimTime end) {
    start_ = start;
    thread_.clock = std::max(thread_.clock, end);
    charged_ = true;
  }
  std::unique_lock<std::mutex>& lock() const { return lock_; }
  /// Runs fn(arg) once the call has ended, on the calling thread with the API lock released, so
  /// it may call the API (a media callback taken by aclrtProcessReport: callback.h).
  void run_after(void (*fn)(void*), void* arg) {
    after_fn_ = fn;
    after_arg_ = arg;
  }
  void (*after_fn() const)(void*) { return after_fn_; }
  void* after_arg() const { return after_arg_; }

  /// Called by run_api: syncs the host clock with the backend at entry.
  void begin();
  /// Charges the default cost if nothing was charged and traces the call (once; run_api calls
  /// it, aclFinalize calls it early so its own span is in the outputs it writes).
  void finish();

 private:
  void charge(SimTime d) {
    thread_.clock += d;
    charged_ = true;
  }
  [[noreturn]] static void time_overflow();

  Runtime& runtime_;
  ThreadState& thread_;
  std::unique_lock<std::mutex>& lock_;
  const char* name_;
  SimTime start_ = 0;
  bool charged_ = false;
  bool launched_ = false;
  bool finished_ = false;
  bool silent_ = false;
  std::uint64_t flow_id_ = 0;
  void (*after_fn_)(void*) = nullptr;
  void* after_arg_ = nullptr;
};

/// Runs one API call (see the file comment); returns its aclError.
int run_api(const char* name, Needs needs, FunctionRef<void(Call&)> body) noexcept;

/// An API call that needs aclInit.
template <class F>
int api(const char* name, F&& body) noexcept {
  return run_api(name, Needs::kInit, FunctionRef<void(Call&)>(body));
}

/// An API call that works before aclInit (queries of the configuration, error state...).
template <class F>
int api_any(const char* name, F&& body) noexcept {
  return run_api(name, Needs::kNothing, FunctionRef<void(Call&)>(body));
}

/// An API call whose one result goes through the caller's pointer `out` (`what` names it in the
/// null-pointer error): checks the pointer, then stores get(c) through it.
template <class T, class G>
int api_out(const char* name, T* out, const char* what, G&& get) noexcept {
  return api(name, [&](Call& c) {
    require_not_null(out, what);
    *out = get(c);
  });
}

/// An API call returning a value instead of an aclError; `fallback` on failure.
template <class T, class F>
T api_value(const char* name, Needs needs, T fallback, F&& body) noexcept {
  T result = fallback;
  auto wrapped = [&](Call& c) { result = body(c); };
  if (run_api(name, needs, FunctionRef<void(Call&)>(wrapped)) != 0) return fallback;
  return result;
}

/// The body of a function npusim does not implement: logs once, fails with `code`.
int unsupported(const char* name, int code) noexcept;

}  // namespace npusim::rt
