// SPDX-License-Identifier: Apache-2.0
// HcclSend, HcclRecv and HcclBatchSendRecv (runtime/hccl/comm.h): a send publishes its buffer and
// raises the flag that it is ready; the receive pulls it and says it was consumed.
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/memory_registry.h"
#include "runtime/core/runtime.h"
#include "runtime/core/stream.h"
#include "runtime/hccl/comm.h"
#include "runtime/hccl/tasks.h"

namespace npusim::rt::hccl {
namespace {

// The sender's buffer of message `key`, taken from the domain's table when the receive runs.
Locate message_source(const std::shared_ptr<Domain>& domain, const MemoryRegistry* memory,
                      std::tuple<std::uint32_t, std::uint32_t, std::uint64_t> key,
                      std::uint64_t bytes) {
  return [d = domain, memory, key, bytes]() -> unsigned char* {
    auto it = d->messages.find(key);
    if (it == d->messages.end()) return nullptr;
    const Domain::Message m = it->second;
    d->messages.erase(it);
    // A send of another size than the receive fails the receive (nothing is copied).
    if (m.bytes != bytes || (!m.buf.remote && !memory->alive(m.buf.serial))) return nullptr;
    return m.buf.ptr;
  };
}

}  // namespace

// Every item's peer and buffer, checked before anything is queued.
std::vector<Comm::CheckedP2p> Comm::check_p2p(Call& c, const std::vector<P2p>& items) {
  const std::uint32_t n = size();
  std::vector<CheckedP2p> checked;
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
  return checked;
}

// A send publishes its buffer and says it is ready; returns (peer, message number).
std::pair<std::uint32_t, std::uint64_t> Comm::post_send(Queue& q, Stream& s,
                                                        const CheckedP2p& x) {
  const std::uint64_t k = ++sent_[x.item->peer];
  domain_->messages[{rank_, x.item->peer, k}] = {x.buf, x.bytes};
  if (domain_->cross) post_message(*domain_, rank_, x.item->peer, k, x.buf, x.bytes);
  q.post(s, rank_, kSendReady + x.item->peer, k);
  return {x.item->peer, k};
}

// A receive waits for the sender, pulls its buffer and says it was consumed.
void Comm::receive(Queue& q, Stream& s, const CheckedP2p& x, const MemoryRegistry* memory) {
  const std::uint32_t peer = x.item->peer;
  const std::uint64_t k = ++received_[peer];
  q.wait(s, peer, kSendReady + rank_, k);
  const Buffer mine = x.buf;
  q.data(
      s, domain_->device_of(peer, device_),
      [memory, mine]() -> unsigned char* {
        return memory->alive(mine.serial) ? mine.ptr : nullptr;
      },
      message_source(domain_, memory, std::make_tuple(peer, rank_, k), x.bytes), x.bytes, false,
      0, 7, 1, "Memcpy");
  q.post(s, rank_, kRecvDone + peer, k);
}

void Comm::send_recv(Call& c, void* stream, const std::vector<P2p>& items, const char* name) {
  Stream& s = user_stream(c, stream);
  const std::vector<CheckedP2p> checked = check_p2p(c, items);
  const MemoryRegistry* memory = &c.runtime().memory();
  Queue q(c, domain_, name);
  std::vector<std::pair<std::uint32_t, std::uint64_t>> sends;  // sends first
  for (const CheckedP2p& x : checked) {
    if (x.item->send) sends.push_back(post_send(q, s, x));
  }
  for (const CheckedP2p& x : checked) {
    if (!x.item->send) receive(q, s, x, memory);
  }
  // The sender's stream goes on once every receiver has its data.
  for (const auto& [peer, k] : sends) q.wait(s, peer, kRecvDone + rank_, k);
  q.submit(s, nullptr);
}

}  // namespace npusim::rt::hccl
