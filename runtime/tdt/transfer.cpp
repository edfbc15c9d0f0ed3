// SPDX-License-Identifier: Apache-2.0
// TDT: the registry, waits in simulated time and the copies that move a transfer's bytes.
#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "models/chip_config.h"
#include "runtime/core/errors.h"
#include "runtime/core/stream.h"
#include "runtime/tdt/tdt.h"
#include "sim/log.h"

namespace npusim::rt::tdt {

Tdt& Tdt::instance() {
  static Tdt tdt;
  return tdt;
}

QueueState& Tdt::queue(std::uint32_t qid) {
  auto it = queues.find(qid);
  if (it == queues.end()) {
    fail(ACL_ERROR_INVALID_QUEUE_ID, "queue " + std::to_string(qid) + " does not exist");
  }
  return *it->second;
}

std::uint32_t Tdt::free_queue_id() const {
  std::uint32_t id = 0;
  for (const auto& [qid, q] : queues) {  // ascending
    if (qid != id) break;
    ++id;
  }
  return id;
}

void Tdt::forward() {
  // Each move takes an entry out of a source queue into queues downstream of it; routes form no
  // cycle, so this ends.
  for (bool moved = true; moved;) {
    moved = false;
    for (auto& [qid, src] : queues) {
      std::vector<QueueState*> dsts;
      for (const Route& r : bound) {
        if (r.src != qid || r.status != kRouteBound) continue;
        dsts.push_back(queues.at(r.dst).get());
      }
      if (dsts.empty()) continue;
      while (!src->entries.empty()) {
        bool room = true;
        for (const QueueState* d : dsts) room = room && d->has_room();
        if (!room) break;
        for (QueueState* d : dsts) d->entries.push_back(src->entries.front());
        src->entries.pop_front();
        moved = true;
      }
    }
  }
}

void release_all() {
  Tdt& tdt = Tdt::instance();
  if (!tdt.channels.empty() || !tdt.queues.empty()) {
    sim::log_info("aclFinalize: destroying " + std::to_string(tdt.channels.size()) +
                  " TDT channel(s) and " + std::to_string(tdt.queues.size()) +
                  " queue(s) the program left");
  }
  for (const void* h : tdt.channels) {
    auto* handle = static_cast<acltdtChannelHandle*>(const_cast<void*>(h));
    handle->state->destroyed = true;
    delete handle;
  }
  tdt.channels.clear();
  for (auto& [qid, q] : tdt.queues) q->destroyed = true;
  tdt.queues.clear();
  tdt.bound.clear();
  tdt.grants.clear();
}

void fail_waited(int code, const std::string& what, const char* state, std::int32_t timeout_ms) {
  fail(code, what + " is " + state +
                 (timeout_ms > 0 ? " after " + std::to_string(timeout_ms) + " ms" : std::string()));
}

bool wait_for(Call& call, const std::function<bool()>& ready, std::int32_t timeout_ms, int code,
              const std::string& what) {
  require(timeout_ms >= -1, ACL_ERROR_INVALID_PARAM,
          "timeout must be -1 (wait until done), 0 (no wait) or a number of ms > 0");
  if (ready()) return true;
  if (timeout_ms == 0) return false;
  const SimTime deadline =
      timeout_ms < 0 ? kForever : call.clock() + static_cast<SimTime>(timeout_ms) * sim::kMs;
  if (call.runtime().thread_count() <= 1) {
    // Only API calls change channels and queues, and this is the only thread that makes them.
    if (deadline == kForever) {
      fail(code, "deadlock: " + what + " forever, but no other host thread can change it");
    }
    call.spend(deadline - call.clock());
    return false;
  }
  for (;;) {
    const WaitResult r = call.wait(ready, deadline, [&] { return what; });
    if (r == WaitResult::kDone) {
      if (ready()) return true;
      continue;  // another thread took it first: wait on, same deadline
    }
    if (r == WaitResult::kTimeout) return ready();
    fail(code, "deadlock: " + what + ", but no host thread can change it");
  }
}

void require_span(const void* data, std::size_t size, const char* what) {
  const auto start = reinterpret_cast<std::uintptr_t>(data);
  require(size <= UINTPTR_MAX - start, ACL_ERROR_INVALID_PARAM,
          std::string(what) + " " + std::to_string(size) +
              " is not the size of a buffer: from its address it runs past the end of the "
              "address space");
}

void require_fits_device(Call& call, std::uint64_t bytes, const std::string& what) {
  const std::uint64_t capacity = call.config().hbm.size.value;
  require(bytes <= capacity, ACL_ERROR_INVALID_PARAM,
          what + " is " + std::to_string(bytes) + " bytes, more than the device memory (" +
              std::to_string(capacity) + " bytes) that holds queued data");
}

void transfer(Call& call, std::uint32_t device, Direction direction, std::uint64_t bytes,
              const char* name) {
  if (bytes == 0) return;
  Task task;
  task.kind = TaskKind::kCopy;
  task.name = name;
  task.direction = direction;
  task.bytes = bytes;
  // Host bytes come from the caller's (pageable) memory; the device queue's are the runtime's.
  task.pageable = direction == Direction::kH2D || direction == Direction::kD2H;
  const int error = run_sync_task(call, device, std::move(task));
  require(error == 0, error, std::string(name) + ": the copy failed");
}

}  // namespace npusim::rt::tdt
