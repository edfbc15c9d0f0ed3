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

void Hub::publish(int client, Client& me, WireIn& in, int fd, std::vector<Outgoing>& out) {
  const std::uint64_t req = in.u64();
  Object o;
  o.kind = in.u8();
  o.check_pid = in.u8() != 0;
  o.records = in.u64();
  o.last_time = in.i64();
  o.description = in.str();
  WireOut w;
  if (!in.ok() || o.kind > HubLimits::kMaxKind ||
      o.description.size() > HubLimits::kMaxDescription ||
      objects_.size() >= HubLimits::kMaxObjects) {
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
  WireIn in(f.payload);
  switch (f.type) {
    case FrameType::kPublish:
      publish(client, me, in, fd, out);
      return;
    case FrameType::kAllow:
    case FrameType::kImport:
    case FrameType::kClose:
      keyed(client, me, f.type, in, out);
      return;
    case FrameType::kWithdraw: {
      const std::uint64_t id = in.u64();
      auto it = objects_.find(id);
      if (it != objects_.end() && it->second.owner == me.pid) erase(id);
      return;
    }
    case FrameType::kWithdrawAll: {
      std::vector<std::uint64_t> mine;
      for (const auto& [id, o] : objects_) {
        if (o.owner == me.pid) mine.push_back(id);
      }
      for (std::uint64_t id : mine) erase(id);
      return;
    }
    case FrameType::kRecord:
      record(client, me, in, out);
      return;
    case FrameType::kBlocked: {
      // A block sent before the client saw what was forwarded to it is stale: it wakes anyway.
      if (in.u64() == me.forwarded) me.blocked = true;
      if (!me.blocked) return;
      for (Extension& e : extensions_) e.ext->blocked(*this, out);
      return;
    }
    case FrameType::kUnblocked:
      me.blocked = false;
      all_blocked_ = false;
      return;
    case FrameType::kDrainAck: {
      auto it = drains_.find(in.u64());
      if (it == drains_.end()) return;
      // Only the drained exporter acknowledges its drain.
      auto obj = objects_.find(it->second.id);
      if (obj != objects_.end() && obj->second.owner_client != client) return;
      const PendingImport p = it->second;
      drains_.erase(it);
      auto requester = clients_.find(p.client);
      if (requester == clients_.end()) return;
      requester->second.waiting_drain = 0;
      answer_import(p.client, p.req, p.id, out);
      return;
    }
    default:
      if (fd >= 0) ::close(fd);
      return;
  }
}

// The requests about one exported object: req, id, kind, then what the type adds.
void Hub::keyed(int client, Client& me, FrameType type, WireIn& in, std::vector<Outgoing>& out) {
  const std::uint64_t req = in.u64();
  const std::uint64_t id = in.u64();
  const std::uint8_t kind = in.u8();
  const auto answer = [&](std::uint8_t status) {
    WireOut w;
    reply(client, req, w.u8(status), out);
  };
  Object* o = find(id, kind);
  if (o == nullptr) return answer(kUnknownKey);
  if (type == FrameType::kAllow) {
    if (o->owner != me.pid) return answer(kNotOwner);
    while (!in.done() && in.ok()) {
      const std::int32_t pid = in.i32();
      if (o->allowed.size() >= HubLimits::kMaxAllowed && o->allowed.count(pid) == 0) {
        return answer(kNotPermitted);
      }
      o->allowed.insert(pid);
    }
    return answer(kOk);
  }
  if (type == FrameType::kClose) {
    auto imp = o->imports.find(me.pid);
    if (imp != o->imports.end()) {
      if (--imp->second == 0) o->imports.erase(imp);
    } else if (o->owner == me.pid) {
      erase(id);
    } else {
      return answer(kNotOwner);
    }
    return answer(kOk);
  }
  // kImport
  if (o->check_pid && o->allowed.count(me.pid) == 0) return answer(kNotPermitted);
  ++o->imports[me.pid];
  auto owner = clients_.find(o->owner_client);
  if (kind != kKindNotify && owner != clients_.end() && o->owner_client != client &&
      owner->second.waiting_drain == 0) {
    const std::uint64_t token = next_token_++;
    drains_[token] = PendingImport{client, req, id};
    me.waiting_drain = token;
    WireOut t;
    out.push_back({o->owner_client, {FrameType::kDrain, t.u64(token).bytes()}, -1});
    return;
  }
  answer_import(client, req, id, out);
}

void Hub::left(int client, bool lost, std::vector<Outgoing>& out) {
  auto cit = clients_.find(client);
  if (cit == clients_.end()) return;
  const Client gone = cit->second;
  clients_.erase(cit);
  if (lost) {
    lost_.push_back(std::to_string(gone.pid) + " (" + gone.program + ")");
    for (const auto& [fd, c] : clients_) {
      WireOut w;
      w.i32(gone.pid).str(gone.program);
      out.push_back({fd, {FrameType::kPeerLost, w.bytes()}, -1});
    }
  }
  for (auto& [id, o] : objects_) {
    o.holders.erase(client);
    if (o.owner_client == client) o.owner_client = -1;
  }
  // Imports waiting for its drain are answered as they are (it cannot drain any more); its own
  // pending imports are dropped.
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
    auto requester = clients_.find(p.client);
    if (requester == clients_.end()) continue;
    requester->second.waiting_drain = 0;
    answer_import(p.client, p.req, p.id, out);
  }
  for (Extension& e : extensions_) e.ext->left(*this, client, out);
  all_blocked_ = false;
}

void Hub::deadlock_check(Clock::time_point now, std::vector<Outgoing>& out) {
  bool any = false;
  bool all = !clients_.empty();
  for (const auto& [fd, c] : clients_) {
    any = any || c.blocked;
    all = all && c.blocked;
  }
  if (!any || !all) {
    all_blocked_ = false;
    return;
  }
  if (!all_blocked_) {
    all_blocked_ = true;
    all_blocked_since_ = now;
  }
  if (now - all_blocked_since_ < std::chrono::milliseconds(grace_ms())) return;
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
