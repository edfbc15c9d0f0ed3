// SPDX-License-Identifier: Apache-2.0
// The runtime as a client of its session's server (issue 14; docs/multiprocess.md): the
// IpcRegistry that lives in the server, and the cross-process synchronisation of shared events
// and notifies. Plain C++ (no simulator).
//
// The session: NPUSIM_SESSION names it ("default" when unset; "off" keeps everything in the
// process). The connection is made at the first registry call that needs it (an export, an
// import), starting `npusim serve` when nobody serves the session; a program that shares nothing
// never connects and pays nothing.
//
// Time (conservative, SimBricks-style, on demand): each process simulates the devices it uses on
// its own engine. What crosses processes is ordered by simulated time:
//  - a record of a shared event or notify that completes here is sent with its simulated time;
//    another holder applies it as a task completing at that time on its own engine (or at its
//    current time when that is later): streams waiting for it go on from there;
//  - a host wait that has nothing left to simulate while this process holds shared objects
//    blocks until another process's record arrives (its simulated time decides, not when it
//    arrives); the server reports a deadlock when every process of the session is blocked so;
//  - an import of memory first makes the exporter finish the device work its host has submitted,
//    so the importer sees what that work wrote.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/core/ipc_registry.h"
#include "runtime/session/session.h"
#include "sim/quantity.h"

namespace npusim::rt {

namespace remote {
class Link;
}

struct EventState;
struct NotifyState;
class Runtime;

/// How one kind of shared object travels (ipc.cpp and vmm.cpp provide them).
struct IpcWire {
  std::string description;
  int fd = -1;                  // a descriptor sent with it
  bool owned_fd = false;        // the sender closes fd once sent
  std::uint64_t records = 0;    // events: records so far
  std::int64_t last_time = -1;  // events: simulated time of the latest (ps; -1: none)
};
class IpcCodec {
 public:
  virtual ~IpcCodec() = default;
  /// The exporter's side: what an importer in another process needs.
  virtual IpcWire describe(const IpcObject& object) = 0;
  /// The export got machine-wide id `id` (events and notifies become shared).
  virtual void published(const IpcObject& object, std::uint64_t id) = 0;
  /// The importer's side, in another process: its own object for `id`. Takes wire.fd.
  /// Returns null (with a logged reason) when it cannot be made here.
  virtual IpcObject materialize(std::uint64_t id, const IpcWire& wire) = 0;
};

/// An IpcCodec of objects of type T: describe() and published() give the codec the object as a
/// T; write() gets the writer of its description and the rest of the wire (descriptor, event
/// records).
template <class T>
class IpcCodecOf : public IpcCodec {
 public:
  IpcWire describe(const IpcObject& object) final {
    IpcWire w;
    remote::WireOut out;
    write(*std::static_pointer_cast<T>(object), out, w);
    w.description = out.bytes();
    return w;
  }
  void published(const IpcObject& object, std::uint64_t id) final {
    on_published(*std::static_pointer_cast<T>(object), id);
  }

 protected:
  virtual void write(const T& x, remote::WireOut& out, IpcWire& w) = 0;
  /// The export got machine-wide id `id` (by default nothing follows from it).
  virtual void on_published(const T&, std::uint64_t) {}
};

/// The registry of a session process: exports and imports go through the server; without a
/// server (none can be started) it works as LocalIpcRegistry and says so once.
class RemoteIpcRegistry final : public IpcRegistry {
 public:
  RemoteIpcRegistry(std::string session, std::string server_exe);
  ~RemoteIpcRegistry() override;
  void set_codec(IpcKind kind, IpcCodec* codec) { codecs_[static_cast<int>(kind)] = codec; }

  std::uint64_t publish(IpcKind kind, std::int32_t owner_pid, bool check_pid,
                        IpcObject object) override;
  IpcStatus allow(std::uint64_t id, IpcKind kind, std::int32_t caller_pid,
                  const std::vector<std::int32_t>& pids) override;
  IpcStatus import(std::uint64_t id, IpcKind kind, std::int32_t importer_pid,
                   IpcObject* object) override;
  IpcStatus close(std::uint64_t id, IpcKind kind, std::int32_t pid) override;
  void withdraw(std::uint64_t id) override;
  void withdraw_all(std::int32_t owner_pid) override;
  std::size_t imports(std::uint64_t id) const override;

  /// The connection (made on first use); null when there is none.
  remote::Link* link();
  /// Already connected (no attempt to connect).
  remote::Link* connected() const { return link_.get(); }
  /// Called with each new connection (the runtime installs its drain handler).
  void set_on_connect(std::function<void(remote::Link&)> f) { on_connect_ = std::move(f); }
  /// Leaves the session (aclFinalize): imports made here are dropped; the next call reconnects.
  void disconnect();

 private:
  std::string session_;
  std::string server_exe_;
  std::unique_ptr<remote::Link> link_;
  bool tried_ = false;
  std::function<void(remote::Link&)> on_connect_;
  LocalIpcRegistry local_;  // without a server
  IpcCodec* codecs_[4] = {};
  std::map<std::uint64_t, IpcObject> exported_;  // this process's exports, by id
  struct Imported {
    IpcObject object;
    std::size_t count = 0;
  };
  std::map<std::uint64_t, Imported> imported_;  // other processes' objects imported here
  IpcStatus import_own(std::uint64_t id, const IpcWire& wire, IpcObject* object);
  IpcStatus import_foreign(std::uint64_t id, IpcKind kind, std::int32_t importer_pid,
                           const IpcWire& wire, IpcObject* object);
  std::vector<IpcObject> retired_;               // closed imports, kept until aclFinalize
};

/// Cross-process synchronisation of shared events and notifies (one per process, in Runtime).
class SharedSync {
 public:
  void track_event(std::uint64_t id, const std::shared_ptr<EventState>& state, std::uint32_t device);
  void track_notify(std::uint64_t id, const std::shared_ptr<NotifyState>& state,
                    std::uint32_t device);
  /// Whether a live shared object could be recorded by another process.
  bool any() ;
  /// A record of shared object `id` completed here at simulated time `t`.
  void recorded_here(std::uint64_t id, sim::SimTime t);

  struct Phantom {  // a record of another process to apply on this process's engine
    std::uint32_t device = 0;
    sim::SimTime at = 0;
    std::function<void()> apply;
    std::string name;
  };
  /// A record of shared event `ev` that another process completed at `t`: counted as the event's
  /// next generation, marked done (with time t) by the returned phantom.
  static Phantom event_record(const std::shared_ptr<EventState>& ev, sim::SimTime t,
                              std::uint32_t device, std::string name);
  /// Turns the link's pushes into phantoms; false (with `error`) on a deadlock or a lost server.
  /// `taken` (may be null) receives how many pushes there were (a push that makes no phantom
  /// may still have changed what a host wait waits for).
  bool take(remote::Link& link, std::vector<Phantom>& out, std::string& error,
            std::size_t* taken = nullptr);

  /// Cross-process state other than events and notifies (HCCL domains, runtime/hccl/comm.h):
  /// while any is held, any() is true; its pushes (kHcclMembers, kHcclBatch) go to `handler`,
  /// which may add phantoms.
  using PushHandler = std::function<void(std::uint32_t kind, const std::string& payload,
                                         std::vector<Phantom>& out)>;
  void hold() { ++holders_; }
  void release() { --holders_; }
  void set_push_handler(PushHandler handler) { push_handler_ = std::move(handler); }

  void set_registry(RemoteIpcRegistry* registry) { registry_ = registry; }
  RemoteIpcRegistry* registry() const { return registry_; }

 private:
  struct Tracked {
    std::weak_ptr<EventState> event;
    std::weak_ptr<NotifyState> notify;
    std::uint32_t device = 0;
  };
  std::multimap<std::uint64_t, Tracked> tracked_;
  void take_recorded(const std::string& payload, std::vector<Phantom>& out);
  bool take_push(std::uint32_t kind, const std::string& payload, std::vector<Phantom>& out,
                 std::string& error);
  RemoteIpcRegistry* registry_ = nullptr;
  int holders_ = 0;
  PushHandler push_handler_;
};

}  // namespace npusim::rt
