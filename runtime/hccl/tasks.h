// SPDX-License-Identifier: Apache-2.0
// The task side of npusim's collectives (comm.h): HCCL data types and reductions, where a data
// task reads or writes (resolved when it runs), and the Queue that turns one rank's part of a
// collective into notify, copy and reduce tasks on its streams. Internal to runtime/hccl.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl_base.h"
#include "runtime/core/api_call.h"
#include "runtime/core/builtin_tasks.h"
#include "runtime/core/memory_registry.h"
#include "runtime/core/stream.h"
#include "runtime/hccl/comm.h"

namespace npusim::rt::hccl {

using builtin::ElemType;
using builtin::ReduceOp;

// Notify channels of a rank (the flag value encodes the collective and its step).
constexpr std::uint64_t kProgress = 0;             // collective progress of the rank
constexpr std::uint64_t kFork = 1;                 // local: the helper streams may start
constexpr std::uint64_t kJoinBase = 1ull << 8;     // + helper index: that helper finished
constexpr std::uint64_t kSendReady = 2ull << 32;   // + peer: message n to peer is ready
constexpr std::uint64_t kRecvDone = 3ull << 32;    // + peer: message n from peer consumed
constexpr std::uint64_t kStepsPerOp = 1ull << 12;  // > every step count (2n + 2, n <= 16)

inline std::uint64_t op_base(std::uint64_t seq) { return (seq + 1) * kStepsPerOp; }


struct TypeInfo {
  std::size_t width = 0;
  bool reducible = false;
  ElemType elem = ElemType::kFp32;
  const char* name = "";
};

/// The HcclDataType `type` (HCCL_E_PARA for another value).
TypeInfo type_info(int type);
/// The HcclReduceOp `op` (0 SUM, 1 PROD, 2 MAX, 3 MIN) validated for type `t`.
int reduce_op(Call& c, int op, const TypeInfo& t, const char* api);
/// dst[i] = dst[i] (op) src[i] for `count` elements of HcclDataType `type`.
void combine(int op, int type, void* dst, const void* src, std::size_t count);
/// count * width, with count bounded (HCCL_E_PARA past 2^40).
std::uint64_t checked_bytes(std::uint64_t count, std::size_t width);
/// A device buffer of `device` holding [p, p + bytes).
Buffer device_buffer(Call& c, const void* p, std::uint64_t bytes, std::uint32_t device,
                     const char* what);

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
              const Ref& ref);
/// The timeline arrow id of the notify record that sets flag (rank, channel) to `value`.
std::uint64_t flow_key(std::uint64_t domain, std::uint32_t rank, std::uint64_t channel,
                       std::uint64_t value);

// Queues tasks; the last one (on the main stream) carries `on_done`.
class Queue {
 public:
  Queue(Call& c, std::shared_ptr<Domain> d, std::string prefix)
      : c_(c), d_(std::move(d)), prefix_(std::move(prefix)) {}

  std::uint64_t sync_flow(std::uint32_t rank, std::uint64_t channel, std::uint64_t value) const {
    return flow_key(d_->id, rank, channel, value);
  }

  /// A task of this call on one 8-byte flag ("<prefix> Notify <what>").
  Task notify_task(TaskKind kind, const char* what) const {
    Task t;
    t.kind = kind;
    t.name = prefix_ + " Notify " + what;
    t.bytes = 8;
    return t;
  }

  void post(Stream& s, std::uint32_t rank, std::uint64_t channel, std::uint64_t value) {
    Task t = notify_task(TaskKind::kValueWrite, "Record");
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
    Task t = notify_task(TaskKind::kValueWait, "Wait");
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
inline std::uint64_t chunk_begin(std::uint64_t count, std::uint32_t n, std::uint32_t c) {
  return c * (count / n) + std::min<std::uint64_t>(c, count % n);
}


}  // namespace npusim::rt::hccl
