// SPDX-License-Identifier: Apache-2.0
// The session server's state (issue 14; docs/multiprocess.md): the machine-wide registry of
// shared objects, the fan-out of records of shared events and notifies, the drains that make one
// process's device writes visible to another, and the detection of a session where every process
// waits on another (a deadlock, or a peer that died). Plain C++: Server::run (session.h) feeds it
// frames and sends what it returns; the tests drive it directly.
//
// Rules:
//  - Registry: as LocalIpcRegistry (runtime/core/ipc_registry.h) with the caller's pid taken from the
//    socket (SO_PEERCRED), never from the request. An export carries an opaque description and
//    at most one file descriptor (a memfd of device pages), which the hub keeps and hands to each
//    importer. An exporter that leaves without withdrawing keeps its exports: imports already
//    made stay valid, new imports of memory still work (the hub holds the pages' fd).
//  - Events and notifies exported through the hub are "shared": whoever holds one (the exporter
//    and every importing process) reports each completed record (kRecord, with its simulated
//    time); the hub forwards it to the other holders (kRecorded). An import of an event carries
//    the latest record's time so far.
//  - Memory and event imports first drain the exporter (kDrain / kDrainAck): its device finishes
//    what its host submitted, so the importer reads what the exporter's earlier work wrote and
//    sees the event's records issued before the export. No drain is asked of a process that waits
//    for a reply of its own (it cannot act on it meanwhile). The importer becomes a holder when
//    it is answered: what was recorded until then is in the answer, the rest is forwarded.
//  - Deadlock: a process whose host waits for another process says kBlocked (with the count of
//    kRecorded it has received, so a block that crossed a forward in flight is ignored). When
//    every connected process is blocked, every blocked process gets kDeadlock (and the pids lost
//    on the way) once that has lasted `lost_grace_ms` of wall time after a process was lost
//    (crashed, killed), else `wait_ms`: a process of the session connects only at its first
//    export or import, so a peer that has not done that yet (still starting, polling a file) is
//    given time to arrive.
//  - Extensions (issue 22): a library serves its own range of frame types by registering a
//    HubExtension (register_hub_extension); the hub hands it the frames of that range it does
//    not interpret, tells it when a client blocks or leaves, and lets it push frames and ask
//    about clients. HCCL's communication domains are one (runtime/hccl/hub_domains.h), which
//    `npusim serve` registers.
//  - Limits (issue 23): every field is checked before anything is allocated for it; a request
//    beyond a limit is answered kNotPermitted (with a reason where the reply has room), a
//    message without reply is ignored. A frame never throws out of frame().
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "runtime/session/session.h"

namespace npusim::rt::remote {

/// A frame for a client (by socket), possibly with a descriptor to pass (not owned).
struct Outgoing {
  int client = -1;
  Frame frame;
  int pass_fd = -1;
};

/// What one client may make the hub hold.
struct HubLimits {
  static constexpr std::uint64_t kMaxRanks = 65536;          // of an HCCL domain
  static constexpr std::size_t kMaxDomains = 65536;          // HCCL domains at once
  static constexpr std::size_t kMaxObjects = 1u << 20;       // exports at once
  static constexpr std::size_t kMaxDescription = 64u << 10;  // bytes of an export's description
  static constexpr std::size_t kMaxAllowed = 65536;          // pids whitelisted for one export
  static constexpr std::uint8_t kMaxKind = 3;                // IpcKind values (ipc_registry.h)
};

class Hub;

/// A library's part of the session server: the frames of its own type range.
class HubExtension {
 public:
  using Clock = std::chrono::steady_clock;
  virtual ~HubExtension() = default;
  /// A frame of the extension's range from a connected `client`; `fd` (-1: none) is the
  /// extension's to keep or close.
  virtual void frame(Hub& hub, int client, const Frame& f, int fd, std::vector<Outgoing>& out) = 0;
  /// A client has just become blocked (kBlocked).
  virtual void blocked(Hub& hub, std::vector<Outgoing>& out) = 0;
  /// `client` has left (the hub no longer knows it).
  virtual void left(Hub& hub, int client, std::vector<Outgoing>& out) = 0;
  /// Wall time passes (before the hub's own deadlock check).
  virtual void tick(Hub& hub, Clock::time_point now, std::vector<Outgoing>& out) = 0;
  /// How long poll() may sleep before tick() has something to do for it (-1: no limit).
  virtual int poll_timeout_ms(Clock::time_point now) const = 0;
};

using HubExtensionFactory = std::function<std::unique_ptr<HubExtension>()>;
/// Every Hub made afterwards in this process gets an extension from `make` for the frame types
/// first..last (inclusive).
void register_hub_extension(std::uint32_t first, std::uint32_t last, HubExtensionFactory make);

class Hub {
 public:
  using Clock = std::chrono::steady_clock;
  explicit Hub(int wait_ms = 10000, int lost_grace_ms = 300);
  ~Hub();
  Hub(const Hub&) = delete;
  Hub& operator=(const Hub&) = delete;

  void joined(int client, pid_t pid, const std::string& program);
  /// `lost`: the socket closed without kBye.
  void left(int client, bool lost, std::vector<Outgoing>& out);
  /// A frame from `client`; `fd` is a descriptor that came with it (the hub takes it) or -1.
  void frame(int client, const Frame& f, int fd, std::vector<Outgoing>& out);
  /// Deadlock detection over wall time: call when poll() times out or after frames.
  void tick(Clock::time_point now, std::vector<Outgoing>& out);
  /// How long poll() may sleep before tick() has something to decide (-1: no limit).
  int poll_timeout_ms(Clock::time_point now) const;
  int deadlock_timeout_ms(Clock::time_point now) const;

  std::size_t exports() const { return objects_.size(); }

  /// Adds an extension for frame types first..last (besides the registered ones).
  void add_extension(std::uint32_t first, std::uint32_t last, std::unique_ptr<HubExtension> ext);

  // For extensions.
  void reply(int client, std::uint64_t req, const WireOut& body, std::vector<Outgoing>& out,
             int pass_fd = -1);
  /// A frame for `client` that ends its block (it counts in kBlocked's "pushes received": the
  /// client's Link must count its type, as it counts kRecorded, kHcclMembers and kHcclBatch);
  /// nothing when the client is not connected.
  void push(int client, Frame f, std::vector<Outgoing>& out);
  /// Something happened: the wait before a deadlock is declared starts again.
  void activity() { all_blocked_ = false; }
  /// A new machine-wide id (exports and extensions share one space).
  std::uint64_t new_id() { return next_id_++; }
  bool has_client(int client) const { return clients_.count(client) != 0; }
  bool client_blocked(int client) const;
  pid_t client_pid(int client) const;

 private:
  struct Client {
    pid_t pid = 0;
    std::string program;
    bool blocked = false;
    std::uint64_t forwarded = 0;  // kRecorded sent to it
    std::uint64_t waiting_drain = 0;  // a request of its own waits for a drain (its token)
  };
  struct Object {
    std::uint8_t kind = 0;
    pid_t owner = 0;
    int owner_client = -1;  // -1 once the owner left
    bool check_pid = true;
    std::set<pid_t> allowed;
    std::map<pid_t, std::size_t> imports;
    std::string description;
    int fd = -1;
    std::set<int> holders;  // clients that hold a shared event/notify
    std::uint64_t records = 0;
    std::int64_t last_time = -1;
  };
  struct PendingImport {
    int client = -1;
    std::uint64_t req = 0;
    std::uint64_t id = 0;
  };

  struct Extension {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
    std::unique_ptr<HubExtension> ext;
  };
  void publish(int client, Client& me, WireIn& in, int fd, std::vector<Outgoing>& out);
  void record(int client, Client& me, WireIn& in, std::vector<Outgoing>& out);
  HubExtension* extension_for(FrameType type);

  void answer_import(int client, std::uint64_t req, std::uint64_t id, std::vector<Outgoing>& out);
  void own_frame(int client, Client& me, const Frame& f, int fd, std::vector<Outgoing>& out);
  struct KeyedRequest {
    std::uint64_t req = 0;
    std::uint64_t id = 0;
    std::uint8_t kind = 0;
    Object* object = nullptr;  // null: no such object of that kind
  };
  KeyedRequest keyed(WireIn& in);
  void answer(int client, std::uint64_t req, std::uint8_t status, std::vector<Outgoing>& out);
  void allow(int client, const Client& me, WireIn& in, std::vector<Outgoing>& out);
  void import_object(int client, Client& me, WireIn& in, std::vector<Outgoing>& out);
  void close_import(int client, const Client& me, WireIn& in, std::vector<Outgoing>& out);
  void withdraw(const Client& me, std::uint64_t id);
  void withdraw_all(const Client& me);
  void blocked(Client& me, std::uint64_t seen_forwarded, std::vector<Outgoing>& out);
  void unblocked(Client& me);
  void drain_ack(int client, std::uint64_t token, std::vector<Outgoing>& out);
  void resume_import(const PendingImport& p, std::vector<Outgoing>& out);
  void announce_lost(const Client& gone, std::vector<Outgoing>& out);
  void settle_drains_of(int client, std::vector<Outgoing>& out);
  Object* find(std::uint64_t id, std::uint8_t kind);
  void erase(std::uint64_t id);
  void deadlock_check(Clock::time_point now, std::vector<Outgoing>& out);
  bool every_client_blocked() const;
  void report_deadlock(std::vector<Outgoing>& out);
  bool publishable(const Object& o) const;

  int grace_ms() const { return lost_.empty() ? wait_ms_ : lost_grace_ms_; }
  int wait_ms_;
  int lost_grace_ms_;
  std::vector<Extension> extensions_;
  std::map<int, Client> clients_;
  std::map<std::uint64_t, Object> objects_;
  std::map<std::uint64_t, PendingImport> drains_;  // by token
  std::vector<std::string> lost_;                  // "pid (program)" of clients lost so far
  std::uint64_t next_id_ = 1;
  std::uint64_t next_token_ = 1;
  bool all_blocked_ = false;
  Clock::time_point all_blocked_since_{};
};

}  // namespace npusim::rt::remote
