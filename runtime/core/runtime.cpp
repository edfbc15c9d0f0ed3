// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/runtime.h"


#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "acl/acl_base.h"
#include "models/chip_config_loader.h"
#include "runtime/core/errors.h"
#include "runtime/core/ipc.h"
#include "runtime/core/library.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

constexpr SimTime kForeverTime = ~SimTime{0};

// A thread's waiter while it waits: no dangling waiter if anything throws.
class RegisteredWaiter {
 public:
  RegisteredWaiter(ThreadState& thread, Waiter& w) : thread_(thread) { thread.waiter = &w; }
  ~RegisteredWaiter() { thread_.waiter = nullptr; }
  RegisteredWaiter(const RegisteredWaiter&) = delete;
  RegisteredWaiter& operator=(const RegisteredWaiter&) = delete;

 private:
  ThreadState& thread_;
};

// aclrtProcessReport / aclrtProcessHostFunc (a report thread's polls take no turn).
bool is_poll(const char* name) {
  return std::strncmp(name, "aclrtProcess", 12) == 0 &&
         (std::strcmp(name + 12, "Report") == 0 || std::strcmp(name + 12, "HostFunc") == 0);
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
  if (rt.initialized() && rt.backend() != nullptr) {
    rt.backend()->write_outputs();
    libraries_write_outputs(*rt.backend());
  }
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

Runtime::Runtime() = default;

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
    runtime_thread_clock_ = 0;
  }
  const models::ChipConfig& cfg = backend_->config();
  devices_.assign(static_cast<std::size_t>(std::max<std::int64_t>(1, cfg.soc.num_devices)), {});
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    devices_[i].id = static_cast<std::uint32_t>(i);
    devices_[i].sat_mode = cfg.generation().inf_nan_mode ? 1 : 0;  // else saturation only
  }
  trace_memo_.configure_from_env();
  if (!factory_) join_session();
  initialized_ = true;
  init_references_ = 1;
}

void Runtime::mark_finalized() {
  callbacks_.clear_reports();  // a report nobody processed before aclFinalize is dropped
  initialized_ = false;
  init_references_ = 0;
  devices_.clear();
  for (ThreadState* t : threads_.all()) {  // per-thread session state ends with the session
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

SimTime Runtime::first_clock() const {
  return threads_.first_clock(backend_ ? backend_->now() : 0, backend_epoch_);
}

void Runtime::register_thread(ThreadState& thread) {
  threads_.assign_index(thread);
  thread.registered = true;
  thread.os_id = os_thread_id();
  thread.probe = probe_this_thread();
  if (backend_) {
    thread.backend_epoch = backend_epoch_;
    thread.clock = first_clock();
  }
  callbacks_.thread_started(thread.os_id);
  threads_.add(thread);
}

void Runtime::register_created(ThreadState& thread, const ThreadState* creator) {
  threads_.assign_index(thread);
  thread.registered = true;
  if (creator != nullptr && creator->registered) {
    thread.backend_epoch = creator->backend_epoch;
    thread.clock = creator->clock;
  } else if (backend_) {
    thread.backend_epoch = backend_epoch_;
    thread.clock = first_clock();
  }
  threads_.add(thread);
}

void Runtime::thread_running(ThreadState& thread) {
  thread.os_id = os_thread_id();
  thread.probe = probe_this_thread();
  callbacks_.thread_started(thread.os_id);
}

void Runtime::thread_joining(ThreadState& thread) {
  thread.passive = true;
  threads_.turns_changed();
}

void Runtime::thread_joined(ThreadState& thread, SimTime exit_clock) {
  if (exit_clock != kForeverTime) thread.clock = std::max(thread.clock, exit_clock);
  thread.passive = false;
  thread.seen_calls = ~std::uint64_t{0};  // its grace starts anew
  threads_.turns_changed();
}

void Runtime::unregister_thread(ThreadState& thread) {
  thread.registered = false;
  if (thread.os_id != 0) callbacks_.thread_exited(thread.os_id);
  threads_.remove(thread);
}

// ---- Order between host threads (see the class comment) ----

void Runtime::take_turn_multi(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                              const char* name) {
  const bool poll = is_poll(name);
  if (thread.passive || thread.polling != poll) {
    thread.passive = false;
    thread.polling = poll;
    threads_.turns_changed();
  }
  if (!threads_.multi() || poll) return;
  for (;;) {
    if (!threads_.first_in_order(thread)) {
      threads_.park(lock, thread, false);
      continue;
    }
    if (backend_ && backend_->now() < thread.clock && threads_.any_waiter()) {
      const Drive d = drive(lock, nullptr, thread.clock, [] { return std::string("a turn"); });
      if (d == Drive::kWoke || d == Drive::kAgain) continue;
    }
    return;
  }
}

void Runtime::end_call_multi(ThreadState& thread) {
  if (threads_.any_waiter()) threads_.wake_waiters(thread.clock);  // host state this call changed (a rendezvous)
  threads_.turns_changed();
}

void Runtime::media_callback_begin(ThreadState& thread, std::uint64_t os_thread) {
  callbacks_.set_busy(os_thread, true);
  if (thread.polling) {
    thread.polling = false;
    threads_.turns_changed();
  }
}

void Runtime::media_callback_end(ThreadState& thread, std::uint64_t os_thread) {
  callbacks_.set_busy(os_thread, false);
  thread.callbacks_until = std::max(thread.callbacks_until, thread.clock);
  threads_.turns_changed();
  threads_.note_activity();
}

void Runtime::run_report(std::unique_lock<std::mutex>& lock, const Report& report) {
  lock.unlock();
  run_host_callback(report.fn, report.arg);
  lock.lock();
}

bool Runtime::run_runtime_reports(std::unique_lock<std::mutex>& lock, bool unlock) {
  bool ran = false;
  while (std::shared_ptr<Report> r = callbacks_.next_for(ReportKind::kHostFunc, kRuntimeThread)) {
    const SimTime start = std::max(runtime_thread_clock_, r->due);
    callbacks_.take(*r, start, backend_->config().host.callback.ps);
    if (unlock) {
      run_report(lock, *r);
    } else {
      run_host_callback(r->fn, r->arg);
    }
    callbacks_.returned(*r);
    runtime_thread_clock_ = r->release;
    if (backend_) backend_->trace_host(kRuntimeCallbackThread, "HostFunc", r->start, r->release);
    ran = true;
  }
  return ran;
}

// One slice of a wait while callbacks are about (callback.h): runs the runtime thread's host
// functions, releases processed reports at their release time, runs the backend up to the
// deadline or where a report holds simulated time, and parks while a report waits for its thread.
// kContinue: go on; kReturn: `r` is the wait's result; kStarved: nothing left to simulate.
Runtime::Step Runtime::callback_step(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                                     const std::function<bool()>& done, SimTime deadline,
                                     Describe what, WaitResult& r) {
  if (run_runtime_reports(lock, true)) return Step::kContinue;
  callbacks_.release_due(backend_->now());
  const std::uint64_t seen = callbacks_.deliveries();
  r = run_until_delivery(done, deadline);
  if (callbacks_.deliveries() != seen) {
    threads_.note_activity();  // wake the threads the reports are for
    r = WaitResult::kDone;
    return done() ? Step::kReturn : Step::kContinue;
  }
  return step_after_run(lock, thread, deadline, what, r);
}

// callback_step after a run that delivered no report: done, the deadline, or what the reports
// make of it.
Runtime::Step Runtime::step_after_run(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                                      SimTime deadline, Describe what, WaitResult& r) {
  if (r == WaitResult::kDone) return Step::kReturn;
  if (r == WaitResult::kTimeout && backend_->now() >= deadline) return Step::kReturn;
  const Reports pending = reports_after_run(r, deadline);
  if (pending == Reports::kDue) return Step::kContinue;
  if (pending == Reports::kHeld) {
    r = WaitResult::kStarved;
    return park_for_report(lock, thread, what);
  }
  return r == WaitResult::kStarved ? Step::kStarved : Step::kContinue;
}

// Runs the backend until `done`, a report is delivered, `deadline`, or the time a report holds
// or is released at.
WaitResult Runtime::run_until_delivery(const std::function<bool()>& done, SimTime deadline) {
  const SimTime stop = std::min({deadline, callbacks_.hold_limit(), callbacks_.next_release()});
  // One pointer captured: the predicate fits std::function's inline buffer (no allocation).
  const struct {
    const std::function<bool()>& done;
    const CallbackHub& hub;
    std::uint64_t seen;
  } until{done, callbacks_, callbacks_.deliveries()};
  return backend_->run_until([u = &until] { return u->done() || u->hub.deliveries() != u->seen; },
                             stop);
}

// A report holds simulated time until its thread processes it: parks this thread meanwhile, unless
// the report is for this very thread (a deadlock) or nobody acts in time (a hang).
Runtime::Step Runtime::park_for_report(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                                       Describe what) {
  const std::uint64_t me = os_thread_id();
  if (callbacks_.next_for(ReportKind::kCallback, me) ||
      callbacks_.next_for(ReportKind::kHostFunc, me)) {
    sim::log_error("deadlock: " + what() +
                   ", but a host callback this thread must process itself is waiting");
    return Step::kReturn;
  }
  if (!threads_.park(lock, thread, true)) {
    sim::log_error("hang: " + what() + ", and a host callback report waited " +
                   std::to_string(threads_.hang_timeout_seconds()) +
                   " s for its thread (is a thread calling aclrtProcessReport?)");
    return Step::kReturn;
  }
  return Step::kContinue;
}

// The simulation loop of every blocking call (see the class comment). Without callbacks in
// flight it is one backend run; callback_step() handles the rest. With several registered
// threads, wait_multi() does it.
WaitResult Runtime::wait(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                         const std::function<bool()>& done, SimTime deadline,
                         Describe what) {
  if (!backend_) fail(ACL_ERROR_UNINITIALIZE, "the runtime is not initialized");
  for (;;) {
    if (threads_.multi()) return wait_multi(lock, thread, done, deadline, what);
    WaitResult r = WaitResult::kStarved;
    if (callbacks_.idle()) {  // no callback can hold simulated time during this run
      r = backend_->run_until(done, deadline);
      if (r != WaitResult::kStarved) return r;
    } else {
      const Step step = callback_step(lock, thread, done, deadline, what, r);
      if (step == Step::kReturn) return r;
      if (step == Step::kContinue) continue;
    }
    // Nothing left to simulate: another process or host thread must act.
    const bool acted = threads_.others_all_waiting(thread) ? stall_or_deadlock(lock, what)
                                                           : park_or_hang(lock, thread, what);
    if (!acted) return r;
  }
}

// Nothing is left to simulate and every other host thread waits: waits for another process of
// the session. False: nothing can come (a deadlock, logged).
bool Runtime::stall_or_deadlock(std::unique_lock<std::mutex>& lock, Describe what) {
  if (remote_stall(lock, what)) return true;
  sim::log_error("deadlock: " + what() +
                 ", but no task can make progress and no other host thread can act");
  return false;
}

// Parks the thread until another host thread acts. False: none did in time (a hang, logged).
bool Runtime::park_or_hang(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                           Describe what) {
  if (threads_.park(lock, thread, true)) return true;
  sim::log_error("hang: " + what() + ", and no host thread made an API call for " +
                 std::to_string(threads_.hang_timeout_seconds()) + " s (NPUSIM_HANG_TIMEOUT)");
  return false;
}

Runtime::Drive Runtime::drive(std::unique_lock<std::mutex>& lock, ThreadState* waiter,
                              SimTime limit, Describe what) {
  if (threads_.wake_waiters(backend_->now())) return Drive::kWoke;
  if (callbacks_.idle()) {
    const WaitResult r = backend_->run_until(threads_.any_woken(), limit);
    if (threads_.wake_waiters(backend_->now())) return Drive::kWoke;
    return r == WaitResult::kStarved ? drive_starved(limit) : Drive::kReached;
  }
  if (waiter == nullptr) return drive_reports_slice(lock, limit);
  WaitResult r = WaitResult::kStarved;
  const Step step = callback_step(lock, *waiter, threads_.any_woken(), limit, what, r);
  if (threads_.wake_waiters(backend_->now())) return Drive::kWoke;
  if (step == Step::kContinue) return Drive::kAgain;
  if (step == Step::kStarved) return drive_starved(limit);
  if (r == WaitResult::kTimeout) return Drive::kReached;
  if (r == WaitResult::kDone) return Drive::kAgain;
  return Drive::kFailed;  // deadlock or hang (logged)
}

// Nothing to simulate before `limit`: a waiter's deadline before the next thread's clock still
// passes (nobody can submit anything earlier).
Runtime::Drive Runtime::drive_starved(SimTime limit) {
  const SimTime d = threads_.earliest_waiter_deadline();
  if (d != kForeverTime && d <= limit && d <= threads_.hold_back_limit(nullptr) &&
      d > backend_->now()) {
    backend_->advance_to(d);
    if (threads_.wake_waiters(backend_->now())) return Drive::kWoke;
  }
  return Drive::kStarved;
}

// One slice of catch_up's loop while callbacks are about: never parks.
Runtime::Drive Runtime::drive_reports_slice(std::unique_lock<std::mutex>& lock, SimTime limit) {
  if (run_runtime_reports(lock, false)) return Drive::kAgain;
  callbacks_.release_due(backend_->now());
  if (backend_->now() >= limit) return Drive::kReached;
  const SimTime stop = std::min({limit, callbacks_.hold_limit(), callbacks_.next_release()});
  const std::uint64_t seen = callbacks_.deliveries();
  const WaitResult r = backend_->run_until(
      [this, seen] { return threads_.any_woken()() || callbacks_.deliveries() != seen; }, stop);
  // Wake the threads the reports are for.
  if (callbacks_.deliveries() != seen) threads_.note_activity();
  if (threads_.wake_waiters(backend_->now())) return Drive::kWoke;
  if (callbacks_.deliveries() != seen) return Drive::kAgain;
  const Reports pending = reports_after_run(r, limit);
  if (pending == Reports::kDue) return Drive::kAgain;
  if (pending == Reports::kHeld) return Drive::kReached;  // a report waits for its thread
  return r == WaitResult::kStarved ? drive_starved(limit) : Drive::kReached;
}

// After a run toward `limit` with callbacks about: kDue when a report's release time has come (or
// simulated time was advanced to it: nothing else to simulate before), kHeld when a report holds
// simulated time until its thread processes it, kNone when no report decides what comes next.
Runtime::Reports Runtime::reports_after_run(WaitResult r, SimTime limit) {
  const SimTime now = backend_->now();
  if (callbacks_.next_release() <= now) return Reports::kDue;
  if (callbacks_.hold_limit() <= now || (r == WaitResult::kStarved && callbacks_.holding())) {
    return Reports::kHeld;
  }
  if (callbacks_.next_release() != CallbackHub::kForeverTime) {
    backend_->advance_to(std::min(limit, callbacks_.next_release()));
    return Reports::kDue;
  }
  return Reports::kNone;
}

WaitResult Runtime::wait_multi(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                               const std::function<bool()>& done, SimTime deadline,
                               Describe what) {
  // This call may have changed host state others wait on (a rendezvous): they wake at its clock.
  if (threads_.any_waiter()) threads_.wake_waiters(thread.clock);
  Waiter w;
  w.done = &done;
  w.deadline = deadline;
  const RegisteredWaiter registered(thread, w);
  threads_.turns_changed();  // this thread holds nobody back while it waits
  const bool woken = wait_until_woken(lock, thread, w, what);
  thread.waiter = nullptr;
  threads_.turns_changed();
  if (!woken) return WaitResult::kStarved;
  thread.clock = std::max(thread.clock, w.at);
  retake_turn(lock, thread, what);
  if (done()) return WaitResult::kDone;
  return w.at >= deadline ? WaitResult::kTimeout : WaitResult::kDone;
}

// Drives the engine (or lets others do it) until the waiter `w` of `thread` is woken. False:
// the wait cannot end (deadlock or hang, logged).
bool Runtime::wait_until_woken(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                               const Waiter& w, Describe what) {
  for (;;) {
    if (!w.woken) threads_.wake_waiters(backend_->now());
    if (w.woken) return true;
    const WaitStep step = drive_for_waiter(lock, thread, what);
    if (step == WaitStep::kAgain) continue;
    if (step == WaitStep::kFailed) return false;
    // A thread that holds back is at the limit, or nothing is left to simulate: others must act.
    if (!park_or_hang(lock, thread, what)) return false;
  }
}

// One drive of a waiting thread up to where the next thread or waiter is due: kAgain to look
// again, kPark when others must act, kFailed when nobody can (deadlock, logged).
Runtime::WaitStep Runtime::drive_for_waiter(std::unique_lock<std::mutex>& lock,
                                            ThreadState& thread, Describe what) {
  const SimTime limit =
      std::min(threads_.hold_back_limit(nullptr), threads_.earliest_waiter_deadline());
  const Drive d = drive(lock, &thread, limit, what);
  if (d == Drive::kWoke || d == Drive::kAgain) return WaitStep::kAgain;
  if (d == Drive::kFailed) return WaitStep::kFailed;
  if (d != Drive::kStarved || threads_.hold_back_limit(nullptr) != kForeverTime) {
    return WaitStep::kPark;
  }
  if (threads_.others_all_waiting(thread)) {
    return stall_or_deadlock(lock, what) ? WaitStep::kAgain : WaitStep::kFailed;
  }
  const Remote r = remote_wait(lock, thread, what);
  if (r == Remote::kAgain) return WaitStep::kAgain;
  return r == Remote::kFailed ? WaitStep::kFailed : WaitStep::kPark;
}

// Takes the turn again at the woken thread's clock (not counted as a new call), simulating up
// to that clock first when other waiters may wake on the way.
void Runtime::retake_turn(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                          Describe what) {
  for (;;) {
    if (!threads_.first_in_order(thread)) {
      threads_.park(lock, thread, false);
      continue;
    }
    if (backend_->now() < thread.clock && threads_.any_waiter()) {
      const Drive d = drive(lock, nullptr, thread.clock, what);
      if (d == Drive::kWoke || d == Drive::kAgain) continue;
    }
    return;
  }
}

void Runtime::catch_up(std::unique_lock<std::mutex>& lock, SimTime t) {
  if (!backend_) return;
  if (threads_.multi()) {
    // Not past a thread that holds back; waiters due on the way are woken there.
    t = std::min(t, threads_.hold_back_limit(nullptr));
    for (;;) {
      if (backend_->now() >= t) return;
      const Drive d = drive(lock, nullptr, t, [] { return std::string("a query"); });
      if (d != Drive::kAgain) return;
    }
  }
  if (callbacks_.idle()) {
    static const auto& never = *new std::function<bool()>([] { return false; });  // never freed
    backend_->run_until(never, t);
    return;
  }
  catch_up_with_reports(lock, t);
}

// catch_up while callbacks are about: runs their reports and releases them on the way. Stops
// at `t`, where nothing is left to simulate, or where a report waits for its thread (the device
// is then seen as it is now).
void Runtime::catch_up_with_reports(std::unique_lock<std::mutex>& lock, SimTime t) {
  for (;;) {
    if (run_runtime_reports(lock, false)) continue;
    callbacks_.release_due(backend_->now());
    if (backend_->now() >= t) return;
    const SimTime stop = std::min({t, callbacks_.hold_limit(), callbacks_.next_release()});
    const std::uint64_t seen = callbacks_.deliveries();
    WaitResult r = backend_->run_until(
        [hub = &callbacks_, seen] { return hub->deliveries() != seen; }, stop);
    if (callbacks_.deliveries() != seen) {
      threads_.note_activity();  // wake the threads the reports are for
      continue;
    }
    if (reports_after_run(r, t) != Reports::kDue) return;
  }
}

void Runtime::queue_stream_state(void* stream, int state) {
  for (const auto& [name, callback] : stream_state_callbacks_) {
    stream_state_calls_.push_back({callback, stream, state});
  }
}

void Runtime::report_unsupported(const char* function) {
  if (unsupported_reported_.insert(function).second) {
    std::fprintf(stderr, "npusim: %s is not supported yet\n", function);
  }
}

}  // namespace npusim::rt
