// SPDX-License-Identifier: Apache-2.0
// The Runtime as a client of its session (runtime.h, "Several processes"; session_client.h): it
// joins at aclInit when the environment names a session, leaves at aclFinalize, drains its device
// work when a peer imports, and, when a host wait has nothing left to simulate, waits for the
// records of other processes and applies them as phantom tasks.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/core/ipc.h"
#include "runtime/core/runtime.h"
#include "runtime/session/link.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

// NPUSIM_SERVER, else bin/npusim of the install tree this library belongs to.
std::string server_exe() {
  if (const char* e = std::getenv("NPUSIM_SERVER"); e != nullptr && *e != '\0') return e;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&server_exe), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  std::string lib = info.dli_fname;
  const std::size_t slash = lib.rfind('/');
  if (slash == std::string::npos) return {};
  const std::string exe = lib.substr(0, slash) + "/../bin/npusim";
  return ::access(exe.c_str(), X_OK) == 0 ? exe : std::string();
}

constexpr std::uint32_t kRemoteStream = 0xFFFE0000u;  // phantoms of other processes' records

}  // namespace

void Runtime::join_session() {
  if (session_checked_) return;
  session_checked_ = true;
  const std::string name = remote::session_from_env();
  if (name.empty()) return;
  const std::string exe = server_exe();
  if (exe.empty()) {
    sim::log_debug("no npusim executable next to the runtime (NPUSIM_SERVER unset): IPC objects "
                   "are shared within this process only");
    return;
  }
  auto registry = std::make_unique<RemoteIpcRegistry>(name, exe);
  install_ipc_codecs(*registry);
  registry->set_on_connect([](remote::Link& link) {
    link.set_drain_handler([] { Runtime::instance().drain_for_peer(); });
  });
  remote_ = registry.get();
  shared_sync_.set_registry(remote_);
  ipc_ = std::move(registry);
}

void Runtime::leave_session() {
  if (remote_ == nullptr) return;
  leaving_ = true;  // a drain waiting for the API lock gives up: the link's threads are joined
  remote_->disconnect();
  leaving_ = false;
}

void Runtime::drain_for_peer() {
  // The drain thread must not block on the API lock: aclFinalize holds it while it joins that
  // thread (leave_session).
  std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
  while (!lock.try_lock()) {
    if (leaving_) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!initialized_ || !backend_) return;
  catch_up(lock, ~SimTime{0});
}

void Runtime::poll_remote() {
  if (remote_ == nullptr || backend_ == nullptr) return;
  remote::Link* link = remote_->connected();
  if (link == nullptr) return;
  std::vector<SharedSync::Phantom> phantoms;
  std::string error;
  shared_sync_.take(*link, phantoms, error);
  for (SharedSync::Phantom& p : phantoms) submit_phantom(std::move(p));
}

bool Runtime::remote_stall(std::unique_lock<std::mutex>& lock, Describe what) {
  if (remote_ == nullptr || !shared_sync_.any()) return false;
  remote::Link* link = remote_->connected();
  if (link == nullptr) return false;
  std::vector<SharedSync::Phantom> phantoms;
  std::string error;
  std::size_t taken = 0;
  bool ok = shared_sync_.take(*link, phantoms, error, &taken);
  if (ok && taken == 0) {
    remote::WireOut w;
    link->send(remote::FrameType::kBlocked, w.u64(link->recorded_received()).bytes());
    lock.unlock();
    link->wait_push();
    lock.lock();
    link->send(remote::FrameType::kUnblocked, {});
    ok = shared_sync_.take(*link, phantoms, error);
  }
  if (!ok) {
    sim::log_error("deadlock: " + what() + ": " + error);
    return false;
  }
  for (SharedSync::Phantom& p : phantoms) submit_phantom(std::move(p));
  return true;
}

Runtime::Remote Runtime::remote_wait(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                                     Describe what) {
  remote::Link* link =
      remote_ != nullptr && shared_sync_.any() ? remote_->connected() : nullptr;
  if (link == nullptr || !others_wait_or_pass(thread)) return Remote::kNone;
  std::vector<SharedSync::Phantom> phantoms;
  std::string error;
  std::size_t taken = 0;
  bool ok = shared_sync_.take(*link, phantoms, error, &taken);
  if (ok && taken == 0) {
    const bool quiet = block_on_session(lock, thread, *link);
    ok = shared_sync_.take(*link, phantoms, error, &taken);
    if (ok && quiet && taken == 0) return Remote::kNone;
  }
  if (!ok) {
    sim::log_error("deadlock: " + what() + ": " + error);
    return Remote::kFailed;
  }
  for (SharedSync::Phantom& p : phantoms) submit_phantom(std::move(p));
  return Remote::kAgain;
}

// Every other host thread waits, or is passive (outside the runtime).
bool Runtime::others_wait_or_pass(const ThreadState& thread) const {
  for (const ThreadState* t : threads_.all()) {
    if (t != &thread && !t->waiting && !t->passive) return false;
  }
  return true;
}

// Blocked as far as the session can tell (a passive thread's next call is later in simulated
// time): the server learns it, and this thread waits for a push or a local thread's call. True
// when nothing came from anywhere until the hang timeout.
bool Runtime::block_on_session(std::unique_lock<std::mutex>& lock, ThreadState& thread,
                               remote::Link& link) {
  const HostThreads::Seen seen = threads_.seen();
  remote::WireOut w;
  link.send(remote::FrameType::kBlocked, w.u64(link.recorded_received()).bytes());
  threads_.enter_park(thread);
  const bool quiet = wait_push_or_call(lock, link, seen);
  threads_.leave_park(thread);
  link.send(remote::FrameType::kUnblocked, {});
  return quiet;
}

// Waits (without the lock) for a push of the server or a call of a local thread; true when none
// came before the hang timeout (park() then decides, and reports the hang).
bool Runtime::wait_push_or_call(std::unique_lock<std::mutex>& lock, remote::Link& link,
                                const HostThreads::Seen& seen) {
  const auto step = static_cast<int>(std::max(1.0, threads_.passive_ms() / 2));
  const auto hang_end = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(threads_.hang_timeout_seconds()));
  for (;;) {
    lock.unlock();
    const bool pushed = link.wait_push_for(step);
    lock.lock();
    if (pushed || threads_.changed_since(seen)) return false;
    if (std::chrono::steady_clock::now() >= hang_end) return true;
  }
}

void Runtime::submit_phantom(SharedSync::Phantom p) {
  Task t;
  t.kind = TaskKind::kNop;
  t.device = p.device;
  t.stream = kRemoteStream;
  t.task_id = remote_task_seq_++ & 0xFFFFu;
  t.submit_at = std::max(backend_->now(), p.at);
  t.name = std::move(p.name);
  t.done = [apply = std::move(p.apply)](const TaskOutcome& r) {
    if (!r.discarded) apply();
  };
  backend_->submit(std::move(t));
}


}  // namespace npusim::rt
