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

std::string Comm::name() const {
  if (domain_->cross) return "npusim_hccl_session_domain_" + std::to_string(domain_->remote_id);
  return "npusim_hccl_domain_" + std::to_string(domain_->id);
}

struct Comm::Plan {
  struct Move {
    std::uint32_t peer = 0;  // rank the source lives on (own rank: local)
    Ref dst;
    Ref src;
    std::uint64_t bytes = 0;
    bool reduce = false;
    const char* what = "Memcpy";
  };
  std::vector<Move> pulls;   // after the first handshake, one helper stream per peer
  std::vector<Move> finish;  // local, after the second handshake, in order
  int op = 0;                // HcclReduceOp
  int type = 4;              // HcclDataType
  std::size_t width = 1;

  /// The mesh reduction of AllReduce, ReduceScatter and Reduce (at the root): pull every rank k's
  /// `bytes` at `src_offset` of its send buffer into scratch slot k, then recv = slot 0, and
  /// recv (op)= slot k for k = 1 .. n-1 (rank order).
  static Plan gather_reduce(std::uint32_t me, std::uint32_t n, std::uint64_t bytes,
                            std::uint64_t src_offset, int op, int type, std::size_t width) {
    Plan plan;
    plan.op = op;
    plan.type = type;
    plan.width = width;
    for (std::uint32_t k = 0; k < n; ++k) {
      plan.pulls.push_back(
          {k, {me, Ref::kScratch, k * bytes, -1, 0}, {k, Ref::kSend, src_offset, -1, 0}, bytes,
           false, "Memcpy"});
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

void Comm::run_mesh(Call& c, Stream& s, std::uint64_t seq, Plan& plan, const char* name) {
  const std::uint32_t n = size();
  const std::uint64_t base = op_base(seq);
  const MemoryRegistry* memory = &c.runtime().memory();
  Queue q(c, domain_, name);
  auto device_of = [&](std::uint32_t r) { return domain_->device_of(r, device_); };
  auto issue = [&](Stream& on, const Plan::Move& m) {
    q.data(on, device_of(m.peer), locate(domain_, memory, seq, m.dst),
           locate(domain_, memory, seq, m.src), m.bytes, m.reduce, plan.op, plan.type, plan.width,
           m.what);
  };
  // The helper streams first: a rank that cannot get them (no free stream) fails the call before
  // anything is queued, and gives its collective number back so the ranks stay in step.
  try {
    for (const Plan::Move& m : plan.pulls) {
      if (m.peer != rank_) helper(c, s, (m.peer + n - rank_) % n - 1);
    }
  } catch (...) {
    --next_seq_;
    domain_->ops[seq].args[rank_] = RankArgs{};
    throw;
  }
  // Handshake 1: every rank's inputs are ready (and it finished its previous collective).
  q.post(s, rank_, kProgress, base + 1);
  for (std::uint32_t p = 0; p < n; ++p) {
    if (p != rank_) q.wait(s, p, kProgress, base + 1);
  }
  std::map<std::uint32_t, std::vector<const Plan::Move*>> by_peer;
  for (const Plan::Move& m : plan.pulls) {
    if (m.peer != rank_) by_peer[m.peer].push_back(&m);
  }
  if (!by_peer.empty()) q.post(s, rank_, kFork, base + 1);
  for (auto& [peer, moves] : by_peer) {
    const std::uint32_t index = (peer + n - rank_) % n - 1;
    Stream& h = helper(c, s, index);
    q.wait(h, rank_, kFork, base + 1);
    for (const Plan::Move* m : moves) issue(h, *m);
    q.post(h, rank_, kJoinBase + index, base + 1);
  }
  for (const Plan::Move& m : plan.pulls) {
    if (m.peer == rank_) issue(s, m);
  }
  for (auto& [peer, moves] : by_peer)
    q.wait(s, rank_, kJoinBase + (peer + n - rank_) % n - 1, base + 1);
  // Handshake 2: every rank finished reading the others' buffers.
  q.post(s, rank_, kProgress, base + 2);
  for (std::uint32_t p = 0; p < n; ++p) {
    if (p != rank_) q.wait(s, p, kProgress, base + 2);
  }
  for (const Plan::Move& m : plan.finish) issue(s, m);
  q.submit(s, [d = domain_, seq, r = rank_] { finish_op(*d, seq, r); });
}

void Comm::run_ring_all_reduce(Call& c, Stream& s, std::uint64_t seq, std::uint64_t count,
                               std::size_t width, int type, int op) {
  const std::uint32_t n = size();
  const std::uint64_t base = op_base(seq);
  const MemoryRegistry* memory = &c.runtime().memory();
  const std::uint32_t pred = (rank_ + n - 1) % n;
  const std::uint32_t succ = (rank_ + 1) % n;
  const std::uint32_t pred_device = domain_->device_of(pred, device_);
  Queue q(c, domain_, "HcclAllReduce ring");
  auto recv_chunk = [&](std::uint32_t r, std::uint32_t chunk) {
    Ref ref;
    ref.rank = r;
    ref.which = Ref::kRecv;
    ref.offset = chunk_begin(count, n, chunk) * width;
    return locate(domain_, memory, seq, ref);
  };
  auto chunk_bytes = [&](std::uint32_t chunk) {
    return (chunk_begin(count, n, chunk + 1) - chunk_begin(count, n, chunk)) * width;
  };
  const RankArgs& mine = domain_->ops[seq].args[rank_];
  if (mine.send.ptr != mine.recv.ptr) {
    Ref to{rank_, Ref::kRecv, 0, -1, 0};
    Ref from{rank_, Ref::kSend, 0, -1, 0};
    q.data(s, device_, locate(domain_, memory, seq, to), locate(domain_, memory, seq, from),
           count * width, false, op, type, width, "Memcpy");
  }
  q.post(s, rank_, kProgress, base + 1);
  // Reduce-scatter: step k reduces chunk rank-k-1 with the previous rank's partial sum.
  for (std::uint32_t k = 0; k + 1 < n; ++k) {
    const std::uint32_t chunk = (rank_ + 2 * n - k - 1) % n;
    q.wait(s, pred, kProgress, base + 1 + k);
    q.data(s, pred_device, recv_chunk(rank_, chunk), recv_chunk(pred, chunk), chunk_bytes(chunk),
           true, op, type, width, "Reduce");
    q.post(s, rank_, kProgress, base + 2 + k);
  }
  if (n > 1) q.wait(s, succ, kProgress, base + n);  // the next rank read our partial sums
  // All-gather: step k copies the final chunk rank-k from the previous rank.
  for (std::uint32_t k = 0; k + 1 < n; ++k) {
    const std::uint32_t chunk = (rank_ + n - k) % n;
    q.wait(s, pred, kProgress, base + n + k);
    q.data(s, pred_device, recv_chunk(rank_, chunk), recv_chunk(pred, chunk), chunk_bytes(chunk),
           false, op, type, width, "Memcpy");
    q.post(s, rank_, kProgress, base + n + 1 + k);
  }
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
  require(root < n, kPara, "root " + std::to_string(root) + " is not a rank of the communicator");
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

void Comm::broadcast(Call& c, void* stream, void* buf, std::uint64_t count, int type,
                     std::uint32_t root) {
  const TypeInfo t = type_info(type);
  const std::uint32_t n = size();
  require(root < n, kPara, "root " + std::to_string(root) + " is not a rank of the communicator");
  Stream& s = user_stream(c, stream);
  if (count == 0) return;
  const std::uint64_t bytes = checked_bytes(count, t.width);
  RankArgs args;
  args.sig = {Signature::kBroadcast, count, type, -1, root};
  args.send = device_buffer(c, buf, bytes, device_, "buf");
  args.recv = args.send;
  const std::uint64_t seq = publish(std::move(args));
  Plan plan;
  plan.width = t.width;
  if (rank_ != root) {
    plan.pulls.push_back({root,
                          {rank_, Ref::kRecv, 0, -1, 0},
                          {root, Ref::kSend, 0, -1, 0},
                          bytes,
                          false,
                          "Memcpy"});
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
  Plan plan;
  plan.width = t.width;
  for (std::uint32_t k = 0; k < n; ++k) {
    plan.pulls.push_back({k,
                          {rank_, Ref::kRecv, k * bytes, -1, 0},
                          {k, Ref::kSend, 0, -1, 0},
                          bytes,
                          false,
                          "Memcpy"});
  }
  run_mesh(c, s, seq, plan, "HcclAllGather");
}

void Comm::scatter(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type,
                   std::uint32_t root) {
  const TypeInfo t = type_info(type);
  const std::uint32_t n = size();
  require(root < n, kPara, "root " + std::to_string(root) + " is not a rank of the communicator");
  Stream& s = user_stream(c, stream);
  if (count == 0) return;
  const std::uint64_t bytes = checked_bytes(count, t.width);
  RankArgs args;
  args.sig = {Signature::kScatter, count, type, -1, root};
  if (rank_ == root) args.send = device_buffer(c, send, bytes * n, device_, "sendBuf");
  args.recv = device_buffer(c, recv, bytes, device_, "recvBuf");
  const std::uint64_t seq = publish(std::move(args));
  Plan plan;
  plan.width = t.width;
  plan.pulls.push_back({root,
                        {rank_, Ref::kRecv, 0, -1, 0},
                        {root, Ref::kSend, rank_ * bytes, -1, 0},
                        bytes,
                        false,
                        "Memcpy"});
  run_mesh(c, s, seq, plan, "HcclScatter");
}

void Comm::all_to_all_v(Call& c, void* stream, const void* send,
                        const std::vector<std::uint64_t>& scounts,
                        const std::vector<std::uint64_t>& sdispls, int stype, const void* recv,
                        const std::vector<std::uint64_t>& rcounts,
                        const std::vector<std::uint64_t>& rdispls, int rtype, const char* name) {
  const TypeInfo st = type_info(stype);
  const TypeInfo rt = type_info(rtype);
  require(stype == rtype, kPara, std::string(name) + ": sendType and recvType differ");
  Stream& s = user_stream(c, stream);
  const std::uint32_t n = size();
  std::uint64_t send_end = 0, recv_end = 0;
  for (std::uint32_t k = 0; k < n; ++k) {
    send_end = std::max(send_end,
                        checked_bytes(sdispls[k], st.width) + checked_bytes(scounts[k], st.width));
    recv_end = std::max(recv_end,
                        checked_bytes(rdispls[k], rt.width) + checked_bytes(rcounts[k], rt.width));
  }
  RankArgs args;
  args.sig = {Signature::kAlltoAll, 0, stype, -1, 0};  // counts: checked pull by pull
  if (send_end > 0) args.send = device_buffer(c, send, send_end, device_, "sendBuf");
  if (recv_end > 0) args.recv = device_buffer(c, recv, recv_end, device_, "recvBuf");
  if (send_end > 0 && recv_end > 0) {
    const auto* s0 = static_cast<const unsigned char*>(send);
    const auto* r0 = static_cast<const unsigned char*>(recv);
    require(s0 + send_end <= r0 || r0 + recv_end <= s0, kPara,
            std::string(name) + ": sendBuf and recvBuf overlap");
  }
  args.sdispls = sdispls;
  args.scounts = scounts;
  const std::uint64_t seq = publish(std::move(args));
  Plan plan;
  plan.width = rt.width;
  for (std::uint32_t k = 0; k < n; ++k) {
    Ref src{k, Ref::kSend, 0, static_cast<std::int64_t>(rank_), rt.width, rcounts[k] * rt.width};
    plan.pulls.push_back({k,
                          {rank_, Ref::kRecv, rdispls[k] * rt.width, -1, 0},
                          src,
                          rcounts[k] * rt.width,
                          false,
                          "Memcpy"});
  }
  run_mesh(c, s, seq, plan, name);
}

void Comm::barrier(Call& c, void* stream) {
  Stream& s = user_stream(c, stream);
  RankArgs args;
  args.sig.kind = Signature::kBarrier;
  const std::uint64_t seq = publish(std::move(args));
  Plan plan;
  run_mesh(c, s, seq, plan, "HcclBarrier");
}

void Comm::send_recv(Call& c, void* stream, const std::vector<P2p>& items, const char* name) {
  Stream& s = user_stream(c, stream);
  const std::uint32_t n = size();
  struct Checked {
    const P2p* item;
    Buffer buf;
    std::uint64_t bytes;
  };
  std::vector<Checked> checked;
  for (const P2p& item : items) {
    const TypeInfo t = type_info(item.type);
    require(item.peer < n, kPara,
            "rank " + std::to_string(item.peer) + " is not a rank of the communicator");
    require(item.peer != rank_, kPara, "a rank cannot send to or receive from itself");
    const std::uint64_t bytes = checked_bytes(item.count, t.width);
    Buffer b;
    if (bytes > 0)
      b = device_buffer(c, item.buf, bytes, device_, item.send ? "sendBuf" : "recvBuf");
    checked.push_back({&item, b, bytes});
  }
  const MemoryRegistry* memory = &c.runtime().memory();
  Queue q(c, domain_, name);
  std::vector<std::pair<std::uint32_t, std::uint64_t>> sends;
  // Sends first: publish the buffer and say it is ready.
  for (const Checked& x : checked) {
    if (!x.item->send) continue;
    const std::uint64_t k = ++sent_[x.item->peer];
    domain_->messages[{rank_, x.item->peer, k}] = {x.buf, x.bytes};
    if (domain_->cross) post_message(*domain_, rank_, x.item->peer, k, x.buf, x.bytes);
    q.post(s, rank_, kSendReady + x.item->peer, k);
    sends.emplace_back(x.item->peer, k);
  }
  // Receives: wait for the sender, pull its buffer, say it was consumed.
  for (const Checked& x : checked) {
    if (x.item->send) continue;
    const std::uint32_t peer = x.item->peer;
    const std::uint64_t k = ++received_[peer];
    q.wait(s, peer, kSendReady + rank_, k);
    const auto key = std::make_tuple(peer, rank_, k);
    const std::uint32_t peer_device = domain_->device_of(peer, device_);
    const Buffer mine = x.buf;
    const std::uint64_t bytes = x.bytes;
    q.data(
        s, peer_device,
        [memory, mine]() -> unsigned char* {
          return memory->alive(mine.serial) ? mine.ptr : nullptr;
        },
        [d = domain_, memory, key, bytes]() -> unsigned char* {
          auto it = d->messages.find(key);
          if (it == d->messages.end()) return nullptr;
          const Domain::Message m = it->second;
          d->messages.erase(it);
          // A send of another size than the receive fails the receive (nothing is copied).
          if (m.bytes != bytes || (!m.buf.remote && !memory->alive(m.buf.serial))) return nullptr;
          return m.buf.ptr;
        },
        bytes, false, 0, 7, 1, "Memcpy");
    q.post(s, rank_, kRecvDone + peer, k);
  }
  // The sender's stream goes on once every receiver has its data.
  for (const auto& [peer, k] : sends) q.wait(s, peer, kRecvDone + rank_, k);
  q.submit(s, nullptr);
}

void Comm::destroy(Call& c) {
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
  for (const Buffer& b : scratch_) rt.memory().release_if(b.ptr, b.serial);
  scratch_.clear();
  if (rank_ < domain_->ranks.size() && domain_->ranks[rank_] == this) {
    domain_->ranks[rank_] = nullptr;
    if (domain_->local > 0 && --domain_->local == 0 && domain_->remote_id != 0) {
      leave_remote(*domain_);
    }
  }
}

}  // namespace npusim::rt::hccl
