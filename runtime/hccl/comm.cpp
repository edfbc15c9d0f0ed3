// SPDX-License-Identifier: Apache-2.0
#include "runtime/hccl/comm.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <type_traits>

#include "acl/acl_base.h"
#include "npusim/ascendc/half.h"
#include "runtime/core/api_call.h"
#include "runtime/core/builtin_tasks.h"
#include "runtime/core/errors.h"
#include "runtime/core/memory_registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stream.h"
#include "runtime/hccl/tasks.h"

namespace npusim::rt::hccl {
namespace {

std::map<std::uint64_t, std::weak_ptr<Domain>>& domains() {
  static auto* table = new std::map<std::uint64_t, std::weak_ptr<Domain>>();  // never destroyed
  return *table;
}
std::set<const void*>& comms() {
  static auto* table = new std::set<const void*>();  // never destroyed
  return *table;
}

// Rank `rank` finished collective `seq`. Its progress flag moves to the op's last step, which
// releases a peer that planned more steps for the same op (ranks that disagree on the count may
// disagree on the algorithm, mesh or ring; their data tasks failed). Ranks that agree have waited
// for every step they wait for already: their timing is unchanged.
void finish_op(Domain& d, std::uint64_t seq, std::uint32_t rank) {
  std::uint64_t& f = d.flags[{rank, kProgress}];
  f = std::max(f, op_base(seq) + kStepsPerOp - 1);
  d.finish_op(seq);
}

}  // namespace

// ---- Registry ----

std::shared_ptr<Domain> new_domain() {
  static std::uint64_t next_id = 0;
  auto d = std::make_shared<Domain>();
  d->id = ++next_id;
  domains()[d->id] = d;
  return d;
}

std::shared_ptr<Domain> find_domain(std::uint64_t id) {
  auto it = domains().find(id);
  return it == domains().end() ? nullptr : it->second.lock();
}

bool live_comm(const void* comm) { return comms().count(comm) != 0; }
void add_comm(Comm* comm) { comms().insert(comm); }
void remove_comm(Comm* comm) { comms().erase(comm); }

std::string Signature::text() const {
  static const char* const kNames[] = {"nothing",       "AllReduce", "Broadcast",
                                       "AllGather",     "ReduceScatter", "Reduce",
                                       "Scatter",       "AlltoAll",  "Barrier"};
  std::string s = kind < sizeof kNames / sizeof *kNames ? kNames[kind] : "?";
  return s + " (count " + std::to_string(count) + ", dataType " + std::to_string(type) +
         ", op " + std::to_string(op) + ", root " + std::to_string(root) + ")";
}

// ---- Comm ----

namespace {

void require_root(std::uint32_t root, std::uint32_t n) {
  require(root < n, kPara, "root " + std::to_string(root) + " is not a rank of the communicator");
}

}  // namespace

std::string Comm::name() const {
  if (domain_->cross) return "npusim_hccl_session_domain_" + std::to_string(domain_->remote_id);
  return "npusim_hccl_domain_" + std::to_string(domain_->id);
}

struct Comm::PlanMove {
  std::uint32_t peer = 0;  // rank the source lives on (own rank: local)
  Ref dst;
  Ref src;
  std::uint64_t bytes = 0;
  bool reduce = false;
  const char* what = "Memcpy";
};

struct Comm::Plan {
  using Move = PlanMove;
  std::vector<Move> pulls;   // after the first handshake, one helper stream per peer
  std::vector<Move> finish;  // local, after the second handshake, in order
  int op = 0;                // HcclReduceOp
  int type = 4;              // HcclDataType
  std::size_t width = 1;

  explicit Plan(std::size_t element_width = 1) : width(element_width) {}

  /// Pulls `bytes` from rank `peer`'s `src` into `dst` (a plain copy).
  void copy(std::uint32_t peer, const Ref& dst, const Ref& src, std::uint64_t bytes) {
    pulls.push_back({peer, dst, src, bytes, false, "Memcpy"});
  }

  /// The mesh reduction of AllReduce, ReduceScatter and Reduce (at the root): pull every rank k's
  /// `bytes` at `src_offset` of its send buffer into scratch slot k, then recv = slot 0, and
  /// recv (op)= slot k for k = 1 .. n-1 (rank order).
  static Plan gather_reduce(std::uint32_t me, std::uint32_t n, std::uint64_t bytes,
                            std::uint64_t src_offset, int op, int type, std::size_t width) {
    Plan plan(width);
    plan.op = op;
    plan.type = type;
    for (std::uint32_t k = 0; k < n; ++k) {
      plan.copy(k, {me, Ref::kScratch, k * bytes, -1, 0}, {k, Ref::kSend, src_offset, -1, 0},
                bytes);
    }
    for (std::uint32_t k = 0; k < n; ++k) {
      plan.finish.push_back({me, {me, Ref::kRecv, 0, -1, 0}, {me, Ref::kScratch, k * bytes, -1, 0},
                             bytes, k > 0, k > 0 ? "Reduce" : "Memcpy"});
    }
    return plan;
  }
};

Stream& Comm::user_stream(Call& c, void* handle) const {
  Stream& s = c.stream(handle);
  require(s.device == device_, kPara,
          "the stream belongs to device " + std::to_string(s.device) + ", the rank to device " +
              std::to_string(device_));
  return s;
}

Stream& Comm::helper(Call& c, Stream& user, std::uint32_t index) {
  std::vector<void*>& list = helpers_[user.context];
  if (list.size() <= index) list.resize(index + 1, nullptr);
  Stream* s = list[index] != nullptr ? c.runtime().streams().find(list[index]) : nullptr;
  if (s == nullptr) {
    list[index] = new_stream(c, user.context, user.priority, 0, false);
    s = c.runtime().streams().find(list[index]);
  }
  return *s;
}

Buffer Comm::scratch(Call& c, std::uint64_t bytes) {
  if (bytes > scratch_size_ || scratch_.empty()) {
    const Allocation* a =
        c.runtime().memory().allocate(MemKind::kDevice, device_, std::max<std::uint64_t>(bytes, 64),
                                      std::max<std::uint64_t>(bytes, 64));
    require(a != nullptr, kMemory, "no device memory for the communicator's scratch buffer");
    scratch_.push_back({reinterpret_cast<unsigned char*>(a->base), a->serial});
    scratch_size_ = std::max<std::uint64_t>(bytes, 64);
  }
  return scratch_.back();
}

std::uint64_t Comm::publish(RankArgs args) {
  const std::uint64_t seq = next_seq_++;
  Domain::Op& op = domain_->ops[seq];
  if (op.args.size() != size()) op.args.resize(size());
  op.args[rank_] = std::move(args);
  if (domain_->cross) post_args(*domain_, seq, rank_, op.args[rank_]);
  return seq;
}

// One move of a plan: a pull over the link when its source is on another rank's chip.
void Comm::issue(Queue& q, Stream& on, std::uint64_t seq, const Plan& plan, const PlanMove& m,
                 const MemoryRegistry* memory) {
  q.data(on, domain_->device_of(m.peer, device_), locate(domain_, memory, seq, m.dst),
         locate(domain_, memory, seq, m.src), m.bytes, m.reduce, plan.op, plan.type, plan.width,
         m.what);
}

// The helper streams first: a rank that cannot get them (no free stream) fails the call before
// anything is queued, and gives its collective number back so the ranks stay in step.
void Comm::reserve_helpers(Call& c, Stream& s, std::uint64_t seq, const Plan& plan) {
  try {
    for (const Plan::Move& m : plan.pulls) {
      if (m.peer != rank_) helper(c, s, helper_index(m.peer));
    }
  } catch (...) {
    --next_seq_;
    domain_->ops[seq].args[rank_] = RankArgs{};
    throw;
  }
}

// Every rank raises its progress flag to `value` and waits until all others did.
void Comm::handshake(Queue& q, Stream& s, std::uint64_t value) {
  q.post(s, rank_, kProgress, value);
  for (std::uint32_t p = 0; p < size(); ++p) {
    if (p != rank_) q.wait(s, p, kProgress, value);
  }
}

// The pulls of a plan: those from each peer on a helper stream of its own (forked from and
// joined to `s`), the local ones on `s`.
void Comm::pull(Call& c, Queue& q, Stream& s, std::uint64_t seq, const Plan& plan) {
  const std::uint64_t flag = op_base(seq) + 1;
  const MemoryRegistry* memory = &c.runtime().memory();
  std::map<std::uint32_t, std::vector<const Plan::Move*>> by_peer;
  for (const Plan::Move& m : plan.pulls) {
    if (m.peer != rank_) by_peer[m.peer].push_back(&m);
  }
  if (!by_peer.empty()) q.post(s, rank_, kFork, flag);
  for (auto& [peer, moves] : by_peer) {
    const std::uint32_t index = helper_index(peer);
    Stream& h = helper(c, s, index);
    q.wait(h, rank_, kFork, flag);
    for (const Plan::Move* m : moves) issue(q, h, seq, plan, *m, memory);
    q.post(h, rank_, kJoinBase + index, flag);
  }
  for (const Plan::Move& m : plan.pulls) {
    if (m.peer == rank_) issue(q, s, seq, plan, m, memory);
  }
  for (auto& [peer, moves] : by_peer) q.wait(s, rank_, kJoinBase + helper_index(peer), flag);
}

// The helper stream that pulls from `peer` (peers in ring order after this rank).
std::uint32_t Comm::helper_index(std::uint32_t peer) const {
  return (peer + size() - rank_) % size() - 1;
}

void Comm::run_mesh(Call& c, Stream& s, std::uint64_t seq, Plan& plan, const char* name) {
  const std::uint64_t base = op_base(seq);
  Queue q(c, domain_, name);
  reserve_helpers(c, s, seq, plan);
  handshake(q, s, base + 1);  // every rank's inputs are ready (and it finished its previous op)
  pull(c, q, s, seq, plan);
  handshake(q, s, base + 2);  // every rank finished reading the others' buffers
  for (const Plan::Move& m : plan.finish) issue(q, s, seq, plan, m, &c.runtime().memory());
  q.submit(s, [d = domain_, seq, r = rank_] { finish_op(*d, seq, r); });
}

// Chunk k of every rank's receive buffer in a ring all-reduce of `count` elements.
struct Comm::Ring {
  std::shared_ptr<Domain> domain;
  const MemoryRegistry* memory;
  std::uint64_t seq;
  std::uint64_t count;
  std::uint32_t n;
  std::size_t width;
  int op;
  int type;

  Locate chunk(std::uint32_t rank, std::uint32_t k) const {
    Ref ref;
    ref.rank = rank;
    ref.which = Ref::kRecv;
    ref.offset = chunk_begin(count, n, k) * width;
    return locate(domain, memory, seq, ref);
  }
  std::uint64_t chunk_bytes(std::uint32_t k) const {
    return (chunk_begin(count, n, k + 1) - chunk_begin(count, n, k)) * width;
  }
  // The rank's send buffer into its receive buffer: the ring works in the receive buffer.
  void copy_in(Queue& q, Stream& s, std::uint32_t rank, std::uint32_t device) const {
    const RankArgs& mine = domain->ops[seq].args[rank];
    if (mine.send.ptr == mine.recv.ptr) return;
    Ref to{rank, Ref::kRecv, 0, -1, 0};
    Ref from{rank, Ref::kSend, 0, -1, 0};
    q.data(s, device, locate(domain, memory, seq, to), locate(domain, memory, seq, from),
           count * width, false, op, type, width, "Memcpy");
  }
};

// n-1 steps around the ring: step k waits for the previous rank's flag `flag + k`, pulls (or
// reduces with) its chunk (first - k) mod n, and raises this rank's flag to `flag + k + 1`.
void Comm::ring_pass(Queue& q, Stream& s, const Ring& ring, std::uint32_t first,
                     std::uint64_t flag, bool reduce) {
  const std::uint32_t n = ring.n;
  const std::uint32_t pred = (rank_ + n - 1) % n;
  const std::uint32_t pred_device = domain_->device_of(pred, device_);
  for (std::uint32_t k = 0; k + 1 < n; ++k) {
    const std::uint32_t chunk = (first - k) % n;
    q.wait(s, pred, kProgress, flag + k);
    q.data(s, pred_device, ring.chunk(rank_, chunk), ring.chunk(pred, chunk),
           ring.chunk_bytes(chunk), reduce, ring.op, ring.type, ring.width,
           reduce ? "Reduce" : "Memcpy");
    q.post(s, rank_, kProgress, flag + 1 + k);
  }
}

void Comm::run_ring_all_reduce(Call& c, Stream& s, std::uint64_t seq, std::uint64_t count,
                               std::size_t width, int type, int op) {
  const std::uint32_t n = size();
  const std::uint64_t base = op_base(seq);
  const MemoryRegistry* memory = &c.runtime().memory();
  const std::uint32_t succ = (rank_ + 1) % n;
  Queue q(c, domain_, "HcclAllReduce ring");
  const Ring ring{domain_, memory, seq, count, n, width, op, type};
  ring.copy_in(q, s, rank_, device_);
  q.post(s, rank_, kProgress, base + 1);
  // Reduce-scatter: step k reduces chunk rank-k-1 with the previous rank's partial sum.
  ring_pass(q, s, ring, rank_ + 2 * n - 1, base + 1, true);
  if (n > 1) q.wait(s, succ, kProgress, base + n);  // the next rank read our partial sums
  // All-gather: step k copies the final chunk rank-k from the previous rank.
  ring_pass(q, s, ring, rank_ + n, base + n, false);
  if (n > 1) q.wait(s, succ, kProgress, base + 2 * n - 1);  // the next rank read our result
  q.submit(s, [d = domain_, seq, r = rank_] { finish_op(*d, seq, r); });
}

void Comm::all_reduce(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type,
                      int op_int) {
  const TypeInfo t = type_info(type);
  const int op = reduce_op(c, op_int, t, "HcclAllReduce");
  Stream& s = user_stream(c, stream);
  if (count == 0) return;
  const std::uint64_t bytes = checked_bytes(count, t.width);
  RankArgs args;
  args.sig = {Signature::kAllReduce, count, type, op, 0};
  args.send = device_buffer(c, send, bytes, device_, "sendBuf");
  args.recv = device_buffer(c, recv, bytes, device_, "recvBuf");
  const std::uint32_t n = size();
  const bool ring = n > 1 && bytes >= c.config().hccl.ring_threshold.value;
  if (ring) {
    const std::uint64_t seq = publish(std::move(args));
    run_ring_all_reduce(c, s, seq, count, t.width, type, op);
    return;
  }
  args.scratch = scratch(c, bytes * n);
  const std::uint64_t seq = publish(std::move(args));
  Plan plan = Plan::gather_reduce(rank_, n, bytes, 0, op, type, t.width);
  run_mesh(c, s, seq, plan, "HcclAllReduce mesh");
}

void Comm::reduce_scatter(Call& c, void* stream, void* send, void* recv, std::uint64_t count,
                          int type, int op_int) {
  const TypeInfo t = type_info(type);
  const int op = reduce_op(c, op_int, t, "HcclReduceScatter");
  Stream& s = user_stream(c, stream);
  if (count == 0) return;
  const std::uint32_t n = size();
  const std::uint64_t bytes = checked_bytes(count, t.width);
  RankArgs args;
  args.sig = {Signature::kReduceScatter, count, type, op, 0};
  args.send = device_buffer(c, send, bytes * n, device_, "sendBuf");
  args.recv = device_buffer(c, recv, bytes, device_, "recvBuf");
  args.scratch = scratch(c, bytes * n);
  const std::uint64_t seq = publish(std::move(args));
  Plan plan = Plan::gather_reduce(rank_, n, bytes, rank_ * bytes, op, type, t.width);
  run_mesh(c, s, seq, plan, "HcclReduceScatter");
}

void Comm::reduce(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type,
                  int op_int, std::uint32_t root) {
  const TypeInfo t = type_info(type);
  const int op = reduce_op(c, op_int, t, "HcclReduce");
  const std::uint32_t n = size();
  require_root(root, n);
  Stream& s = user_stream(c, stream);
  if (count == 0) return;
  const std::uint64_t bytes = checked_bytes(count, t.width);
  RankArgs args;
  args.sig = {Signature::kReduce, count, type, op, root};
  args.send = device_buffer(c, send, bytes, device_, "sendBuf");
  Plan plan;
  if (rank_ == root) {
    args.recv = device_buffer(c, recv, bytes, device_, "recvBuf");
    args.scratch = scratch(c, bytes * n);
    plan = Plan::gather_reduce(rank_, n, bytes, 0, op, type, t.width);
  }
  plan.op = op;
  plan.type = type;
  plan.width = t.width;
  const std::uint64_t seq = publish(std::move(args));
  run_mesh(c, s, seq, plan, "HcclReduce");
}

// What broadcast and scatter check first, in this order: the type, the root, the stream; bytes
// is 0 when count is (nothing to do).
struct Comm::Rooted {
  TypeInfo t;
  Stream* s;
  std::uint64_t bytes;
};

Comm::Rooted Comm::rooted(Call& c, void* stream, std::uint64_t count, int type,
                          std::uint32_t root) {
  const TypeInfo t = type_info(type);
  require_root(root, size());
  Stream& s = user_stream(c, stream);
  return {t, &s, count == 0 ? 0 : checked_bytes(count, t.width)};
}

void Comm::broadcast(Call& c, void* stream, void* buf, std::uint64_t count, int type,
                     std::uint32_t root) {
  const Rooted r = rooted(c, stream, count, type, root);
  if (count == 0) return;
  const TypeInfo& t = r.t;
  Stream& s = *r.s;
  const std::uint64_t bytes = r.bytes;
  RankArgs args;
  args.sig = {Signature::kBroadcast, count, type, -1, root};
  args.send = device_buffer(c, buf, bytes, device_, "buf");
  args.recv = args.send;
  const std::uint64_t seq = publish(std::move(args));
  Plan plan(t.width);
  if (rank_ != root) {
    plan.copy(root, {rank_, Ref::kRecv, 0, -1, 0}, {root, Ref::kSend, 0, -1, 0}, bytes);
  }
  run_mesh(c, s, seq, plan, "HcclBroadcast");
}

void Comm::all_gather(Call& c, void* stream, void* send, void* recv, std::uint64_t count,
                      int type) {
  const TypeInfo t = type_info(type);
  Stream& s = user_stream(c, stream);
  if (count == 0) return;
  const std::uint32_t n = size();
  const std::uint64_t bytes = checked_bytes(count, t.width);
  RankArgs args;
  args.sig = {Signature::kAllGather, count, type, -1, 0};
  args.send = device_buffer(c, send, bytes, device_, "sendBuf");
  args.recv = device_buffer(c, recv, bytes * n, device_, "recvBuf");
  const std::uint64_t seq = publish(std::move(args));
  Plan plan(t.width);
  for (std::uint32_t k = 0; k < n; ++k) {
    plan.copy(k, {rank_, Ref::kRecv, k * bytes, -1, 0}, {k, Ref::kSend, 0, -1, 0}, bytes);
  }
  run_mesh(c, s, seq, plan, "HcclAllGather");
}

void Comm::scatter(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type,
                   std::uint32_t root) {
  const Rooted r = rooted(c, stream, count, type, root);
  if (count == 0) return;
  const std::uint32_t n = size();
  const std::uint64_t bytes = r.bytes;
  Stream& s = *r.s;
  RankArgs args;
  args.sig = {Signature::kScatter, count, type, -1, root};
  if (rank_ == root) args.send = device_buffer(c, send, bytes * n, device_, "sendBuf");
  args.recv = device_buffer(c, recv, bytes, device_, "recvBuf");
  const std::uint64_t seq = publish(std::move(args));
  Plan plan(r.t.width);
  plan.copy(root, {rank_, Ref::kRecv, 0, -1, 0}, {root, Ref::kSend, rank_ * bytes, -1, 0}, bytes);
  run_mesh(c, s, seq, plan, "HcclScatter");
}

namespace {

// The ends (bytes) of the furthest send and receive blocks of AlltoAllV, checked peer by peer.
std::pair<std::uint64_t, std::uint64_t> blocks_end(
    const std::vector<std::uint64_t>& scounts, const std::vector<std::uint64_t>& sdispls,
    const std::vector<std::uint64_t>& rcounts, const std::vector<std::uint64_t>& rdispls,
    std::uint32_t n, std::size_t width) {
  std::uint64_t send_end = 0, recv_end = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    send_end =
        std::max(send_end, checked_bytes(sdispls[k], width) + checked_bytes(scounts[k], width));
    recv_end =
        std::max(recv_end, checked_bytes(rdispls[k], width) + checked_bytes(rcounts[k], width));
  }
  return {send_end, recv_end};
}

void require_apart(const void* send, std::uint64_t send_end, const void* recv,
                   std::uint64_t recv_end, const char* name) {
  const auto* s0 = static_cast<const unsigned char*>(send);
  const auto* r0 = static_cast<const unsigned char*>(recv);
  require(s0 + send_end <= r0 || r0 + recv_end <= s0, kPara,
          std::string(name) + ": sendBuf and recvBuf overlap");
}

}  // namespace

void Comm::all_to_all_v(Call& c, void* stream, const void* send,
                        const std::vector<std::uint64_t>& scounts,
                        const std::vector<std::uint64_t>& sdispls, int stype, const void* recv,
                        const std::vector<std::uint64_t>& rcounts,
                        const std::vector<std::uint64_t>& rdispls, int rtype, const char* name) {
  const TypeInfo st = type_info(stype);
  const TypeInfo rt = type_info(rtype);
  require(stype == rtype, kPara, std::string(name) + ": sendType and recvType differ");
  Stream& s = user_stream(c, stream);
  const auto [send_end, recv_end] =
      blocks_end(scounts, sdispls, rcounts, rdispls, size(), st.width);
  RankArgs args;
  args.sig = {Signature::kAlltoAll, 0, stype, -1, 0};  // counts: checked pull by pull
  if (send_end > 0) args.send = device_buffer(c, send, send_end, device_, "sendBuf");
  if (recv_end > 0) args.recv = device_buffer(c, recv, recv_end, device_, "recvBuf");
  if (send_end > 0 && recv_end > 0) require_apart(send, send_end, recv, recv_end, name);
  args.sdispls = sdispls;
  args.scounts = scounts;
  const std::uint64_t seq = publish(std::move(args));
  Plan plan = all_to_all_plan(rcounts, rdispls, rt.width);
  run_mesh(c, s, seq, plan, name);
}

// AlltoAllV's pulls: from every rank k, the block it sends to this rank, into rdispls[k].
Comm::Plan Comm::all_to_all_plan(const std::vector<std::uint64_t>& rcounts,
                                 const std::vector<std::uint64_t>& rdispls,
                                 std::size_t width) const {
  Plan plan(width);
  for (std::uint32_t k = 0; k < size(); ++k) {
    Ref src{k, Ref::kSend, 0, static_cast<std::int64_t>(rank_), width, rcounts[k] * width};
    plan.copy(k, {rank_, Ref::kRecv, rdispls[k] * width, -1, 0}, src, rcounts[k] * width);
  }
  return plan;
}

void Comm::barrier(Call& c, void* stream) {
  Stream& s = user_stream(c, stream);
  RankArgs args;
  args.sig.kind = Signature::kBarrier;
  const std::uint64_t seq = publish(std::move(args));
  Plan plan;
  run_mesh(c, s, seq, plan, "HcclBarrier");
}

// The helper streams: each runs its tasks to the end, then goes.
void Comm::remove_helpers(Call& c) {
  Runtime& rt = c.runtime();
  for (auto& [context, list] : helpers_) {
    for (void* handle : list) {
      Stream* s = handle != nullptr ? rt.streams().find(handle) : nullptr;
      if (s == nullptr) continue;
      std::shared_ptr<StreamProgress> p = s->progress;
      const std::uint64_t target = p->submitted;
      if (p->finished < target) {
        c.backend().run_until([p, target] { return p->finished >= target; }, kForever);
      }
      discard_stream_tasks(c, *s);
      remove_stream(c, handle);
    }
  }
  helpers_.clear();
}

void Comm::destroy(Call& c) {
  remove_helpers(c);
  for (const Buffer& b : scratch_) c.runtime().memory().release_if(b.ptr, b.serial);
  scratch_.clear();
  if (rank_ < domain_->ranks.size() && domain_->ranks[rank_] == this) {
    domain_->ranks[rank_] = nullptr;
    if (domain_->local > 0 && --domain_->local == 0 && domain_->remote_id != 0) {
      leave_remote(*domain_);
    }
  }
}

}  // namespace npusim::rt::hccl
