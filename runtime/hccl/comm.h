// SPDX-License-Identifier: Apache-2.0
// npusim's HCCL: communicators and the collectives as device tasks (plain C++ over the runtime's
// internal API; the C skin is runtime/hccl/hccl_api.cpp).
//
// A communication domain (Domain) is what HcclGetRootInfo names and every rank joins; each rank is
// one Comm, bound to one device. A collective becomes, on each rank, tasks on the caller's stream
// and on the rank's helper streams (one per peer, created in the caller stream's context, as
// CANN's HCCL uses slave streams):
//  - cross-rank synchronisation: the domain's notify flags, one 64-bit word per (rank, channel),
//    written by kValueWrite tasks ("Notify Record") and waited for by kValueWait tasks
//    ("Notify Wait", holding the stream until flag >= value), so ranks wait for each other in
//    simulated time, on the device, never on the host;
//  - data: pulls, copies from a peer's memory into the rank's own (TaskKind::kCopy,
//    Direction::kPeer, from_peer: over the chip-to-chip link), local copies (kD2D on the SDMA);
//  - reductions: TaskKind::kReduce on the unit that does them: local (kD2D, the SDMA) or reading
//    the peer's memory directly (kPeer, from_peer: the ring's reduce steps).
// Buffer addresses of the other ranks are taken at execution time from the domain's table of
// operations (each rank's call publishes its buffers before it queues its tasks; a task that reads
// a peer runs only after that peer's "ready" flag, which its stream writes after the publishing
// call), so ranks may call in any host order.
//
// Ranks in several processes (one process per rank, like torchrun; runtime/session/hub.h): the
// root info names the domain the session's hub registered (HcclGetRootInfo in a process whose
// environment names a session, NPUSIM_SESSION: without it, no server is involved); a rank of
// another process joins through the hub with its device and its process's device-arena file.
// Each process keeps its own Domain object for it (Domain::cross): the flags its ranks write that
// others wait for, and the buffers they publish (as offsets in their arena, which readers map),
// go through the hub, which hands them to the other processes at quiescent points (every member
// process blocked); each process applies a flag write as a task completing at the writer's
// simulated time (or its own, when later). Same program, same timelines.
//
// Algorithms (README "HCCL"):
//  - mesh (full-mesh one-shot, every collective below hccl.ring_threshold and all the others):
//    handshake (each rank posts "inputs ready" and waits for every peer's), every rank pulls what
//    it needs from every peer in parallel (one helper stream per peer, so one link per peer), a
//    second handshake ("done reading"), then the local finish (reductions into the output);
//  - ring (HcclAllReduce of at least hccl.ring_threshold bytes): reduce-scatter then all-gather
//    around the ranks 0 -> 1 -> ... -> n-1 -> 0 in 2(n-1) steps of count/n elements, each step
//    pulling (or pull-reducing) one chunk from the previous rank into the output buffer.
// Summation order (fp32 results are bit-identical on every rank and every run):
//  - mesh: ((x0 + x1) + x2) + ... + x(n-1), in rank order;
//  - ring: chunk c (elements [c*count/n, (c+1)*count/n)) is reduced along the ring starting at
//    rank c: ((x_c + x_(c+1)) + x_(c+2)) + ... + x_(c-1), indices mod n.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace npusim::rt {
class Call;
class MemoryRegistry;
struct Stream;
}  // namespace npusim::rt

namespace npusim::rt::hccl {

class Queue;

/// HCCL result codes used inside (hccl_types.h values).
enum Code : int {
  kSuccess = 0,
  kPara = 1,
  kPtr = 2,
  kMemory = 3,
  kInternal = 4,
  kNotSupport = 5,
  kTimeout = 9,
  kRuntime = 15,
};

/// One device buffer as a task will use it: address and the allocation's serial (a task whose
/// memory was freed meanwhile fails instead of touching it).
struct Buffer {
  unsigned char* ptr = nullptr;
  std::uint64_t serial = 0;
  bool remote = false;  // another process's memory, mapped here (no serial to check)
};

/// What a rank's call of a collective said that every rank must say alike: which collective, the
/// element count, data type, reduction and root (-1 / 0 where it takes none). Data tasks compare
/// the ranks' signatures when they run (tasks.h, locate): a mismatch fails them (nothing is
/// copied) instead of reading past a peer's smaller buffer.
struct Signature {
  enum Kind : std::uint32_t {
    kNone,  // nothing published (yet)
    kAllReduce,
    kBroadcast,
    kAllGather,
    kReduceScatter,
    kReduce,
    kScatter,
    kAlltoAll,
    kBarrier,
  };
  std::uint32_t kind = kNone;
  std::uint64_t count = 0;
  std::int64_t type = -1;
  std::int64_t op = -1;
  std::uint64_t root = 0;
  bool operator==(const Signature& o) const {
    return kind == o.kind && count == o.count && type == o.type && op == o.op && root == o.root;
  }
  std::string text() const;  // for messages
};

/// What one rank published for one collective.
struct RankArgs {
  Signature sig;
  Buffer send;
  Buffer recv;
  Buffer scratch;
  std::vector<std::uint64_t> sdispls;  // AlltoAllV: element offsets in send, by destination rank
  std::vector<std::uint64_t> scounts;  // AlltoAllV: elements sent, by destination rank
};

class Comm;

struct Domain {
  std::uint64_t id = 0;
  std::uint32_t nranks = 0;  // 0 until the first rank joins
  std::uint32_t joined = 0;
  std::vector<Comm*> ranks;  // by rank (nullptr: not joined or destroyed)
  /// Notify flags: (rank, channel) -> value; only ever increased.
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint64_t> flags;
  /// Collective `seq` -> what each rank published; dropped when every rank finished it.
  struct Op {
    std::vector<RankArgs> args;
    std::uint32_t finished = 0;
    bool mismatch_logged = false;
  };
  std::map<std::uint64_t, Op> ops;
  /// Point-to-point messages: (from, to, message number) -> the sender's buffer and size.
  struct Message {
    Buffer buf;
    std::uint64_t bytes = 0;
  };
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>, Message> messages;

  // ---- Ranks in other processes (remote_id != 0: registered with the session's hub) ----
  std::uint64_t remote_id = 0;
  bool cross = false;                  // some rank lives in another process
  std::uint32_t local = 0;             // ranks of this process that joined
  std::uint32_t holds = 0;             // SharedSync holds taken for it
  std::vector<std::uint32_t> devices;  // by rank (every rank once all joined)
  std::vector<std::int32_t> pids;      // by rank (cross)
  std::vector<std::uint32_t> local_devices;  // devices of this process's ranks
  std::uint64_t retired = 0;           // every op below has finished here
  std::set<std::uint64_t> finished_ops;  // finished ops at or above `retired`

  std::uint32_t device_of(std::uint32_t rank, std::uint32_t fallback) const {
    return rank < devices.size() && devices[rank] != kNoDevice ? devices[rank] : fallback;
  }
  static constexpr std::uint32_t kNoDevice = 0xFFFFFFFFu;
  /// The op `seq` finished on one rank of this process: drop it when all of them did.
  void finish_op(std::uint64_t seq) {
    auto it = ops.find(seq);
    if (it == ops.end() || ++it->second.finished < (cross ? local : nranks)) return;
    ops.erase(it);
    finished_ops.insert(seq);
    while (finished_ops.erase(retired) != 0) ++retired;
  }
  bool op_finished(std::uint64_t seq) const {
    return seq < retired || finished_ops.count(seq) != 0;
  }

  std::uint64_t flag(std::uint32_t rank, std::uint64_t channel) const {
    auto it = flags.find({rank, channel});
    return it == flags.end() ? 0 : it->second;
  }
};

/// One rank of a domain.
class Comm {
 public:
  Comm(std::shared_ptr<Domain> domain, std::uint32_t rank, std::uint32_t device)
      : domain_(std::move(domain)), rank_(rank), device_(device) {}

  const std::shared_ptr<Domain>& domain() const { return domain_; }
  std::uint32_t rank() const { return rank_; }
  std::uint32_t size() const { return domain_->nranks; }
  std::uint32_t device() const { return device_; }
  std::string name() const;

  // ---- Collectives: validate, then queue the tasks on `stream` (and the helper streams). ----
  void all_reduce(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type,
                  int op);
  void broadcast(Call& c, void* stream, void* buf, std::uint64_t count, int type,
                 std::uint32_t root);
  void all_gather(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type);
  void reduce_scatter(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type,
                      int op);
  void reduce(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type, int op,
              std::uint32_t root);
  void scatter(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type,
               std::uint32_t root);
  /// AlltoAllV in general form: element counts and offsets by peer (send side and receive side).
  void all_to_all_v(Call& c, void* stream, const void* send,
                    const std::vector<std::uint64_t>& scounts,
                    const std::vector<std::uint64_t>& sdispls, int stype, const void* recv,
                    const std::vector<std::uint64_t>& rcounts,
                    const std::vector<std::uint64_t>& rdispls, int rtype, const char* name);
  void barrier(Call& c, void* stream);
  struct P2p {
    bool send = false;
    void* buf = nullptr;
    std::uint64_t count = 0;
    int type = 0;
    std::uint32_t peer = 0;
  };
  void send_recv(Call& c, void* stream, const std::vector<P2p>& items, const char* name);

  /// HcclCommDestroy: waits for the helper streams, frees them and the scratch memory.
  void destroy(Call& c);
  /// A rank of a domain registered with the hub: makes sure the device arena exists (its file
  /// is what the other processes map).
  void reserve_arena(Call& c) { scratch(c, 64); }

 private:
  struct Plan;
  struct Rooted;
  Rooted rooted(Call& c, void* stream, std::uint64_t count, int type, std::uint32_t root);
  Stream& user_stream(Call& c, void* handle) const;
  Stream& helper(Call& c, Stream& user, std::uint32_t index);
  Buffer scratch(Call& c, std::uint64_t bytes);
  std::uint64_t publish(RankArgs args);
  struct PlanMove;
  void issue(Queue& q, Stream& on, std::uint64_t seq, const Plan& plan, const PlanMove& m,
             const MemoryRegistry* memory);
  void reserve_helpers(Call& c, Stream& s, std::uint64_t seq, const Plan& plan);
  void handshake(Queue& q, Stream& s, std::uint64_t value);
  std::uint32_t helper_index(std::uint32_t peer) const;
  void remove_helpers(Call& c);
  void pull(Call& c, Queue& q, Stream& s, std::uint64_t seq, const Plan& plan);
  void run_mesh(Call& c, Stream& s, std::uint64_t seq, Plan& plan, const char* name);
  Plan all_to_all_plan(const std::vector<std::uint64_t>& rcounts,
                       const std::vector<std::uint64_t>& rdispls, std::size_t width) const;
  struct Ring;
  void ring_pass(Queue& q, Stream& s, const Ring& ring, std::uint32_t first, std::uint64_t flag,
                 bool reduce);
  void run_ring_all_reduce(Call& c, Stream& s, std::uint64_t seq, std::uint64_t count,
                           std::size_t width, int elem, int op);
  struct CheckedP2p {
    const P2p* item;
    Buffer buf;
    std::uint64_t bytes;
  };
  std::vector<CheckedP2p> check_p2p(Call& c, const std::vector<P2p>& items);
  std::pair<std::uint32_t, std::uint64_t> post_send(Queue& q, Stream& s, const CheckedP2p& x);
  void receive(Queue& q, Stream& s, const CheckedP2p& x, const MemoryRegistry* memory);

  std::shared_ptr<Domain> domain_;
  std::uint32_t rank_;
  std::uint32_t device_;
  std::uint64_t next_seq_ = 0;
  std::map<std::uint32_t, std::uint64_t> sent_;      // messages sent, by peer
  std::map<std::uint32_t, std::uint64_t> received_;  // messages received, by peer
  std::map<void*, std::vector<void*>> helpers_;      // helper stream handles, by context
  std::vector<Buffer> scratch_;                      // every scratch block (last = current)
  std::uint64_t scratch_size_ = 0;
};

/// The domain registry (under the API lock).
std::shared_ptr<Domain> new_domain();
std::shared_ptr<Domain> find_domain(std::uint64_t id);
/// Cross-process domains (runtime/hccl/cross.cpp). The hub's id of a new domain (0: no session).
std::uint64_t register_domain(const std::shared_ptr<Domain>& d);
/// This process's Domain for the hub's domain `remote_id` (made on first use).
std::shared_ptr<Domain> remote_domain(std::uint64_t remote_id);
/// Sends rank `rank` (of this process, on `device`) to the hub; fails with a message.
void join_remote(Call& c, const std::shared_ptr<Domain>& d, std::uint32_t rank,
                 std::uint32_t nranks, std::uint32_t device);
/// After the rendezvous: an all-local domain needs the hub no more.
void settle(const std::shared_ptr<Domain>& d);
/// The last rank of this process left the domain.
void leave_remote(Domain& d);
/// What this process's ranks tell the other processes (cross domains only).
void post_flag(Domain& d, std::uint32_t rank, std::uint64_t channel, std::uint64_t value,
               std::uint64_t time);
void post_args(Domain& d, std::uint64_t seq, std::uint32_t rank, const RankArgs& args);
void post_message(Domain& d, std::uint32_t from, std::uint32_t to, std::uint64_t k,
                  const Buffer& buf, std::uint64_t bytes);
/// The session name this process uses ("" without one).
std::string session();

/// Live communicators (handle validation).
bool live_comm(const void* comm);
void add_comm(Comm* comm);
void remove_comm(Comm* comm);

}  // namespace npusim::rt::hccl
