// SPDX-License-Identifier: Apache-2.0
// HCCL communication domains across processes, the session server's side (issue 22): a hub
// extension (runtime/session/hub.h) for the frame types kHcclDomain..kHcclBatch. The client's
// side is runtime/hccl/cross.cpp. Plain C++ (no simulator, no runtime): `npusim serve` links it.
//
// Rules (as they were in the hub):
//  - HcclGetRootInfo registers a domain (kHcclDomain; its id comes from the hub's id space);
//    each rank joins with its device and its process's device-arena fd (kHcclJoin); when every
//    rank has joined, each member process gets the member list (kHcclMembers), and may ask for a
//    peer's arena fd (kHcclArena) to read its buffers.
//  - A domain whose ranks live in several processes is "cross-process": what one rank posts for
//    the others (kHcclPost: notify flag writes with their simulated time, buffer publications)
//    is held and released to the other member processes only at a quiescent point, when every
//    member process of a cross-process domain is blocked (kBlocked): each process then applies
//    what it got at its own simulated time, so the order of arrival on the wall clock never
//    shows in simulated time (bulk-synchronous conservative synchronisation; deterministic).
//  - A member that stays busy on its host while others wait holds them back; after `force_ms`
//    of that, what is held goes out anyway to those blocked (the run may then differ from run
//    to run).
//  - Limits (issue 23): nRanks 1..HubLimits::kMaxRanks (checked as sent, before narrowing; a
//    domain holds only the ranks that joined), HubLimits::kMaxDomains domains; only a process
//    of a domain posts to it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "runtime/session/hub.h"

namespace npusim::hccl {

class HubDomains final : public rt::remote::HubExtension {
 public:
  using Hub = rt::remote::Hub;
  using Outgoing = rt::remote::Outgoing;
  explicit HubDomains(int force_ms = 30000) : force_ms_(force_ms) {}
  ~HubDomains() override;

  void frame(Hub& hub, int client, const rt::remote::Frame& f, int fd,
             std::vector<Outgoing>& out) override;
  void blocked(Hub& hub, std::vector<Outgoing>& out) override { release(hub, out); }
  void left(Hub& hub, int client, std::vector<Outgoing>& out) override;
  void tick(Hub& hub, Hub::Clock::time_point now, std::vector<Outgoing>& out) override;
  int poll_timeout_ms(Hub::Clock::time_point now) const override;

 private:
  struct Member {
    int client = -1;
    std::uint32_t device = 0;
    pid_t pid = 0;
    int fd = -1;
  };
  struct Domain {
    std::uint32_t nranks = 0;
    std::uint32_t joined = 0;
    bool complete = false;
    bool cross = false;                     // ranks in more than one process
    std::map<std::uint32_t, Member> members;  // by rank (those that joined)
    std::set<int> clients;                  // member processes that have not left it
  };
  void create(Hub& hub, int client, std::uint64_t req, std::vector<Outgoing>& out);
  void leave(Hub& hub, int client, std::uint64_t id, std::vector<Outgoing>& out);
  void join(Hub& hub, int client, rt::remote::WireIn& in, int fd, std::vector<Outgoing>& out);
  std::string join_error(std::uint64_t id, std::uint64_t nranks, std::uint64_t rank,
                         std::uint64_t device) const;
  void complete(Hub& hub, std::uint64_t id, Domain& d, std::vector<Outgoing>& out);
  void arena(Hub& hub, int client, rt::remote::WireIn& in, std::vector<Outgoing>& out);
  void post(Hub& hub, int client, const rt::remote::Frame& f, std::vector<Outgoing>& out);
  /// Releases the held posts when every member process of a cross-process domain is blocked
  /// (or `force`: to those blocked, after force_ms_).
  void release(Hub& hub, std::vector<Outgoing>& out, bool force = false);
  bool all_members_blocked(const Hub& hub);
  void erase(std::uint64_t id);

  int force_ms_;
  std::map<std::uint64_t, Domain> domains_;
  std::map<int, std::string> held_;  // posts held for a member process, by client
  bool stalled_ = false;             // posts held while some member is busy
  Hub::Clock::time_point stalled_since_{};
};

/// Makes every hub created from now on in this process serve HCCL domains (`npusim serve`).
void register_hub_domains(int force_ms = 30000);
/// Makes `hub` serve HCCL domains.
void add_hub_domains(rt::remote::Hub& hub, int force_ms = 30000);

}  // namespace npusim::hccl
