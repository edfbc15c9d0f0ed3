// SPDX-License-Identifier: Apache-2.0
#include "runtime/hccl/hub_domains.h"

#include <unistd.h>

#include <algorithm>
#include <climits>

namespace npusim::hccl {

using rt::remote::Frame;
using rt::remote::FrameType;
using rt::remote::HubLimits;
using rt::remote::WireIn;
using rt::remote::WireOut;

namespace {

// Reply statuses as they travel (IpcStatus, runtime/core/ipc_registry.h).
constexpr std::uint8_t kOk = 0;
constexpr std::uint8_t kUnknownKey = 1;
constexpr std::uint8_t kNotPermitted = 3;

}  // namespace

HubDomains::~HubDomains() {
  for (auto& [id, d] : domains_) {
    for (auto& [rank, m] : d.members) {
      if (m.fd >= 0) ::close(m.fd);
    }
  }
}

void HubDomains::erase(std::uint64_t id) {
  auto it = domains_.find(id);
  if (it == domains_.end()) return;
  for (auto& [rank, m] : it->second.members) {
    if (m.fd >= 0) ::close(m.fd);
  }
  domains_.erase(it);
}

void HubDomains::frame(Hub& hub, int client, const Frame& f, int fd, std::vector<Outgoing>& out) {
  if (fd >= 0 && f.type != FrameType::kHcclJoin) {  // only a join carries a descriptor
    ::close(fd);
    fd = -1;
  }
  WireIn in(f.payload);
  switch (f.type) {
    case FrameType::kHcclDomain: return create(hub, client, in.u64(), out);
    case FrameType::kHcclJoin: return join(hub, client, in, fd, out);
    case FrameType::kHcclArena: return arena(hub, client, in, out);
    case FrameType::kHcclPost: return post(hub, client, f, out);
    case FrameType::kHcclLeave: return leave(hub, client, in.u64(), out);
    default: return;
  }
}

// A new domain (request `req`), its creator a client of it.
void HubDomains::create(Hub& hub, int client, std::uint64_t req, std::vector<Outgoing>& out) {
  WireOut w;
  if (domains_.size() >= HubLimits::kMaxDomains) {
    hub.reply(client, req, w.u8(kNotPermitted), out);
    return;
  }
  const std::uint64_t id = hub.new_id();
  domains_[id].clients.insert(client);
  hub.reply(client, req, w.u8(kOk).u64(id), out);
}

// A client's last communicator of the domain is gone; the domain goes with its last client.
void HubDomains::leave(Hub& hub, int client, std::uint64_t id, std::vector<Outgoing>& out) {
  auto it = domains_.find(id);
  if (it == domains_.end()) return;
  it->second.clients.erase(client);
  if (it->second.clients.empty()) erase(id);
  release(hub, out);
}

std::string HubDomains::join_error(std::uint64_t id, std::uint64_t nranks, std::uint64_t rank,
                                   std::uint64_t device) const {
  auto it = domains_.find(id);
  if (it == domains_.end()) {
    return "the rootInfo's communication domain is not known to the session (its process left?)";
  }
  const Domain& d = it->second;
  if (d.complete) return "every rank of this rootInfo's domain has joined already";
  if (nranks == 0 || nranks > HubLimits::kMaxRanks) {
    return "nRanks " + std::to_string(nranks) + " is not in 1.." +
           std::to_string(HubLimits::kMaxRanks);
  }
  if (d.nranks != 0 && d.nranks != nranks) {
    return "nRanks " + std::to_string(nranks) + " differs from the " + std::to_string(d.nranks) +
           " another rank of the domain gave";
  }
  if (rank >= nranks) {
    return "rank " + std::to_string(rank) + " is not below nRanks " + std::to_string(nranks);
  }
  if (device > UINT32_MAX) return "device " + std::to_string(device) + " is out of range";
  auto m = d.members.find(static_cast<std::uint32_t>(rank));
  if (m != d.members.end()) {
    return "rank " + std::to_string(rank) + " of the domain has already joined (pid " +
           std::to_string(m->second.pid) + ")";
  }
  return {};
}

void HubDomains::join(Hub& hub, int client, WireIn& in, int fd, std::vector<Outgoing>& out) {
  const std::uint64_t req = in.u64();
  const std::uint64_t id = in.u64();
  const std::uint64_t nranks = in.u64();
  const std::uint64_t rank = in.u64();
  const std::uint64_t device = in.u64();
  const std::string error = in.ok() ? join_error(id, nranks, rank, device) : "a malformed join";
  WireOut ack;
  if (!error.empty()) {
    if (fd >= 0) ::close(fd);
    hub.reply(client, req, ack.u8(kNotPermitted).str(error), out);
    return;
  }
  hub.reply(client, req, ack.u8(kOk).str({}), out);
  Domain& d = domains_[id];
  d.nranks = static_cast<std::uint32_t>(nranks);
  d.members[static_cast<std::uint32_t>(rank)] =
      Member{client, static_cast<std::uint32_t>(device), hub.client_pid(client), fd};
  d.clients.insert(client);
  if (++d.joined == d.nranks) complete(hub, id, d, out);
}

// Every rank has joined: each member process gets the member list.
void HubDomains::complete(Hub& hub, std::uint64_t id, Domain& d, std::vector<Outgoing>& out) {
  d.complete = true;
  std::set<int> processes;
  for (const auto& [r, m] : d.members) processes.insert(m.client);
  d.cross = processes.size() > 1;
  // From now on the domain's processes are those of its ranks (the one that registered it may
  // hold none, e.g. a launcher: it must not hold the ranks back).
  d.clients = processes;
  WireOut w;
  w.u64(id).u64(d.nranks);
  for (const auto& [r, m] : d.members) w.u64(m.device).i32(m.pid);
  for (int c : processes) hub.push(c, {FrameType::kHcclMembers, w.bytes()}, out);
  hub.activity();
}

void HubDomains::arena(Hub& hub, int client, WireIn& in, std::vector<Outgoing>& out) {
  const std::uint64_t req = in.u64();
  const std::uint64_t id = in.u64();
  const std::uint64_t rank = in.u64();
  auto it = domains_.find(id);
  const Member* m = nullptr;
  if (it != domains_.end() && rank <= UINT32_MAX) {
    auto found = it->second.members.find(static_cast<std::uint32_t>(rank));
    if (found != it->second.members.end()) m = &found->second;
  }
  WireOut w;
  if (m == nullptr || m->fd < 0) {
    hub.reply(client, req, w.u8(kUnknownKey), out);
    return;
  }
  hub.reply(client, req, w.u8(kOk), out, m->fd);
}

void HubDomains::post(Hub& hub, int client, const Frame& f, std::vector<Outgoing>& out) {
  WireIn in(f.payload);
  auto it = domains_.find(in.u64());
  // Only a process of the domain posts to it.
  if (it == domains_.end() || it->second.clients.count(client) == 0) return;
  WireOut item;
  item.str(f.payload);
  for (int c : it->second.clients) {
    if (c != client) held_[c] += item.bytes();
  }
  release(hub, out);
}

bool HubDomains::all_members_blocked(const Hub& hub) {
  for (const auto& [id, d] : domains_) {
    if (!d.cross) continue;
    for (int c : d.clients) {
      if (hub.has_client(c) && !hub.client_blocked(c)) return false;
    }
  }
  return true;
}

void HubDomains::release(Hub& hub, std::vector<Outgoing>& out, bool force) {
  const bool any = std::any_of(held_.begin(), held_.end(),
                               [](const auto& h) { return !h.second.empty(); });
  if (!any) {
    stalled_ = false;
    return;
  }
  if (!force && !all_members_blocked(hub)) {
    if (!stalled_) {
      stalled_ = true;
      stalled_since_ = Hub::Clock::now();
    }
    return;
  }
  for (auto& [c, items] : held_) {
    if (items.empty()) continue;
    if (!hub.has_client(c)) {
      items.clear();
      continue;
    }
    if (force && !hub.client_blocked(c)) continue;
    hub.push(c, {FrameType::kHcclBatch, items}, out);
    items.clear();
  }
  stalled_ = false;
  hub.activity();
}

void HubDomains::left(Hub& hub, int client, std::vector<Outgoing>& out) {
  held_.erase(client);
  std::vector<std::uint64_t> empty;
  for (auto& [id, d] : domains_) {
    d.clients.erase(client);
    if (d.clients.empty()) empty.push_back(id);
  }
  for (std::uint64_t id : empty) erase(id);
  release(hub, out);
}

void HubDomains::tick(Hub& hub, Hub::Clock::time_point now, std::vector<Outgoing>& out) {
  if (stalled_ && now - stalled_since_ >= std::chrono::milliseconds(force_ms_)) {
    release(hub, out, true);
  }
}

int HubDomains::poll_timeout_ms(Hub::Clock::time_point now) const {
  if (!stalled_) return -1;
  const auto left = std::chrono::milliseconds(force_ms_) -
                    std::chrono::duration_cast<std::chrono::milliseconds>(now - stalled_since_);
  return left.count() < 0 ? 0 : static_cast<int>(left.count()) + 1;
}

namespace {

constexpr auto kFirst = static_cast<std::uint32_t>(FrameType::kHcclDomain);
constexpr auto kLast = static_cast<std::uint32_t>(FrameType::kHcclBatch);

}  // namespace

void register_hub_domains(int force_ms) {
  rt::remote::register_hub_extension(kFirst, kLast,
                                     [force_ms] { return std::make_unique<HubDomains>(force_ms); });
}

void add_hub_domains(rt::remote::Hub& hub, int force_ms) {
  hub.add_extension(kFirst, kLast, std::make_unique<HubDomains>(force_ms));
}

}  // namespace npusim::hccl
