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
#include "npusim/kernel/half.h"
#include "runtime/api_call.h"
#include "runtime/builtin_tasks.h"
#include "runtime/errors.h"
#include "runtime/memory_registry.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace npusim::rt::hccl {
namespace {

using builtin::ElemType;
using builtin::ReduceOp;

// Notify channels of a rank (the flag value encodes the collective and its step).
constexpr std::uint64_t kProgress = 0;             // collective progress of the rank
constexpr std::uint64_t kFork = 1;                 // local: the helper streams may start
constexpr std::uint64_t kJoinBase = 1ull << 8;     // + helper index: that helper finished
constexpr std::uint64_t kSendReady = 2ull << 32;   // + peer: message n to peer is ready
constexpr std::uint64_t kRecvDone = 3ull << 32;    // + peer: message n from peer consumed
constexpr std::uint64_t kStepsPerOp = 1ull << 12;  // > every step count (2n + 2, n <= 16)

std::uint64_t op_base(std::uint64_t seq) { return (seq + 1) * kStepsPerOp; }

std::map<std::uint64_t, std::weak_ptr<Domain>>& domains() {
  static auto* table = new std::map<std::uint64_t, std::weak_ptr<Domain>>();  // never destroyed
  return *table;
}
std::set<const void*>& comms() {
  static auto* table = new std::set<const void*>();  // never destroyed
  return *table;
}

struct TypeInfo {
  std::size_t width = 0;
  bool reducible = false;
  ElemType elem = ElemType::kFp32;
  const char* name = "";
};

TypeInfo type_info(int type) {
  switch (type) {
    case 0:
      return {1, true, ElemType::kInt8, "int8"};
    case 1:
      return {2, true, ElemType::kInt16, "int16"};
    case 2:
      return {4, true, ElemType::kInt32, "int32"};
    case 3:
      return {2, true, ElemType::kFp16, "fp16"};
    case 4:
      return {4, true, ElemType::kFp32, "fp32"};
    case 5:
      return {8, true, ElemType::kInt64, "int64"};
    case 6:
      return {8, true, ElemType::kUint64, "uint64"};
    case 7:
      return {1, true, ElemType::kUint8, "uint8"};
    case 8:
      return {2, true, ElemType::kUint16, "uint16"};
    case 9:
      return {4, true, ElemType::kUint32, "uint32"};
    case 10:
      return {8, true, ElemType::kFp32, "fp64"};  // reduced here, not by builtin
    case 11:
      return {2, true, ElemType::kBf16, "bfp16"};
    case 12:
      return {16, false, ElemType::kFp32, "int128"};
    default:
      fail(kPara, "dataType " + std::to_string(type) + " is not an HcclDataType");
  }
}

// The HcclReduceOp `op` (0 SUM, 1 PROD, 2 MAX, 3 MIN) validated for type `t`.
int reduce_op(Call& c, int op, const TypeInfo& t, const char* api) {
  require(op >= 0 && op <= 3, kPara, "op " + std::to_string(op) + " is not an HcclReduceOp");
  if (!t.reducible) {
    c.runtime().report_unsupported((std::string(api) + " on " + t.name).c_str());
    fail(kNotSupport, std::string("reductions of ") + t.name + " are not supported");
  }
  return op;
}

void combine_fp64(int op, void* dst, const void* src, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    double d, s;
    std::memcpy(&d, static_cast<unsigned char*>(dst) + 8 * i, 8);
    std::memcpy(&s, static_cast<const unsigned char*>(src) + 8 * i, 8);
    double r = d;
    if (op == 0) {
      r = d + s;
    } else if (op == 1) {
      r = d * s;
    } else if (!std::isnan(d) && (std::isnan(s) || (op == 2 ? s > d : s < d))) {
      r = s;  // MAX/MIN: a NaN propagates; equal values keep dst (as the SDMA's reduce)
    }
    std::memcpy(static_cast<unsigned char*>(dst) + 8 * i, &r, 8);
  }
}

// dst[i] = dst[i] (op) src[i]: the SDMA's reduce (runtime/builtin_tasks.h, with HCCL's PROD:
// integers wrap, fp16/bf16 multiplied in float and rounded to nearest even, fp32 IEEE), fp64 here.
void combine(int op, int type, void* dst, const void* src, std::size_t count) {
  if (type == 10) return combine_fp64(op, dst, src, count);
  constexpr ReduceOp kOps[] = {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMax, ReduceOp::kMin};
  builtin::reduce(kOps[op], type_info(type).elem, dst, src, count);
}

std::uint64_t checked_bytes(std::uint64_t count, std::size_t width) {
  require(count <= (std::uint64_t{1} << 40), kPara,
          "count " + std::to_string(count) + " is larger than npusim's HCCL takes (2^40)");
  return count * width;
}

// A device buffer of `device` holding [p, p + bytes).
Buffer device_buffer(Call& c, const void* p, std::uint64_t bytes, std::uint32_t device,
                     const char* what) {
  if (p == nullptr) fail(kPtr, std::string(what) + " is NULL");
  const Allocation* a = c.runtime().memory().find(p);
  require(a != nullptr && (a->kind == MemKind::kDevice || a->kind == MemKind::kManaged), kPara,
          std::string(what) + " is not device memory (aclrtMalloc)");
  require(a->device == device, kPara,
          std::string(what) + " is memory of device " + std::to_string(a->device) +
              ", the communicator's rank runs on device " + std::to_string(device));
  require(a->contains(reinterpret_cast<std::uintptr_t>(p), bytes), kPara,
          std::string(what) + " holds fewer than the " + std::to_string(bytes) +
              " bytes the call reads or writes");
  return {static_cast<unsigned char*>(const_cast<void*>(p)), a->serial};
}

// Where a data task reads or writes, resolved when the task runs.
struct Ref {
  enum Which : std::uint8_t { kSend, kRecv, kScratch };
  std::uint32_t rank = 0;
  Which which = kSend;
  std::uint64_t offset = 0;  // bytes
  std::int64_t sdispl = -1;  // >= 0: offset = that rank's sdispls[sdispl] * width
  std::size_t width = 0;
  std::uint64_t bytes = 0;  // sdispl >= 0: what the reader takes; the sender must send as much
};

using Locate = std::function<unsigned char*()>;  // nullptr: the memory is gone

Locate locate(const std::shared_ptr<Domain>& d, const MemoryRegistry* memory, std::uint64_t seq,
              const Ref& ref) {
  return [d, memory, seq, ref]() -> unsigned char* {
    auto it = d->ops.find(seq);
    if (it == d->ops.end() || ref.rank >= it->second.args.size()) return nullptr;
    const RankArgs& a = it->second.args[ref.rank];
    const Buffer& b = ref.which == Ref::kSend   ? a.send
                      : ref.which == Ref::kRecv ? a.recv
                                                : a.scratch;
    if (b.ptr == nullptr || (!b.remote && !memory->alive(b.serial))) return nullptr;
    std::uint64_t offset = ref.offset;
    if (ref.sdispl >= 0) {
      const auto i = static_cast<std::size_t>(ref.sdispl);
      // A receive count that differs from the peer's send count fails the pull.
      if (i >= a.sdispls.size() || a.scounts[i] * ref.width != ref.bytes) return nullptr;
      offset = a.sdispls[i] * ref.width;
    }
    return b.ptr + offset;
  };
}

// The timeline arrow from the notify record that sets flag (rank, channel) to `value` to the wait
// it releases: an id computed from the flag (not assigned in call order, which depends on how the
// rank threads interleave), so the same program writes the same ids.
std::uint64_t flow_key(std::uint64_t domain, std::uint32_t rank, std::uint64_t channel,
                       std::uint64_t value) {
  auto mix = [](std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::uint64_t h = mix(domain);
  h = mix(h ^ rank);
  h = mix(h ^ channel);
  h = mix(h ^ value);
  return h == 0 ? 1 : h;
}

// Queues tasks; the last one (on the main stream) carries `on_done`.
class Queue {
 public:
  Queue(Call& c, std::shared_ptr<Domain> d, std::string prefix)
      : c_(c), d_(std::move(d)), prefix_(std::move(prefix)) {}

  std::uint64_t sync_flow(std::uint32_t rank, std::uint64_t channel, std::uint64_t value) const {
    return flow_key(d_->id, rank, channel, value);
  }

  void post(Stream& s, std::uint32_t rank, std::uint64_t channel, std::uint64_t value) {
    Task t;
    t.kind = TaskKind::kValueWrite;
    t.name = prefix_ + " Notify Record";
    t.bytes = 8;
    t.sync_flow_out = sync_flow(rank, channel, value);
    t.effect = [d = d_, rank, channel, value]() -> int {
      std::uint64_t& f = d->flags[{rank, channel}];
      f = std::max(f, value);
      return 0;
    };
    // Ranks of other processes wait for the progress and message flags (not the local ones).
    if (d_->cross && (channel == kProgress || channel >= kSendReady)) {
      t.done = [d = d_, rank, channel, value](const TaskOutcome& r) {
        if (!r.discarded) post_flag(*d, rank, channel, value, r.end);
      };
    }
    add(s, std::move(t));
  }

  void wait(Stream& s, std::uint32_t rank, std::uint64_t channel, std::uint64_t value) {
    Task t;
    t.kind = TaskKind::kValueWait;
    t.name = prefix_ + " Notify Wait";
    t.bytes = 8;
    t.sync_flow_in = sync_flow(rank, channel, value);
    t.ready = [d = d_, rank, channel, value] { return d->flag(rank, channel) >= value; };
    t.effect = [error = error_] { return *error; };  // a failed data task of this call
    add(s, std::move(t));
  }

  /// A copy (reduce == false) or `dst = dst (op) src` of `bytes`; `peer` != own device: the
  /// source is on that chip (a pull over the chip-to-chip link).
  void data(Stream& s, std::uint32_t peer_device, Locate dst, Locate src, std::uint64_t bytes,
            bool reduce, int op, int type, std::size_t width, const char* what) {
    if (bytes == 0) return;
    Task t;
    t.kind = reduce ? TaskKind::kReduce : TaskKind::kCopy;
    if (peer_device != s.device) {
      t.direction = Direction::kPeer;
      t.peer = peer_device;
      t.from_peer = true;
    } else {
      t.direction = Direction::kD2D;
    }
    t.name = prefix_ + " " + what;
    t.bytes = bytes;
    t.effect = [dst = std::move(dst), src = std::move(src), bytes, reduce, op, type,
                width]() -> int {
      unsigned char* to = dst();
      unsigned char* from = src();
      if (to == nullptr || from == nullptr) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
      if (reduce) {
        combine(op, type, to, from, bytes / width);
      } else {
        std::memmove(to, from, bytes);
      }
      return 0;
    };
    t.done = [error = error_](const TaskOutcome& r) {
      if (r.error != 0 && !r.discarded && *error == 0) *error = r.error;
    };
    add(s, std::move(t));
  }

  void submit(Stream& main, std::function<void()> on_done) {
    if (on_done) {
      if (tasks_.empty() || tasks_.back().first != &main) wait_nothing(main);
      auto& last = tasks_.back().second.done;
      last = [on_done, before = std::move(last)](const TaskOutcome& r) {
        if (before) before(r);
        on_done();
      };
    }
    for (auto& [stream, task] : tasks_) submit_to_stream(c_, *stream, std::move(task));
    tasks_.clear();
  }

 private:
  void add(Stream& s, Task t) { tasks_.emplace_back(&s, std::move(t)); }
  void wait_nothing(Stream& s) {
    Task t;
    t.kind = TaskKind::kNop;
    t.name = prefix_ + " end";
    add(s, std::move(t));
  }

  Call& c_;
  std::shared_ptr<Domain> d_;
  std::string prefix_;
  std::vector<std::pair<Stream*, Task>> tasks_;
  // The first error of a data task of this call (helper streams included): the main stream's
  // waits report it, so synchronising the caller's stream sees it.
  std::shared_ptr<int> error_ = std::make_shared<int>(0);
};

// First element of chunk `c` of `count` elements split in `n` balanced chunks.
std::uint64_t chunk_begin(std::uint64_t count, std::uint32_t n, std::uint32_t c) {
  return c * (count / n) + std::min<std::uint64_t>(c, count % n);
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
  q.submit(s, [d = domain_, seq] { d->finish_op(seq); });
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
  q.submit(s, [d = domain_, seq] { d->finish_op(seq); });
}

void Comm::all_reduce(Call& c, void* stream, void* send, void* recv, std::uint64_t count, int type,
                      int op_int) {
  const TypeInfo t = type_info(type);
  const int op = reduce_op(c, op_int, t, "HcclAllReduce");
  Stream& s = user_stream(c, stream);
  if (count == 0) return;
  const std::uint64_t bytes = checked_bytes(count, t.width);
  RankArgs args;
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
  const std::uint64_t seq = publish(RankArgs{});
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
