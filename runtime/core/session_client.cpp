// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/session_client.h"

#include <unistd.h>

#include "runtime/core/event.h"
#include "runtime/core/notify.h"
#include "runtime/session/link.h"
#include "runtime/session/session.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

std::string program_name() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "?";
  std::string path(buf, static_cast<std::size_t>(n));
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

RemoteIpcRegistry::RemoteIpcRegistry(std::string session, std::string server_exe)
    : session_(std::move(session)), server_exe_(std::move(server_exe)) {}

RemoteIpcRegistry::~RemoteIpcRegistry() = default;

remote::Link* RemoteIpcRegistry::link() {
  if (link_ || tried_) return link_.get();
  tried_ = true;
  std::uint32_t number = 0;
  std::string error;
  const int fd = remote::connect_or_start(session_, server_exe_, program_name(), number, error);
  if (fd < 0) {
    sim::log_warn("no session server (" + error + "): IPC objects are shared within this process "
                  "only");
    return nullptr;
  }
  link_ = std::make_unique<remote::Link>(fd);
  if (on_connect_) on_connect_(*link_);
  sim::log_debug("session '" + session_ + "': this process is client " + std::to_string(number));
  return link_.get();
}

namespace {

IpcStatus status_of(std::uint8_t v) {
  return v <= static_cast<std::uint8_t>(IpcStatus::kNotPermitted) ? static_cast<IpcStatus>(v)
                                                                   : IpcStatus::kUnknownKey;
}

}  // namespace

std::uint64_t RemoteIpcRegistry::publish(IpcKind kind, std::int32_t owner_pid, bool check_pid,
                                         IpcObject object) {
  remote::Link* l = link();
  IpcCodec* codec = codecs_[static_cast<int>(kind)];
  if (l == nullptr || codec == nullptr) return local_.publish(kind, owner_pid, check_pid, object);
  const IpcWire wire = codec->describe(object);
  remote::WireOut w;
  w.u8(static_cast<std::uint8_t>(kind)).u8(check_pid ? 1 : 0).u64(wire.records).i64(wire.last_time);
  w.str(wire.description);
  std::string reply;
  const bool sent = l->request(remote::FrameType::kPublish, w.bytes(), wire.fd, reply);
  if (wire.owned_fd && wire.fd >= 0) ::close(wire.fd);
  if (!sent) {
    sim::log_error("the session server is gone: the export stays in this process");
    return local_.publish(kind, owner_pid, check_pid, object);
  }
  remote::WireIn in(reply);
  if (in.u8() != 0) {
    sim::log_error("the session server refused the export (beyond its limits): it stays in this "
                   "process");
    return local_.publish(kind, owner_pid, check_pid, object);
  }
  const std::uint64_t id = in.u64();
  exported_[id] = object;
  codec->published(object, id);
  return id;
}

IpcStatus RemoteIpcRegistry::allow(std::uint64_t id, IpcKind kind, std::int32_t caller_pid,
                                   const std::vector<std::int32_t>& pids) {
  remote::Link* l = connected();
  if (l == nullptr) return local_.allow(id, kind, caller_pid, pids);
  remote::WireOut w;
  w.u64(id).u8(static_cast<std::uint8_t>(kind));
  for (std::int32_t p : pids) w.i32(p);
  std::string reply;
  if (!l->request(remote::FrameType::kAllow, w.bytes(), -1, reply)) return IpcStatus::kUnknownKey;
  remote::WireIn in(reply);
  return status_of(in.u8());
}

namespace {

// How an object travels, after its owner in the server's answer to an import.
void read_wire(remote::WireIn& in, int fd, IpcWire& wire) {
  wire.records = in.u64();
  wire.last_time = in.i64();
  wire.description = in.str();
  wire.fd = fd;
}

// Asks the server for object `id`: its owner and how it travels (`wire`, with the descriptor
// that came along).
IpcStatus request_import(remote::Link& l, std::uint64_t id, IpcKind kind, IpcWire& wire,
                         std::int32_t& owner) {
  remote::WireOut w;
  w.u64(id).u8(static_cast<std::uint8_t>(kind));
  std::string reply;
  int fd = -1;
  if (!l.request(remote::FrameType::kImport, w.bytes(), -1, reply, &fd)) {
    return IpcStatus::kUnknownKey;
  }
  remote::WireIn in(reply);
  const IpcStatus st = status_of(in.u8());
  if (st != IpcStatus::kOk) {
    if (fd >= 0) ::close(fd);
    return st;
  }
  owner = in.i32();
  read_wire(in, fd, wire);
  return IpcStatus::kOk;
}

}  // namespace

IpcStatus RemoteIpcRegistry::import(std::uint64_t id, IpcKind kind, std::int32_t importer_pid,
                                    IpcObject* object) {
  remote::Link* l = link();
  if (l == nullptr) return local_.import(id, kind, importer_pid, object);
  IpcWire wire;
  std::int32_t owner = 0;
  const IpcStatus st = request_import(*l, id, kind, wire, owner);
  if (st != IpcStatus::kOk) return st;
  if (owner == static_cast<std::int32_t>(::getpid())) return import_own(id, wire, object);
  return import_foreign(id, kind, importer_pid, wire, object);
}

// An import of this process's own export: the object itself (no descriptor needed).
IpcStatus RemoteIpcRegistry::import_own(std::uint64_t id, const IpcWire& wire,
                                        IpcObject* object) {
  if (wire.fd >= 0) ::close(wire.fd);
  auto it = exported_.find(id);
  if (it == exported_.end()) return IpcStatus::kUnknownKey;
  *object = it->second;
  return IpcStatus::kOk;
}

// Another process's object: materialised by its kind's codec on the first import, counted on.
IpcStatus RemoteIpcRegistry::import_foreign(std::uint64_t id, IpcKind kind,
                                            std::int32_t importer_pid, const IpcWire& wire,
                                            IpcObject* object) {
  Imported& imp = imported_[id];
  if (!imp.object) {
    IpcCodec* codec = codecs_[static_cast<int>(kind)];
    imp.object = codec != nullptr ? codec->materialize(id, wire) : nullptr;
    if (!imp.object) {
      if (codec == nullptr && wire.fd >= 0) ::close(wire.fd);
      imported_.erase(id);
      close(id, kind, importer_pid);
      return IpcStatus::kUnknownKey;
    }
  } else if (wire.fd >= 0) {
    ::close(wire.fd);
  }
  ++imp.count;
  *object = imp.object;
  return IpcStatus::kOk;
}

IpcStatus RemoteIpcRegistry::close(std::uint64_t id, IpcKind kind, std::int32_t pid) {
  remote::Link* l = connected();
  if (l == nullptr) return local_.close(id, kind, pid);
  remote::WireOut w;
  w.u64(id).u8(static_cast<std::uint8_t>(kind));
  std::string reply;
  if (!l->request(remote::FrameType::kClose, w.bytes(), -1, reply)) return IpcStatus::kUnknownKey;
  remote::WireIn in(reply);
  const IpcStatus st = status_of(in.u8());
  if (st != IpcStatus::kOk) return st;
  auto it = imported_.find(id);
  if (it != imported_.end()) {
    if (--it->second.count == 0) {
      // The last import here. Its memory stays mapped until aclFinalize: device work submitted
      // before the close may still run on it (the simulated device runs behind the host).
      retired_.push_back(std::move(it->second.object));
      imported_.erase(it);
    }
  } else {
    exported_.erase(id);
  }
  return IpcStatus::kOk;
}

void RemoteIpcRegistry::disconnect() {
  imported_.clear();
  retired_.clear();
  exported_.clear();
  link_.reset();
  tried_ = false;
}

void RemoteIpcRegistry::withdraw(std::uint64_t id) {
  remote::Link* l = connected();
  if (l == nullptr) {
    local_.withdraw(id);
    return;
  }
  remote::WireOut w;
  l->send(remote::FrameType::kWithdraw, w.u64(id).bytes());
  exported_.erase(id);
}

void RemoteIpcRegistry::withdraw_all(std::int32_t owner_pid) {
  remote::Link* l = connected();
  if (l == nullptr) {
    local_.withdraw_all(owner_pid);
    return;
  }
  l->send(remote::FrameType::kWithdrawAll, {});
  exported_.clear();
}

std::size_t RemoteIpcRegistry::imports(std::uint64_t id) const {
  if (connected() == nullptr) return local_.imports(id);
  auto it = imported_.find(id);
  return it == imported_.end() ? 0 : it->second.count;
}

// ---- SharedSync ----

void SharedSync::track_event(std::uint64_t id, const std::shared_ptr<EventState>& state,
                             std::uint32_t device) {
  state->shared = id;
  tracked_.emplace(id, Tracked{state, {}, device});
}

void SharedSync::track_notify(std::uint64_t id, const std::shared_ptr<NotifyState>& state,
                              std::uint32_t device) {
  state->shared = id;
  tracked_.emplace(id, Tracked{{}, state, device});
}

bool SharedSync::any() {
  if (holders_ > 0) return true;
  for (auto it = tracked_.begin(); it != tracked_.end();) {
    if (it->second.event.expired() && it->second.notify.expired()) {
      it = tracked_.erase(it);
    } else {
      return true;
    }
  }
  return false;
}

void SharedSync::recorded_here(std::uint64_t id, sim::SimTime t) {
  remote::Link* l = registry_ != nullptr ? registry_->connected() : nullptr;
  if (l == nullptr) return;
  remote::WireOut w;
  l->send(remote::FrameType::kRecord, w.u64(id).i64(static_cast<std::int64_t>(t)).bytes());
}

SharedSync::Phantom SharedSync::event_record(const std::shared_ptr<EventState>& ev, sim::SimTime t,
                                             std::uint32_t device, std::string name) {
  const std::uint64_t generation = ++ev->recorded;
  auto apply = [ev, generation, t] {
    if (generation <= ev->done) return;
    ev->done = generation;
    ev->done_time = t;
  };
  return {device, t, std::move(apply), std::move(name)};
}

// kRecorded: another process recorded a shared event or notify tracked here.
void SharedSync::take_recorded(const std::string& payload, std::vector<Phantom>& out) {
  remote::WireIn in(payload);
  const std::uint64_t id = in.u64();
  const auto t = static_cast<sim::SimTime>(in.i64());
  auto range = tracked_.equal_range(id);
  for (auto it = range.first; it != range.second; ++it) {
    if (auto ev = it->second.event.lock()) {
      out.push_back(event_record(ev, t, it->second.device, "IPC_EVENT_RECORD"));
    } else if (auto n = it->second.notify.lock()) {
      out.push_back({it->second.device, t, [n] { n->set = true; }, "IPC_NOTIFY_RECORD"});
    }
  }
}

// One push of the server; false (with `error`) on a deadlock or a lost server.
namespace {

void warn_peer_lost(const std::string& payload) {
  remote::WireIn in(payload);
  const std::int32_t pid = in.i32();
  sim::log_warn("process " + std::to_string(pid) + " (" + in.str() +
                ") of the session ended without cleaning up");
}

std::string deadlock_error(const std::string& payload) {
  remote::WireIn in(payload);
  const std::string lost = in.str();
  return "every process of the session waits for another" +
         (lost.empty() ? std::string() : " (processes lost: " + lost + ")");
}

}  // namespace

bool SharedSync::take_push(std::uint32_t kind, const std::string& payload,
                           std::vector<Phantom>& out, std::string& error) {
  using remote::FrameType;
  const auto type = static_cast<FrameType>(kind);
  if (type == FrameType::kRecorded) {
    take_recorded(payload, out);
  } else if (type == FrameType::kHcclMembers || type == FrameType::kHcclBatch) {
    if (push_handler_) push_handler_(kind, payload, out);
  } else if (type == FrameType::kPeerLost) {
    warn_peer_lost(payload);
  } else {
    error = type == FrameType::kDeadlock ? deadlock_error(payload) : "the session server is gone";
    return false;
  }
  return true;
}

bool SharedSync::take(remote::Link& link, std::vector<Phantom>& out, std::string& error,
                      std::size_t* taken) {
  bool ok = true;
  std::vector<remote::Link::Push> pushes = link.take_pushes();
  if (taken != nullptr) *taken = pushes.size();
  for (remote::Link::Push& p : pushes) {
    if (!take_push(p.kind, p.payload, out, error)) ok = false;
  }
  // Its kServerGone was taken by an earlier wait: every later wait on the session fails too,
  // at once (nothing can come any more).
  if (pushes.empty() && link.gone()) {
    error = "the session server is gone";
    ok = false;
  }
  return ok;
}

}  // namespace npusim::rt
