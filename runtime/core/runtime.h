// SPDX-License-Identifier: Apache-2.0
// The process-wide runtime: the one global object of npusim, and the composition root of the
// core. It owns the API mutex (every exported call runs under it, see api_call.h), the backend
// (the simulated chip), the runtime objects (devices, contexts, streams, events, memory,
// allocator descriptors, stream config handles) and the host threads (host_threads.h). Libraries
// keep their own state and hook into its life through library.h; it names none of them.
//
// Thread model (inline): simulated time advances only inside Backend::run_until, called by the
// host thread that blocks (or takes its turn, below), under the API mutex. A wait that can never
// finish is reported as a deadlock when every live thread waits, or as a hang when no other thread
// acts for NPUSIM_HANG_TIMEOUT wall seconds (default 30).
// Host callbacks add one rule (callback.h): simulated time stops at a callback report until its
// thread has run it, so a waiting thread also parks while a report waits for its thread.
//
// Several host threads (determinism; a conservative scheme as in SimBricks or Revati; the
// bookkeeping is HostThreads, host_threads.h, and the Runtime drives the engine by it). Every
// registered thread has a simulated host clock (thread_state.h). A thread *holds back* the others
// unless it is in a blocking wait (not yet woken), polling for callback reports, or passive:
//  - Order: an API call takes effect only when its thread has the smallest (clock, index) of the
//    threads that hold back (take_turn); otherwise it parks, the lock released. Handles, stream
//    ids, addresses and same-time task order therefore follow simulated time, not wall time.
//  - Engine: simulated time never passes the smallest clock of the threads that hold back, so a
//    task submitted at a thread's clock always arrives before the engine reaches that time.
//  - Waits: a thread in a blocking wait registers its predicate and deadline (Waiter). Whoever
//    advances the engine stops at the first moment some waiter's predicate holds or its deadline
//    passes; that waiter is woken at exactly that time and takes its turn in clock order. Before
//    a call takes effect at clock t the engine is brought to t (waking the waiters due until
//    then). A waiter whose predicate is made true by another thread's call (host state, e.g. a
//    rendezvous) is woken at that call's end clock.
//  - Threads: a thread created with pthread_create is registered at creation with its creator's
//    clock and the next index (thread_state.cpp); a thread first seen at its first call starts at
//    the smallest clock of the threads not waiting. A thread outside the runtime that makes no
//    call for NPUSIM_PASSIVE_MS wall milliseconds (default 100) while another thread waits for
//    its turn becomes passive until its next call (logged at debug level): a thread sleeping in
//    wall time or blocked on host synchronisation then no longer holds the others back. A thread
//    in pthread_join (interposed, thread_state.cpp) holds nobody back until the join returns, and
//    then continues from the joined thread's final clock (deterministic). A program whose threads
//    depend on wall-clock sleeps, or on host-side synchronisation between threads outside the
//    runtime, may vary from run to run. With one registered thread none of this costs anything.
//  - Callbacks: a report thread's polls do not hold anyone back; where a report holds simulated
//    time a turn is taken without bringing the engine to the caller's clock.
//
// The backend is created by a factory at the first aclInit (make_sim_backend() unless a test
// installed another) and kept across aclFinalize/aclInit: the simulated device keeps its clock
// (timestamps are "since device boot") and the timeline covers the whole process.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/chip_config.h"
#include "npusim/ascendc/block_context.h"
#include "runtime/core/backend.h"
#include "runtime/core/trace_memo.h"
#include "runtime/core/callback.h"
#include "runtime/core/context.h"
#include "runtime/core/device.h"
#include "runtime/core/event.h"
#include "runtime/core/exception_info.h"
#include "runtime/core/function_ref.h"
#include "runtime/core/handle_table.h"
#include "runtime/core/host_threads.h"
#include "runtime/core/ipc_registry.h"
#include "runtime/core/session_client.h"
#include "runtime/core/kernel_binary.h"
#include "runtime/core/memory_registry.h"
#include "runtime/core/notify.h"
#include "runtime/core/stream.h"
#include "runtime/core/thread_state.h"
#include "runtime/core/vmm.h"

namespace npusim::rt {

namespace remote {
class Link;
}

/// The host track of the runtime's own callback thread (runs unsubscribed host functions).
constexpr std::uint32_t kRuntimeCallbackThread = kMaxHostThreads;

/// A registered stream state callback (aclrtRegStreamStateCallback) with its user argument bound.
using StreamStateCallback = std::function<void(void* stream, int state)>;
/// One call of a stream state callback, made by run_api once the API call released the lock.
struct StreamStateCall {
  StreamStateCallback callback;
  void* stream = nullptr;
  int state = 0;  // ACL_RT_STREAM_STATE_*
};

/// Names a wait for a deadlock or hang report; called only when one is reported.
using Describe = FunctionRef<std::string()>;

using BackendFactory = std::function<std::unique_ptr<Backend>()>;

class Runtime {
 public:
  static Runtime& instance();

  std::mutex& mutex() { return mutex_; }

  // ---- Lifetime (aclInit / aclFinalize); caller holds the API lock ----
  bool initialized() const { return initialized_; }
  /// Creates the backend if there is none yet and the devices. Throws ApiError.
  void init();
  /// Marks the runtime finalized after the caller tore every object down (see lifecycle.cpp).
  void mark_finalized();
  /// aclInit calls not yet matched by aclFinalizeReference.
  int& init_references() { return init_references_; }
  /// Tests: the factory of the next backend; drops the current backend (runtime not initialized).
  void set_backend_factory(BackendFactory factory);
  Backend* backend() const { return backend_.get(); }
  std::uint64_t backend_epoch() const { return backend_epoch_; }
  /// The backend's configuration, or (before the first aclInit) the one the environment selects.
  /// Throws ApiError when the environment's configuration is bad.
  const models::ChipConfig& config();

  // ---- Host threads ----
  void register_thread(ThreadState& thread);
  /// pthread_create: registers the new thread before it runs, with its creator's clock (or as
  /// register_thread when the creator never called the runtime).
  void register_created(ThreadState& thread, const ThreadState* creator);
  /// A thread registered by register_created starts running (caller holds the lock).
  void thread_running(ThreadState& thread);
  /// pthread_join (thread_state.cpp): the calling thread blocks outside the runtime until another
  /// thread ends, so it holds nobody back meanwhile; when the join returns its clock becomes at
  /// least the clock the joined thread ended at (`exit_clock`; all ones = unknown) and it
  /// holds the others back again. Caller holds the lock.
  void thread_joining(ThreadState& thread);
  void thread_joined(ThreadState& thread, SimTime exit_clock);
  void unregister_thread(ThreadState& thread);
  /// The ordering rule above: returns when the calling thread's call `name` may take effect (at
  /// once with one registered thread). run_api calls it after Call::begin.
  /// aclrtProcessReport/ProcessHostFunc take no turn, and their thread holds nobody back until it
  /// makes another call (a report thread's polls only take reports, at their own times).
  void take_turn(std::unique_lock<std::mutex>& lock, ThreadState& thread, const char* name) {
    ++thread.calls;
    thread.in_call = true;
    if (threads_.multi() || thread.passive) take_turn_multi(lock, thread, name);
  }
  /// An API call ends (lock held): wakes waiters whose predicate the call made true, at its end
  /// clock, and lets the threads waiting for their turn look again.
  void end_call(ThreadState& thread) {
    thread.in_call = false;
    if (threads_.multi()) end_call_multi(thread);
  }
  /// A media callback (callback.h, Report::api_allowed) taken by `thread`, which runs it after
  /// its aclrtProcessReport call: from now until media_callback_end the thread holds the others
  /// back from its clock (its runtime calls take their turns like any call) and its queued reports
  /// hold no simulated time. End: its next report starts no earlier than its clock.
  void media_callback_begin(ThreadState& thread, std::uint64_t os_thread);
  void media_callback_end(ThreadState& thread, std::uint64_t os_thread);
  /// Registered live threads (tests).
  std::size_t thread_count() const { return threads_.count(); }
  double passive_ms() const { return threads_.passive_ms(); }
  void set_passive_ms(double ms) { threads_.set_passive_ms(ms); }
  /// An API call finished: wakes threads parked in wait().
  void note_activity() { threads_.note_activity(); }
  /// Backend::run_until with the starvation handling described above. `what` names the wait in
  /// the deadlock message.
  WaitResult wait(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                  const std::function<bool()>& done, SimTime deadline, Describe what);
  /// Advances the simulation to `t` for a non-blocking query: like wait() with no predicate, but
  /// never parks and never releases the lock (the caller holds plain references): it returns when
  /// nothing is left to simulate or where a callback report holds simulated time. Host functions
  /// of the runtime's own thread run inline, the lock held (they cannot call the runtime).
  void catch_up(std::unique_lock<std::mutex>& lock, SimTime t);
  /// ProcessReport/ProcessHostFunc with nothing to do: parks (API lock released) until some other
  /// thread acts or the wall-clock time `until` passes. False when it returned at `until`.
  bool park_idle(std::unique_lock<std::mutex>& lock,
                 std::chrono::steady_clock::time_point until) {
    return threads_.park_idle(lock, until);
  }
  /// Activity counter (API calls finished, reports delivered).
  std::uint64_t activity() const { return threads_.activity(); }
  double hang_timeout_seconds() const { return threads_.hang_timeout_seconds(); }
  void set_hang_timeout_seconds(double seconds) { threads_.set_hang_timeout_seconds(seconds); }
  std::uint64_t next_flow_id() { return ++last_flow_id_; }
  /// "npusim: <fn> is not supported yet" on stderr, once per function.
  void report_unsupported(const char* function);

  // ---- Host callbacks (callback.h) ----
  CallbackHub& callbacks() { return callbacks_; }
  /// Runs fn(arg) of a taken report on this thread with the API lock released.
  void run_report(std::unique_lock<std::mutex>& lock, const Report& report);
  /// aclrtRegStreamStateCallback: name -> callback.
  std::map<std::string, StreamStateCallback>& stream_state_callbacks() {
    return stream_state_callbacks_;
  }
  /// A stream was created (after) or is about to be destroyed: queues a call of every registered
  /// stream state callback.
  void queue_stream_state(void* stream, int state);
  std::vector<StreamStateCall> take_stream_state_calls() {
    std::vector<StreamStateCall> out;
    out.swap(stream_state_calls_);
    return out;
  }

  // ---- Objects ----
  std::vector<Device>& devices() { return devices_; }
  HandleTable<Context>& contexts() { return contexts_; }
  HandleTable<Stream>& streams() { return streams_; }
  HandleTable<Event>& events() { return events_; }
  HandleTable<AllocatorDesc>& allocator_descs() { return allocator_descs_; }
  HandleTable<Notify>& notifies() { return notifies_; }
  /// Live aclrtStreamConfigHandle and aclDataBuffer objects (plain structs handed out by pointer).
  std::set<const void*>& stream_configs() { return stream_configs_; }
  std::set<const void*>& data_buffers() { return data_buffers_; }
  MemoryRegistry& memory() { return memory_; }
  /// Reserved ranges, physical handles and mappings (vmm.h).
  VirtualMemory& vmm() { return vmm_; }
  /// Where exported objects are published (ipc_registry.h): in-process unless replaced.
  IpcRegistry& ipc() { return *ipc_; }
  /// Cross-process events and notifies (session_client.h).
  SharedSync& shared_sync() { return shared_sync_; }
  /// aclFinalize: leaves the session (its server forgets this process's exports).
  void leave_session();
  /// The session server asks this process to finish the device work its host submitted (another
  /// process imports memory it wrote). Takes the API lock.
  void drain_for_peer();
  /// Applies another process's record on this engine: a task completing at p.at (or now).
  void submit_phantom(SharedSync::Phantom p);
  /// A poll of a shared object (aclrtQueryEvent...): applies the records of other processes that
  /// arrived so far, without waiting (a program polling for one must see it eventually).
  void poll_remote();
  /// Every stream task of the process, destroyed streams included (aclFinalize drains it).
  const std::shared_ptr<TaskCounter>& all_tasks() const { return all_tasks_; }

  // ---- Kernels ----
  /// Loaded binaries, their functions, argument lists and parameter handles.
  KernelObjects& kernels() { return kernels_; }
  /// Core type each kernel (by identity) showed when it last ran (kernel_launch.h).
  std::map<const void*, models::CoreType>& learned_core_types() { return learned_core_types_; }
  /// The one BlockContext every kernel block runs in (blocks never run concurrently); created by
  /// the launch path (kernel_launch.cpp) for the chip's local memory sizes.
  std::unique_ptr<ascendc::BlockContext>& block_context() { return block_context_; }
  /// Memoised block traces of timing-only launches (trace_memo.h).
  TraceMemo& trace_memo() { return trace_memo_; }
  /// What the last failed device task reported (kernel, block, address...), for the message of
  /// the call that reports its error code.
  const std::string& device_error() const { return device_error_; }
  void set_device_error(std::string text) { device_error_ = std::move(text); }
  ExceptionCallback& exception_callback() { return exception_callback_; }
  void queue_exception(PendingException report) { pending_exceptions_.push_back(report); }
  /// Reports queued so far (run_api delivers them once it released the lock).
  std::vector<PendingException> take_exceptions() {
    std::vector<PendingException> out;
    out.swap(pending_exceptions_);
    return out;
  }

 private:
  Runtime();
  void take_turn_multi(std::unique_lock<std::mutex>& lock, ThreadState& thread, const char* name);
  void end_call_multi(ThreadState& thread);
  enum class Drive { kWoke, kAgain, kReached, kStarved, kFailed };
  /// Runs the engine toward `limit`, stopping where a waiter wakes. With `waiter` (a thread in
  /// a wait), a report that waits for its thread parks it; without, the drive stops there.
  Drive drive(std::unique_lock<std::mutex>& lock, ThreadState* waiter, SimTime limit,
              Describe what);
  Drive drive_starved(SimTime limit);
  Drive drive_reports_slice(std::unique_lock<std::mutex>& lock, SimTime limit);
  enum class Reports { kNone, kDue, kHeld };
  Reports reports_after_run(WaitResult r, SimTime limit);
  void catch_up_with_reports(std::unique_lock<std::mutex>& lock, SimTime t);
  SimTime first_clock() const;
  WaitResult wait_multi(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                        const std::function<bool()>& done, SimTime deadline, Describe what);
  bool wait_until_woken(std::unique_lock<std::mutex>& lock, ThreadState& thread, const Waiter& w,
                        Describe what);
  enum class WaitStep { kAgain, kPark, kFailed };
  WaitStep drive_for_waiter(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                            Describe what);
  void retake_turn(std::unique_lock<std::mutex>& lock, ThreadState& thread, Describe what);
  enum class Step { kContinue, kReturn, kStarved };
  Step callback_step(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                     const std::function<bool()>& done, SimTime deadline, Describe what,
                     WaitResult& r);
  Step step_after_run(std::unique_lock<std::mutex>& lock, ThreadState& thread, SimTime deadline,
                      Describe what, WaitResult& r);
  Step park_for_report(std::unique_lock<std::mutex>& lock, ThreadState& thread, Describe what);
  WaitResult run_until_delivery(const std::function<bool()>& done, SimTime deadline);
  bool stall_or_deadlock(std::unique_lock<std::mutex>& lock, Describe what);
  bool park_or_hang(std::unique_lock<std::mutex>& lock, ThreadState& thread, Describe what);
  /// Runs the queued reports of the runtime's own callback thread (with the lock released
  /// meanwhile when `unlock`).
  bool run_runtime_reports(std::unique_lock<std::mutex>& lock, bool unlock);

  std::mutex mutex_;
  HostThreads threads_;

  bool initialized_ = false;
  int init_references_ = 0;
  BackendFactory factory_;
  std::unique_ptr<Backend> backend_;
  std::uint64_t backend_epoch_ = 0;
  std::optional<models::ChipConfig> env_config_;
  std::uint64_t last_flow_id_ = 0;
  std::set<std::string> unsupported_reported_;

  std::vector<Device> devices_;
  HandleTable<Context> contexts_{0x1};
  HandleTable<Stream> streams_{0x2};
  HandleTable<Event> events_{0x3};
  HandleTable<AllocatorDesc> allocator_descs_{0x4};
  HandleTable<Notify> notifies_{0x6};
  std::set<const void*> stream_configs_;
  std::set<const void*> data_buffers_;
  MemoryRegistry memory_;
  VirtualMemory vmm_;  // after memory_: its pages are mapped in memory_'s arena
  std::unique_ptr<IpcRegistry> ipc_ = std::make_unique<LocalIpcRegistry>();
  SharedSync shared_sync_;
  RemoteIpcRegistry* remote_ = nullptr;  // ipc_, when it is a session's
  bool session_checked_ = false;
  std::atomic<bool> leaving_{false};
  std::uint32_t remote_task_seq_ = 0;
  /// A host wait has nothing left to simulate: waits for another process of the session (true:
  /// something arrived, simulate on), or reports why it cannot (false).
  bool remote_stall(std::unique_lock<std::mutex>& lock, Describe what);
  /// remote_stall for a thread whose peers are waiting or passive (outside the runtime, e.g. a
  /// main thread joining rank threads): blocks on the session while no local thread acts.
  /// kNone: nothing to wait for there (park); kAgain: something happened; kFailed: deadlock.
  enum class Remote { kNone, kAgain, kFailed };
  Remote remote_wait(std::unique_lock<std::mutex>& lock, ThreadState& thread, Describe what);
  bool others_wait_or_pass(const ThreadState& thread) const;
  bool block_on_session(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                        remote::Link& link);
  bool wait_push_or_call(std::unique_lock<std::mutex>& lock, remote::Link& link,
                         const HostThreads::Seen& seen);
  void join_session();
  std::shared_ptr<TaskCounter> all_tasks_ = std::make_shared<TaskCounter>();
  KernelObjects kernels_;
  std::map<const void*, models::CoreType> learned_core_types_;
  std::string device_error_;
  std::unique_ptr<ascendc::BlockContext> block_context_;
  TraceMemo trace_memo_;
  ExceptionCallback exception_callback_ = nullptr;
  std::vector<PendingException> pending_exceptions_;
  CallbackHub callbacks_;
  SimTime runtime_thread_clock_ = 0;  // the runtime's own callback thread
  std::map<std::string, StreamStateCallback> stream_state_callbacks_;
  std::vector<StreamStateCall> stream_state_calls_;
};

}  // namespace npusim::rt
