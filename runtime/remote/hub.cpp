// SPDX-License-Identifier: Apache-2.0
#include "runtime/remote/hub.h"

#include <unistd.h>

namespace npusim::rt::remote {
namespace {

// IpcKind (runtime/ipc_registry.h) and IpcStatus values as they travel (memory 0, physical 1).
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

void Hub::frame(int client, const Frame& f, int fd, std::vector<Outgoing>& out) {
  auto cit = clients_.find(client);
  if (cit == clients_.end()) {
    if (fd >= 0) ::close(fd);
    return;
  }
  Client& me = cit->second;
  WireIn in(f.payload);
  switch (f.type) {
    case FrameType::kPublish: {
      const std::uint64_t req = in.u64();
      Object o;
      o.kind = in.u8();
      o.check_pid = in.u8() != 0;
      o.records = in.u64();
      o.last_time = in.i64();
      o.description = in.str();
      o.owner = me.pid;
      o.owner_client = client;
      o.fd = fd;
      if (is_sync(o.kind)) o.holders.insert(client);
      const std::uint64_t id = next_id_++;
      objects_.emplace(id, std::move(o));
      WireOut w;
      reply(client, req, w.u8(kOk).u64(id), out);
      return;
    }
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
    case FrameType::kRecord: {
      const std::uint64_t id = in.u64();
      const std::int64_t time = in.i64();
      auto it = objects_.find(id);
      if (it == objects_.end()) return;
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
      return;
    }
    case FrameType::kBlocked: {
      // A block sent before the client saw what was forwarded to it is stale: it wakes anyway.
      if (in.u64() == me.forwarded) me.blocked = true;
      return;
    }
    case FrameType::kUnblocked:
      me.blocked = false;
      all_blocked_ = false;
      return;
    case FrameType::kDrainAck: {
      auto it = drains_.find(in.u64());
      if (it == drains_.end()) return;
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
    while (!in.done() && in.ok()) o->allowed.insert(in.i32());
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

void Hub::tick(Clock::time_point now, std::vector<Outgoing>& out) { deadlock_check(now, out); }

int Hub::poll_timeout_ms(Clock::time_point now) const {
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
