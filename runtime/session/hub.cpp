// SPDX-License-Identifier: Apache-2.0
#include "runtime/session/hub.h"

#include <unistd.h>

#include <algorithm>

namespace npusim::rt::remote {
namespace {

// IpcKind (runtime/core/ipc_registry.h) and IpcStatus values as they travel (memory 0, physical 1).
constexpr std::uint8_t kKindEvent = 2;
constexpr std::uint8_t kKindNotify = 3;
constexpr std::uint8_t kOk = 0;
constexpr std::uint8_t kUnknownKey = 1;
constexpr std::uint8_t kNotOwner = 2;
constexpr std::uint8_t kNotPermitted = 3;

bool is_sync(std::uint8_t kind) { return kind == kKindEvent || kind == kKindNotify; }

}  // namespace

Hub::~Hub() {
  for (auto& [id, o] : objects_) {
    if (o.fd >= 0) ::close(o.fd);
  }
}

namespace {

struct Registered {
  std::uint32_t first;
  std::uint32_t last;
  HubExtensionFactory make;
};

std::vector<Registered>& registered() {
  static std::vector<Registered> list;
  return list;
}

}  // namespace

void register_hub_extension(std::uint32_t first, std::uint32_t last, HubExtensionFactory make) {
  registered().push_back({first, last, std::move(make)});
}

Hub::Hub(int wait_ms, int lost_grace_ms) : wait_ms_(wait_ms), lost_grace_ms_(lost_grace_ms) {
  for (const Registered& r : registered()) extensions_.push_back({r.first, r.last, r.make()});
}

void Hub::add_extension(std::uint32_t first, std::uint32_t last,
                        std::unique_ptr<HubExtension> ext) {
  extensions_.push_back({first, last, std::move(ext)});
}

HubExtension* Hub::extension_for(FrameType type) {
  const auto t = static_cast<std::uint32_t>(type);
  for (Extension& e : extensions_) {
    if (t >= e.first && t <= e.last) return e.ext.get();
  }
  return nullptr;
}

void Hub::push(int client, Frame f, std::vector<Outgoing>& out) {
  auto it = clients_.find(client);
  if (it == clients_.end()) return;
  out.push_back({client, std::move(f), -1});
  ++it->second.forwarded;
  it->second.blocked = false;
}

bool Hub::client_blocked(int client) const {
  auto it = clients_.find(client);
  return it != clients_.end() && it->second.blocked;
}

pid_t Hub::client_pid(int client) const {
  auto it = clients_.find(client);
  return it == clients_.end() ? 0 : it->second.pid;
}

void Hub::joined(int client, pid_t pid, const std::string& program) {
  Client c;
  c.pid = pid;
  c.program = program;
  clients_[client] = c;
  all_blocked_ = false;
}

Hub::Object* Hub::find(std::uint64_t id, std::uint8_t kind) {
  auto it = objects_.find(id);
  if (it == objects_.end() || it->second.kind != kind) return nullptr;
  return &it->second;
}

void Hub::erase(std::uint64_t id) {
  auto it = objects_.find(id);
  if (it == objects_.end()) return;
  if (it->second.fd >= 0) ::close(it->second.fd);
  objects_.erase(it);
}

void Hub::reply(int client, std::uint64_t req, const WireOut& body, std::vector<Outgoing>& out,
                int pass_fd) {
  WireOut w;
  w.u64(req);
  out.push_back({client, {FrameType::kReply, w.bytes() + body.bytes()}, pass_fd});
}

void Hub::answer_import(int client, std::uint64_t req, std::uint64_t id,
                        std::vector<Outgoing>& out) {
  auto it = objects_.find(id);
  WireOut w;
  if (it == objects_.end()) {
    reply(client, req, w.u8(kUnknownKey), out);
    return;
  }
  Object& o = it->second;
  // A holder from now on: records completed until now (during the drain too) are in the answer.
  if (is_sync(o.kind)) o.holders.insert(client);
  w.u8(kOk).i32(o.owner).u64(o.records).i64(o.last_time).str(o.description);
  reply(client, req, w, out, o.fd);
}

// Within the hub's limits: a known kind, a bounded description, room for another object.
bool Hub::publishable(const Object& o) const {
  return o.kind <= HubLimits::kMaxKind && o.description.size() <= HubLimits::kMaxDescription &&
         objects_.size() < HubLimits::kMaxObjects;
}

void Hub::publish(int client, Client& me, WireIn& in, int fd, std::vector<Outgoing>& out) {
  const std::uint64_t req = in.u64();
  Object o;
  o.kind = in.u8();
  o.check_pid = in.u8() != 0;
  o.records = in.u64();
  o.last_time = in.i64();
  o.description = in.str();
  WireOut w;
  if (!in.ok() || !publishable(o)) {
    if (fd >= 0) ::close(fd);
    reply(client, req, w.u8(kNotPermitted), out);
    return;
  }
  o.owner = me.pid;
  o.owner_client = client;
  o.fd = fd;
  if (is_sync(o.kind)) o.holders.insert(client);
  const std::uint64_t id = next_id_++;
  objects_.emplace(id, std::move(o));
  reply(client, req, w.u8(kOk).u64(id), out);
}

void Hub::record(int client, Client& me, WireIn& in, std::vector<Outgoing>& out) {
  const std::uint64_t id = in.u64();
  const std::int64_t time = in.i64();
  auto it = objects_.find(id);
  // Only a holder of a shared event or notify records it.
  if (it == objects_.end() || it->second.holders.count(client) == 0) return;
  Object& o = it->second;
  ++o.records;
  o.last_time = time;
  for (int h : o.holders) {
    if (h == client) continue;
    auto hc = clients_.find(h);
    if (hc == clients_.end()) continue;
    WireOut w;
    w.u64(id).i64(time).i32(me.pid);
    out.push_back({h, {FrameType::kRecorded, w.bytes()}, -1});
    ++hc->second.forwarded;
    hc->second.blocked = false;
  }
  all_blocked_ = false;
}

void Hub::frame(int client, const Frame& f, int fd, std::vector<Outgoing>& out) {
  auto cit = clients_.find(client);
  if (cit == clients_.end()) {
    if (fd >= 0) ::close(fd);
    return;
  }
  Client& me = cit->second;
  if (HubExtension* ext = extension_for(f.type)) {
    ext->frame(*this, client, f, fd, out);
    return;
  }
  // Of the hub's own frames only an export carries a descriptor; any other is closed here.
  if (fd >= 0 && f.type != FrameType::kPublish) {
    ::close(fd);
    fd = -1;
  }
  own_frame(client, me, f, fd, out);
}

// The frames of the hub itself (not of an extension), one handler a type.
void Hub::own_frame(int client, Client& me, const Frame& f, int fd, std::vector<Outgoing>& out) {
  WireIn in(f.payload);
  switch (f.type) {
    case FrameType::kPublish: return publish(client, me, in, fd, out);
    case FrameType::kAllow: return allow(client, me, in, out);
    case FrameType::kImport: return import_object(client, me, in, out);
    case FrameType::kClose: return close_import(client, me, in, out);
    case FrameType::kWithdraw: return withdraw(me, in.u64());
    case FrameType::kWithdrawAll: return withdraw_all(me);
    case FrameType::kRecord: return record(client, me, in, out);
    case FrameType::kBlocked: return blocked(me, in.u64(), out);
    case FrameType::kUnblocked: return unblocked(me);
    case FrameType::kDrainAck: return drain_ack(client, in.u64(), out);
    default:
      if (fd >= 0) ::close(fd);
      return;
  }
}

void Hub::withdraw(const Client& me, std::uint64_t id) {
  auto it = objects_.find(id);
  if (it != objects_.end() && it->second.owner == me.pid) erase(id);
}

void Hub::withdraw_all(const Client& me) {
  std::vector<std::uint64_t> mine;
  for (const auto& [id, o] : objects_) {
    if (o.owner == me.pid) mine.push_back(id);
  }
  for (std::uint64_t id : mine) erase(id);
}

// A block sent before the client saw what was forwarded to it is stale: it wakes anyway.
void Hub::blocked(Client& me, std::uint64_t seen_forwarded, std::vector<Outgoing>& out) {
  if (seen_forwarded == me.forwarded) me.blocked = true;
  if (!me.blocked) return;
  for (Extension& e : extensions_) e.ext->blocked(*this, out);
}

void Hub::unblocked(Client& me) {
  me.blocked = false;
  all_blocked_ = false;
}

// Only the drained exporter acknowledges its drain; the import waiting for it is answered.
void Hub::drain_ack(int client, std::uint64_t token, std::vector<Outgoing>& out) {
  auto it = drains_.find(token);
  if (it == drains_.end()) return;
  auto obj = objects_.find(it->second.id);
  if (obj != objects_.end() && obj->second.owner_client != client) return;
  const PendingImport p = it->second;
  drains_.erase(it);
  resume_import(p, out);
}

// An import that waited for a drain: answered now, unless its requester left.
void Hub::resume_import(const PendingImport& p, std::vector<Outgoing>& out) {
  auto requester = clients_.find(p.client);
  if (requester == clients_.end()) return;
  requester->second.waiting_drain = 0;
  answer_import(p.client, p.req, p.id, out);
}

// The requests about one exported object start with req, id, kind; what the type adds follows.
Hub::KeyedRequest Hub::keyed(WireIn& in) {
  KeyedRequest k;
  k.req = in.u64();
  k.id = in.u64();
  k.kind = in.u8();
  k.object = find(k.id, k.kind);
  return k;
}

void Hub::answer(int client, std::uint64_t req, std::uint8_t status, std::vector<Outgoing>& out) {
  WireOut w;
  reply(client, req, w.u8(status), out);
}

// The owner lets the listed pids import the object.
void Hub::allow(int client, const Client& me, WireIn& in, std::vector<Outgoing>& out) {
  const KeyedRequest k = keyed(in);
  if (k.object == nullptr) return answer(client, k.req, kUnknownKey, out);
  if (k.object->owner != me.pid) return answer(client, k.req, kNotOwner, out);
  while (!in.done() && in.ok()) {
    const std::int32_t pid = in.i32();
    if (k.object->allowed.size() >= HubLimits::kMaxAllowed && k.object->allowed.count(pid) == 0) {
      return answer(client, k.req, kNotPermitted, out);
    }
    k.object->allowed.insert(pid);
  }
  answer(client, k.req, kOk, out);
}

// An importer drops one import; the owner closing it withdraws the object.
void Hub::close_import(int client, const Client& me, WireIn& in, std::vector<Outgoing>& out) {
  const KeyedRequest k = keyed(in);
  if (k.object == nullptr) return answer(client, k.req, kUnknownKey, out);
  auto imp = k.object->imports.find(me.pid);
  if (imp != k.object->imports.end()) {
    if (--imp->second == 0) k.object->imports.erase(imp);
  } else if (k.object->owner == me.pid) {
    erase(k.id);
  } else {
    return answer(client, k.req, kNotOwner, out);
  }
  answer(client, k.req, kOk, out);
}

// An import of memory first drains the exporter (its writes so far become visible); a notify,
// an exporter already draining for another import, or one importing its own object do not.
void Hub::import_object(int client, Client& me, WireIn& in, std::vector<Outgoing>& out) {
  const KeyedRequest k = keyed(in);
  if (k.object == nullptr) return answer(client, k.req, kUnknownKey, out);
  Object* o = k.object;
  if (o->check_pid && o->allowed.count(me.pid) == 0) {
    return answer(client, k.req, kNotPermitted, out);
  }
  ++o->imports[me.pid];
  auto owner = clients_.find(o->owner_client);
  if (k.kind != kKindNotify && owner != clients_.end() && o->owner_client != client &&
      owner->second.waiting_drain == 0) {
    const std::uint64_t token = next_token_++;
    drains_[token] = PendingImport{client, k.req, k.id};
    me.waiting_drain = token;
    WireOut t;
    out.push_back({o->owner_client, {FrameType::kDrain, t.u64(token).bytes()}, -1});
    return;
  }
  answer_import(client, k.req, k.id, out);
}

void Hub::left(int client, bool lost, std::vector<Outgoing>& out) {
  auto cit = clients_.find(client);
  if (cit == clients_.end()) return;
  const Client gone = cit->second;
  clients_.erase(cit);
  if (lost) announce_lost(gone, out);
  for (auto& [id, o] : objects_) {
    o.holders.erase(client);
    if (o.owner_client == client) o.owner_client = -1;
  }
  settle_drains_of(client, out);
  for (Extension& e : extensions_) e.ext->left(*this, client, out);
  all_blocked_ = false;
}

// The other clients learn that a process of the session died.
void Hub::announce_lost(const Client& gone, std::vector<Outgoing>& out) {
  lost_.push_back(std::to_string(gone.pid) + " (" + gone.program + ")");
  for (const auto& [fd, c] : clients_) {
    WireOut w;
    w.i32(gone.pid).str(gone.program);
    out.push_back({fd, {FrameType::kPeerLost, w.bytes()}, -1});
  }
}

// Imports waiting for the drain of a client that left are answered as they are (it cannot drain
// any more); its own pending imports are dropped.
void Hub::settle_drains_of(int client, std::vector<Outgoing>& out) {
  std::vector<std::uint64_t> done;
  for (const auto& [token, p] : drains_) {
    auto it = objects_.find(p.id);
    const bool from_gone = p.client == client;
    const bool to_gone = it == objects_.end() || it->second.owner_client == -1;
    if (from_gone || to_gone) done.push_back(token);
  }
  for (std::uint64_t token : done) {
    const PendingImport p = drains_[token];
    drains_.erase(token);
    resume_import(p, out);
  }
}

bool Hub::every_client_blocked() const {
  if (clients_.empty()) return false;
  for (const auto& [fd, c] : clients_) {
    if (!c.blocked) return false;
  }
  return true;
}

// Every client blocked for the grace time: each learns of the deadlock (and who was lost).
void Hub::deadlock_check(Clock::time_point now, std::vector<Outgoing>& out) {
  if (!every_client_blocked()) {
    all_blocked_ = false;
    return;
  }
  if (!all_blocked_) {
    all_blocked_ = true;
    all_blocked_since_ = now;
  }
  if (now - all_blocked_since_ < std::chrono::milliseconds(grace_ms())) return;
  report_deadlock(out);
}

void Hub::report_deadlock(std::vector<Outgoing>& out) {
  std::string lost;
  for (const std::string& l : lost_) lost += (lost.empty() ? "" : ", ") + l;
  for (auto& [fd, c] : clients_) {
    if (!c.blocked) continue;
    c.blocked = false;
    WireOut w;
    out.push_back({fd, {FrameType::kDeadlock, w.str(lost).bytes()}, -1});
  }
  all_blocked_ = false;
}

void Hub::tick(Clock::time_point now, std::vector<Outgoing>& out) {
  for (Extension& e : extensions_) e.ext->tick(*this, now, out);
  deadlock_check(now, out);
}

int Hub::poll_timeout_ms(Clock::time_point now) const {
  int t = deadlock_timeout_ms(now);
  for (const Extension& e : extensions_) {
    const int ext = e.ext->poll_timeout_ms(now);
    if (ext >= 0) t = t < 0 ? ext : std::min(t, ext);
  }
  return t;
}

int Hub::deadlock_timeout_ms(Clock::time_point now) const {
  bool any = false;
  bool all = !clients_.empty();
  for (const auto& [fd, c] : clients_) {
    any = any || c.blocked;
    all = all && c.blocked;
  }
  if (!any || !all) return -1;
  if (!all_blocked_) return 0;
  const auto left = std::chrono::milliseconds(grace_ms()) -
                    std::chrono::duration_cast<std::chrono::milliseconds>(now - all_blocked_since_);
  return left.count() < 0 ? 0 : static_cast<int>(left.count()) + 1;
}

}  // namespace npusim::rt::remote
