// SPDX-License-Identifier: Apache-2.0
// HCCL domains whose ranks live in several processes of a session (runtime/hccl/comm.h, the
// hub's side in runtime/hccl/hub_domains.h): registration, the rendezvous through the hub, and
// what crosses processes during collectives (flag writes, buffer publications, point-to-point
// messages), applied here as the hub releases them.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/hccl/comm.h"
#include "runtime/core/memory_registry.h"
#include "runtime/session/link.h"
#include "runtime/session/session.h"
#include "runtime/core/runtime.h"
#include "runtime/core/session_client.h"
#include "sim/log.h"

namespace npusim::rt::hccl {
namespace {

// What a post carries (kHcclPost: domain, kind, simulated time, body).
constexpr std::uint8_t kPostFlag = 1;
constexpr std::uint8_t kPostArgs = 2;
constexpr std::uint8_t kPostMessage = 3;

std::map<std::uint64_t, std::weak_ptr<Domain>>& remote_domains() {
  static auto* table = new std::map<std::uint64_t, std::weak_ptr<Domain>>();  // never destroyed
  return *table;
}

// Other processes' device arenas mapped here, by pid (mapped once, kept for the process's life).
std::map<std::int32_t, unsigned char*>& arenas() {
  static auto* table = new std::map<std::int32_t, unsigned char*>();  // never destroyed
  return *table;
}

remote::Link* link() {
  RemoteIpcRegistry* r = Runtime::instance().shared_sync().registry();
  return r != nullptr ? r->connected() : nullptr;
}

// The device memory file of `rank`'s process, from the session server; -1 (logged) when none.
int arena_file(const Domain& d, std::uint32_t rank) {
  remote::Link* l = link();
  if (l == nullptr) return -1;
  remote::WireOut w;
  w.u64(d.remote_id).u64(rank);
  std::string reply;
  int fd = -1;
  if (!l->request(remote::FrameType::kHcclArena, w.bytes(), -1, reply, &fd) || fd < 0) {
    sim::log_error("HCCL: no device memory file of rank " + std::to_string(rank) + " (pid " +
                   std::to_string(d.pids[rank]) + ") from the session server");
    return -1;
  }
  return fd;
}

// Maps all of the file `fd` (closed here) shared; MAP_FAILED when it cannot.
void* map_whole_file(int fd) {
  struct stat st {};
  void* p = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_NORESERVE, fd, 0);
  }
  ::close(fd);
  return p;
}

// The arena of `rank`'s process, mapped here; nullptr (logged) when it cannot be.
unsigned char* arena_of(Domain& d, std::uint32_t rank) {
  if (rank >= d.pids.size()) return nullptr;
  const std::int32_t pid = d.pids[rank];
  auto it = arenas().find(pid);
  if (it != arenas().end()) return it->second;
  const int fd = arena_file(d, rank);
  if (fd < 0) return nullptr;
  void* p = map_whole_file(fd);
  if (p == MAP_FAILED) {
    sim::log_error("HCCL: cannot map the device memory of rank " + std::to_string(rank) +
                   " (pid " + std::to_string(pid) + ")");
    return nullptr;
  }
  auto* base = static_cast<unsigned char*>(p);
  arenas()[pid] = base;
  return base;
}

// An arena offset as it travels: offset + 1 (0: no buffer, or memory outside this process's
// arena, e.g. another process's imported memory: a peer's read of it then fails cleanly).
std::uint64_t wire_offset(const Buffer& b) {
  if (b.ptr == nullptr) return 0;
  const MemoryRegistry& memory = Runtime::instance().memory();
  if (!memory.device_arena().contains(b.ptr)) return 0;
  return memory.device_arena().offset_of(b.ptr) + 1;
}

Buffer remote_buffer(unsigned char* base, std::uint64_t wire) {
  Buffer b;
  if (wire == 0 || base == nullptr) return b;
  b.ptr = base + (wire - 1);
  b.remote = true;
  return b;
}

void send_post(Domain& d, std::uint8_t kind, std::uint64_t time, const std::string& body) {
  remote::Link* l = link();
  if (l == nullptr) return;
  remote::WireOut w;
  w.u64(d.remote_id).u8(kind).u64(time);
  l->send(remote::FrameType::kHcclPost, w.bytes() + body);
}

// The domain of a remote id, while it lives in this process; nullptr otherwise.
std::shared_ptr<Domain> live_domain(std::uint64_t id) {
  auto it = remote_domains().find(id);
  return it != remote_domains().end() ? it->second.lock() : nullptr;
}

// A flag write of another process: one task per device of this process's ranks (the waits on
// each are looked at again).
void apply_flag(const std::shared_ptr<Domain>& d, std::uint64_t time, remote::WireIn& in,
                std::vector<SharedSync::Phantom>& out) {
  const auto rank = static_cast<std::uint32_t>(in.u64());
  const std::uint64_t channel = in.u64();
  const std::uint64_t value = in.u64();
  if (!in.ok()) return;
  for (std::uint32_t device : d->local_devices) {
    SharedSync::Phantom ph;
    ph.device = device;
    ph.at = time;
    ph.name = "HCCL Notify Record (rank " + std::to_string(rank) + ")";
    ph.apply = [d, rank, channel, value] {
      std::uint64_t& f = d->flags[{rank, channel}];
      f = std::max(f, value);
    };
    out.push_back(std::move(ph));
  }
}

// What post_args wrote after the buffers: the per-rank displacements and counts, the signature.
void read_counts_and_signature(remote::WireIn& in, RankArgs& a) {
  const std::uint64_t n = in.u64();
  for (std::uint64_t i = 0; i < n && in.ok(); ++i) a.sdispls.push_back(in.u64());
  for (std::uint64_t i = 0; i < n && in.ok(); ++i) a.scounts.push_back(in.u64());
  a.sig.kind = static_cast<std::uint32_t>(in.u64());
  a.sig.count = in.u64();
  a.sig.type = static_cast<std::int64_t>(in.u64());
  a.sig.op = static_cast<std::int64_t>(in.u64());
  a.sig.root = in.u64();
}

// Another process's rank published its arguments of collective `seq`.
void apply_args(Domain& d, remote::WireIn& in) {
  const std::uint64_t seq = in.u64();
  const auto rank = static_cast<std::uint32_t>(in.u64());
  const std::uint64_t send = in.u64();
  const std::uint64_t recv = in.u64();
  const std::uint64_t scratch = in.u64();
  RankArgs a;
  read_counts_and_signature(in, a);
  if (!in.ok() || rank >= d.nranks || d.op_finished(seq)) return;
  unsigned char* base = arena_of(d, rank);
  a.send = remote_buffer(base, send);
  a.recv = remote_buffer(base, recv);
  a.scratch = remote_buffer(base, scratch);
  Domain::Op& op = d.ops[seq];
  if (op.args.size() != d.nranks) op.args.resize(d.nranks);
  op.args[rank] = std::move(a);
}

// A point-to-point message of another process's rank: where its buffer lies.
void apply_message(Domain& d, remote::WireIn& in) {
  const auto from = static_cast<std::uint32_t>(in.u64());
  const auto to = static_cast<std::uint32_t>(in.u64());
  const std::uint64_t k = in.u64();
  const std::uint64_t buf = in.u64();
  const std::uint64_t bytes = in.u64();
  if (!in.ok()) return;
  d.messages[{from, to, k}] = {remote_buffer(arena_of(d, from), buf), bytes};
}

void apply_post(const std::string& item, std::vector<SharedSync::Phantom>& out) {
  remote::WireIn in(item);
  const std::uint64_t id = in.u64();
  const std::uint8_t kind = in.u8();
  const std::uint64_t time = in.u64();
  std::shared_ptr<Domain> d = live_domain(id);
  if (d == nullptr || !d->cross) return;
  if (kind == kPostFlag) {
    apply_flag(d, time, in, out);
  } else if (kind == kPostArgs) {
    apply_args(*d, in);
  } else if (kind == kPostMessage) {
    apply_message(*d, in);
  }
}

// A flag post's order: big-endian time, rank, channel, value (bytes compare as the numbers).
std::string sort_key(const std::string& item) {
  remote::WireIn in(item);
  in.u64();
  in.u8();
  std::string key;
  for (int i = 0; i < 4; ++i) {
    const std::uint64_t v = in.u64();
    for (int b = 7; b >= 0; --b) key.push_back(static_cast<char>((v >> (8 * b)) & 0xFF));
  }
  return key;
}

using SortedFlag = std::pair<std::string, SharedSync::Phantom>;  // sort_key, the flag's task

// The posts of several processes come in the order they reached the server: applied in an
// order of their own (time, then rank, channel, value) so that order never shows.
std::vector<SortedFlag> sorted_flags(remote::WireIn& in) {
  std::vector<SortedFlag> flags;
  while (!in.done() && in.ok()) {
    const std::string item = in.str();
    if (!in.ok()) break;
    std::vector<SharedSync::Phantom> mine;
    apply_post(item, mine);
    for (SharedSync::Phantom& ph : mine) flags.emplace_back(sort_key(item), std::move(ph));
  }
  std::stable_sort(flags.begin(), flags.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  if (sim::log_level() >= sim::LogLevel::kDebug) {
    std::string what;
    for (auto& [key, ph] : flags) what += " " + ph.name + "@" + std::to_string(ph.at);
    sim::log_debug("HCCL: flags from other processes:" + what);
  }
  return flags;
}

// The rank in a flag's sort_key.
std::uint64_t key_rank(const std::string& key) {
  std::uint64_t rank = 0;
  for (int b = 8; b < 16; ++b) rank = (rank << 8) | static_cast<unsigned char>(key[b]);
  return rank;
}

// Writes due at the same simulated time on the same device are applied by one task (not one
// after the other: each task takes simulated time, which in-process flags do not). Returns the
// ranks each task of `out` writes for.
std::map<std::size_t, std::set<std::uint64_t>> merge_flags(std::vector<SortedFlag>& flags,
                                                           std::vector<SharedSync::Phantom>& out) {
  std::map<std::pair<sim::SimTime, std::uint32_t>, std::size_t> merged;  // -> index in out
  std::map<std::size_t, std::set<std::uint64_t>> ranks;                  // out index -> ranks
  for (auto& [key, ph] : flags) {
    const std::uint64_t rank = key_rank(key);
    auto [it, fresh] = merged.emplace(std::make_pair(ph.at, ph.device), out.size());
    if (fresh) {
      out.push_back(std::move(ph));
    } else {
      SharedSync::Phantom& into = out[it->second];
      into.apply = [first = std::move(into.apply), second = std::move(ph.apply)] {
        first();
        second();
      };
    }
    ranks[it->second].insert(rank);
  }
  return ranks;
}

void on_flag_batch(remote::WireIn& in, std::vector<SharedSync::Phantom>& out) {
  std::vector<SortedFlag> flags = sorted_flags(in);
  for (auto& [index, set] : merge_flags(flags, out)) {
    std::string list;
    for (std::uint64_t r : set) list += (list.empty() ? "" : ", ") + std::to_string(r);
    out[index].name = std::string("HCCL Notify Record (rank") + (set.size() > 1 ? "s " : " ") +
                      list + ")";
  }
}

// Every rank has joined: the devices and processes of the domain's ranks.
void on_members(remote::WireIn& in) {
  const std::uint64_t id = in.u64();
  const std::uint64_t nranks = in.u64();
  std::shared_ptr<Domain> d = live_domain(id);
  if (d == nullptr || nranks != d->nranks || d->joined >= d->nranks) return;
  std::vector<std::uint32_t> devices;
  std::vector<std::int32_t> pids;
  for (std::uint64_t r = 0; r < nranks; ++r) {
    devices.push_back(static_cast<std::uint32_t>(in.u64()));
    pids.push_back(in.i32());
  }
  if (!in.ok()) return;
  d->devices = devices;
  d->pids = pids;
  d->cross = std::any_of(pids.begin(), pids.end(),
                         [](std::int32_t p) { return p != static_cast<std::int32_t>(::getpid()); });
  d->joined = d->nranks;
}

void on_push(std::uint32_t kind, const std::string& payload,
             std::vector<SharedSync::Phantom>& out) {
  remote::WireIn in(payload);
  if (kind == static_cast<std::uint32_t>(remote::FrameType::kHcclBatch)) {
    on_flag_batch(in, out);
  } else {
    on_members(in);  // kHcclMembers
  }
}

void install_handler() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  Runtime::instance().shared_sync().set_push_handler(on_push);
}

}  // namespace

std::string session() {
  RemoteIpcRegistry* r = Runtime::instance().shared_sync().registry();
  return r != nullptr ? remote::session_from_env() : std::string();
}

std::uint64_t register_domain(const std::shared_ptr<Domain>& d) {
  // Only in a session named in the environment: a program of one process (the usual HCCL
  // program, ranks in threads) keeps to itself, as without sessions (no server started).
  if (!remote::session_named_in_env()) return 0;
  RemoteIpcRegistry* r = Runtime::instance().shared_sync().registry();
  remote::Link* l = r != nullptr ? r->link() : nullptr;
  if (l == nullptr) return 0;
  std::string reply;
  if (!l->request(remote::FrameType::kHcclDomain, {}, -1, reply)) return 0;
  remote::WireIn in(reply);
  if (in.u8() != 0) return 0;
  const std::uint64_t id = in.u64();
  if (!in.ok()) return 0;
  d->remote_id = id;
  remote_domains()[id] = d;
  return id;
}

std::shared_ptr<Domain> remote_domain(std::uint64_t remote_id) {
  auto it = remote_domains().find(remote_id);
  if (it != remote_domains().end()) {
    if (std::shared_ptr<Domain> d = it->second.lock()) return d;
  }
  auto d = std::make_shared<Domain>();
  d->id = remote_id | (std::uint64_t{1} << 62);  // apart from this process's own domain ids
  d->remote_id = remote_id;
  remote_domains()[remote_id] = d;
  static auto* keep = new std::vector<std::shared_ptr<Domain>>();  // never destroyed
  keep->push_back(d);
  return d;
}

void join_remote(Call& c, const std::shared_ptr<Domain>& d, std::uint32_t rank,
                 std::uint32_t nranks, std::uint32_t device) {
  RemoteIpcRegistry* r = c.runtime().shared_sync().registry();
  remote::Link* l = r != nullptr ? r->link() : nullptr;
  require(l != nullptr, kInternal,
          "the rootInfo's domain lives in the session's server, which cannot be reached");
  install_handler();
  MemoryRegistry& memory = c.runtime().memory();
  remote::WireOut w;
  w.u64(d->remote_id).u64(nranks).u64(rank).u64(device);
  std::string reply;
  require(l->request(remote::FrameType::kHcclJoin, w.bytes(), memory.device_arena().fd(), reply),
          kInternal, "the session server is gone");
  remote::WireIn in(reply);
  const std::uint8_t status = in.u8();
  const std::string error = in.str();
  require(status == 0, kPara, error);
  c.runtime().shared_sync().hold();
  ++d->holds;
}

void settle(const std::shared_ptr<Domain>& d) {
  if (d->cross) return;
  while (d->holds > 0) {
    Runtime::instance().shared_sync().release();
    --d->holds;
  }
}

void leave_remote(Domain& d) {
  while (d.holds > 0) {
    Runtime::instance().shared_sync().release();
    --d.holds;
  }
  remote::Link* l = link();
  if (l == nullptr || d.remote_id == 0) return;
  remote::WireOut w;
  l->send(remote::FrameType::kHcclLeave, w.u64(d.remote_id).bytes());
}

void post_flag(Domain& d, std::uint32_t rank, std::uint64_t channel, std::uint64_t value,
               std::uint64_t time) {
  remote::WireOut w;
  w.u64(rank).u64(channel).u64(value);
  send_post(d, kPostFlag, time, w.bytes());
}

void post_args(Domain& d, std::uint64_t seq, std::uint32_t rank, const RankArgs& args) {
  remote::WireOut w;
  w.u64(seq).u64(rank).u64(wire_offset(args.send)).u64(wire_offset(args.recv));
  w.u64(wire_offset(args.scratch));
  const std::size_t n = std::min(args.sdispls.size(), args.scounts.size());
  w.u64(n);
  for (std::size_t i = 0; i < n; ++i) w.u64(args.sdispls[i]);
  for (std::size_t i = 0; i < n; ++i) w.u64(args.scounts[i]);
  const Signature& g = args.sig;
  w.u64(g.kind).u64(g.count).u64(static_cast<std::uint64_t>(g.type));
  w.u64(static_cast<std::uint64_t>(g.op)).u64(g.root);
  send_post(d, kPostArgs, 0, w.bytes());
}

void post_message(Domain& d, std::uint32_t from, std::uint32_t to, std::uint64_t k,
                  const Buffer& buf, std::uint64_t bytes) {
  remote::WireOut w;
  w.u64(from).u64(to).u64(k).u64(wire_offset(buf)).u64(bytes);
  send_post(d, kPostMessage, 0, w.bytes());
}

}  // namespace npusim::rt::hccl
