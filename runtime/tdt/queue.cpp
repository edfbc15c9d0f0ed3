// SPDX-License-Identifier: Apache-2.0
// TDT queues: creation on the current device, enqueue and dequeue with depth and timeouts, and
// the routes that forward entries between queues (tdt.h).
#include <algorithm>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "runtime/core/errors.h"
#include "runtime/core/memory_registry.h"
#include "runtime/tdt/tdt.h"

namespace npusim::rt::tdt {
namespace {

std::string describe(const QueueState& q) {
  return "queue " + std::to_string(q.id) + " (\"" + q.name + "\", depth " +
         std::to_string(q.depth) + ")";
}

// Device memory (a live device allocation, or managed memory) moves inside the device.
bool is_device_memory(Call& call, const void* p, std::size_t size, const char* name) {
  const Allocation* a = call.runtime().memory().find(p);
  if (a == nullptr) {
    require(!call.runtime().memory().runtime_address(p), ACL_ERROR_INVALID_PARAM,
            std::string(name) + " is a device address outside every live allocation");
    return false;
  }
  require(a->contains(reinterpret_cast<std::uintptr_t>(p), size), ACL_ERROR_INVALID_PARAM,
          std::string(name) + " + its size runs past the end of its allocation");
  return a->kind == MemKind::kDevice || a->kind == MemKind::kManaged;
}

// True if a path of bound routes (those in `bound` plus `extra`) leads from `from` to `to`.
bool reaches(const std::vector<Route>& bound, const std::vector<Route>& extra, std::uint32_t from,
             std::uint32_t to) {
  std::vector<std::uint32_t> todo{from};
  std::set<std::uint32_t> seen;
  while (!todo.empty()) {
    const std::uint32_t q = todo.back();
    todo.pop_back();
    if (q == to) return true;
    if (!seen.insert(q).second) continue;
    for (const auto* list : {&bound, &extra}) {
      for (const Route& r : *list) {
        if (r.src == q && r.status == kRouteBound) todo.push_back(r.dst);
      }
    }
  }
  return false;
}

bool same_route(const Route& a, const Route& b) { return a.src == b.src && a.dst == b.dst; }

// The queue `qid` (fails when there is none).
std::shared_ptr<QueueState> existing_queue(Tdt& tdt, std::uint32_t qid) {
  std::shared_ptr<QueueState> st = tdt.queues.count(qid) != 0 ? tdt.queues[qid] : nullptr;
  if (st == nullptr) tdt.queue(qid);  // fails: no such queue
  return st;
}

void require_user_data(const void* user, std::size_t user_size) {
  require(user_size <= kMaxUserData, ACL_ERROR_INVALID_PARAM,
          "userDataSize must be at most " + std::to_string(kMaxUserData) + " bytes");
  require(user != nullptr || user_size == 0, ACL_ERROR_INVALID_PARAM,
          "userData is NULL but userDataSize is not 0");
}

// Waits until `ready` (which holds too once the queue is destroyed); fails with `code` when the
// queue was destroyed or the time ran out ("<queue> is <state> [after N ms]").
void wait_on_queue(Call& call, const QueueState& st, const std::function<bool()>& ready,
                   std::int32_t timeout_ms, int code, const std::string& waiting,
                   const char* state) {
  const bool ok = wait_for(call, ready, timeout_ms, code, waiting);
  require(!st.destroyed, ACL_ERROR_INVALID_QUEUE_ID, describe(st) + " was destroyed");
  if (!ok) fail_waited(code, describe(st), state, timeout_ms);
}

void require_enqueue_data(Call& call, const void* data, std::size_t size) {
  require(data != nullptr || size == 0, ACL_ERROR_INVALID_PARAM, "data is NULL but dataSize is not 0");
  require(size > 0, ACL_ERROR_INVALID_PARAM, "dataSize must be > 0");
  require_span(data, size, "dataSize");
  require_fits_device(call, size, "dataSize");
}

// Device memory given to an enqueue or dequeue is still allocated after its copy ran.
void require_not_freed(Call& call, const void* data, const char* during) {
  require(call.runtime().memory().find(data) != nullptr, ACL_ERROR_RT_DEVICE_MEM_ERROR,
          std::string("data was freed during the ") + during);
}

// The queue's first entry, taken when `size` bytes hold it (`ret_size`: its size either way).
Entry pop_entry(Tdt& tdt, QueueState& st, std::size_t size, std::size_t* ret_size) {
  const std::size_t need = st.entries.front().data.size();
  *ret_size = need;
  require(size >= need, ACL_ERROR_INVALID_PARAM,
          "dataSize " + std::to_string(size) + " is smaller than the entry (" +
              std::to_string(need) + " bytes); it stays queued");
  Entry e = std::move(st.entries.front());
  st.entries.pop_front();
  tdt.forward();  // room for entries waiting upstream
  return e;
}

// The entry's user data into the caller's buffer (zero-filled past it).
void copy_user_data(const Entry& e, void* user, std::size_t user_size) {
  if (user_size == 0) return;
  std::memset(user, 0, user_size);
  std::memcpy(user, e.user.data(), std::min(user_size, e.user.size()));
}

// An entry of `size` bytes at `data`: host bytes are taken now (the caller may reuse its
// buffer); device bytes when the copy ran.
Entry new_entry(const void* data, std::size_t size, bool on_device, const void* user,
                std::size_t user_size) {
  Entry e;
  if (!on_device) e.data.assign(static_cast<const char*>(data), static_cast<const char*>(data) + size);
  if (user_size > 0) {
    e.user.assign(static_cast<const char*>(user), static_cast<const char*>(user) + user_size);
  }
  return e;
}

}  // namespace

std::uint32_t create_queue(Call& call, const QueueSpec& spec) {
  const std::uint32_t device = call.context().device;  // the current device's queue service
  require(spec.depth >= 1 && spec.depth <= kMaxQueueDepth, ACL_ERROR_INVALID_PARAM,
          "queue depth " + std::to_string(spec.depth) + " is outside [1, " +
              std::to_string(kMaxQueueDepth) + "]");
  Tdt& tdt = Tdt::instance();
  std::string name = spec.name;
  if (name.empty()) {
    do {
      name = "npusim_queue_" + std::to_string(tdt.auto_names++);
    } while (std::any_of(tdt.queues.begin(), tdt.queues.end(),
                         [&](const auto& q) { return q.second->name == name; }));
  }
  for (const auto& [qid, q] : tdt.queues) {
    require(q->name != name, ACL_ERROR_INVALID_PARAM,
            "a queue named \"" + name + "\" already exists (queue " + std::to_string(qid) + ")");
  }
  auto q = std::make_shared<QueueState>();
  q->id = tdt.free_queue_id();
  q->device = device;
  q->name = name;
  q->depth = spec.depth;
  tdt.queues[q->id] = q;
  return q->id;
}

void destroy_queue(Call& call, std::uint32_t qid) {
  (void)call;
  Tdt& tdt = Tdt::instance();
  QueueState& q = tdt.queue(qid);
  q.destroyed = true;  // threads blocked on it wake and fail
  q.entries.clear();
  for (Route& r : tdt.bound) {
    if (r.src == qid || r.dst == qid) r.status = kRouteAbnormal;
  }
  tdt.queues.erase(qid);
}

void enqueue(Call& call, std::uint32_t qid, const void* data, std::size_t size, const void* user,
             std::size_t user_size, std::int32_t timeout_ms) {
  Tdt& tdt = Tdt::instance();
  std::shared_ptr<QueueState> st = existing_queue(tdt, qid);
  require_enqueue_data(call, data, size);
  require_user_data(user, user_size);
  const bool on_device = is_device_memory(call, data, size, "data");
  Entry e = new_entry(data, size, on_device, user, user_size);
  wait_on_queue(
      call, *st, [st] { return st->has_room() || st->destroyed; }, timeout_ms,
      ACL_ERROR_RT_QUEUE_FULL, "acltdtEnqueueData waits for room in " + describe(*st), "full");
  Reservation slot(st->reserved);
  transfer(call, st->device, on_device ? Direction::kD2D : Direction::kH2D, size,
           on_device ? "TDT_ENQUEUE_D2D" : "TDT_ENQUEUE_H2D");
  require(!st->destroyed, ACL_ERROR_INVALID_QUEUE_ID, describe(*st) + " was destroyed");
  if (on_device) {
    require_not_freed(call, data, "enqueue");
    e.data.assign(static_cast<const char*>(data), static_cast<const char*>(data) + size);
  }
  slot.release();
  st->entries.push_back(std::move(e));
  tdt.forward();
}

void dequeue(Call& call, std::uint32_t qid, void* data, std::size_t size, std::size_t* ret_size,
             void* user, std::size_t user_size, std::int32_t timeout_ms) {
  Tdt& tdt = Tdt::instance();
  std::shared_ptr<QueueState> st = existing_queue(tdt, qid);
  require_not_null(data, "data");
  require_span(data, size, "dataSize");
  require_not_null(ret_size, "retDataSize");
  require_user_data(user, user_size);
  const bool on_device = is_device_memory(call, data, size, "data");
  wait_on_queue(
      call, *st, [st] { return !st->entries.empty() || st->destroyed; }, timeout_ms,
      ACL_ERROR_RT_QUEUE_EMPTY, "acltdtDequeueData waits for data in " + describe(*st), "empty");
  const Entry e = pop_entry(tdt, *st, size, ret_size);
  const std::size_t need = e.data.size();
  transfer(call, st->device, on_device ? Direction::kD2D : Direction::kD2H, need,
           on_device ? "TDT_DEQUEUE_D2D" : "TDT_DEQUEUE_D2H");
  if (on_device) require_not_freed(call, data, "dequeue");
  std::memcpy(data, e.data.data(), need);
  copy_user_data(e, user, user_size);
}

void bind_routes(Call& call, std::vector<Route>& routes) {
  (void)call;
  Tdt& tdt = Tdt::instance();
  std::vector<Route> adding;
  for (const Route& r : routes) {
    tdt.queue(r.src);
    tdt.queue(r.dst);
    require(r.src != r.dst, ACL_ERROR_INVALID_PARAM,
            "a route from queue " + std::to_string(r.src) + " to itself");
    const bool known = std::any_of(tdt.bound.begin(), tdt.bound.end(), [&](const Route& b) {
      return same_route(b, r) && b.status == kRouteBound;
    });
    if (known) continue;
    require(!reaches(tdt.bound, adding, r.dst, r.src), ACL_ERROR_INVALID_PARAM,
            "the route " + std::to_string(r.src) + " -> " + std::to_string(r.dst) +
                " would close a cycle of routes");
    adding.push_back(Route{r.src, r.dst, kRouteBound});
  }
  for (const Route& r : adding) {
    tdt.bound.erase(std::remove_if(tdt.bound.begin(), tdt.bound.end(),
                                   [&](const Route& b) { return same_route(b, r); }),
                    tdt.bound.end());
    tdt.bound.push_back(r);
  }
  for (Route& r : routes) r.status = kRouteBound;
  tdt.forward();
}

void unbind_routes(Call& call, std::vector<Route>& routes) {
  (void)call;
  Tdt& tdt = Tdt::instance();
  for (Route& r : routes) {
    tdt.bound.erase(std::remove_if(tdt.bound.begin(), tdt.bound.end(),
                                   [&](const Route& b) { return same_route(b, r); }),
                    tdt.bound.end());
    r.status = kRouteUnbound;
  }
}

std::vector<Route> query_routes(Call& call, const RouteQuery& query) {
  (void)call;
  const int mode = query.mode;
  require(mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC || mode == ACL_TDT_QUEUE_ROUTE_QUERY_DST ||
              mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST ||
              mode == ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL,
          ACL_ERROR_INVALID_PARAM, "the query's mode is not set (or not a query mode)");
  const bool by_src =
      mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC || mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  const bool by_dst =
      mode == ACL_TDT_QUEUE_ROUTE_QUERY_DST || mode == ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  require(!by_src || query.has_src, ACL_ERROR_INVALID_PARAM, "the query needs a source queue id");
  require(!by_dst || query.has_dst, ACL_ERROR_INVALID_PARAM,
          "the query needs a destination queue id");
  std::vector<Route> out;
  for (const Route& r : Tdt::instance().bound) {
    if (mode == ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL) {
      if (r.status == kRouteAbnormal) out.push_back(r);
      continue;
    }
    if (by_src && r.src != query.src) continue;
    if (by_dst && r.dst != query.dst) continue;
    out.push_back(r);
  }
  return out;
}

}  // namespace npusim::rt::tdt
