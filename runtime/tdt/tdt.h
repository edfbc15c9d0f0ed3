// SPDX-License-Identifier: Apache-2.0
// Tensor data transfer (acl/acl_tdt.h channels, acl/acl_tdt_queue.h queues and routes): plain C++
// over the runtime's internal API, tested against FakeBackend (tests/runtime/tdt/tdt_test.cpp).
//
// State. Channels and queues are host-side FIFOs standing for the device's queue service; their
// contents only change inside API calls (no device task produces or consumes them), always under
// the API lock. The process-wide registry (Tdt::instance) holds the queues by id, the bound routes
// and the set of live handles of every kind, so a stale or foreign handle is reported
// (ACL_ERROR_INVALID_PARAM, ACL_ERROR_INVALID_QUEUE_ID) instead of being dereferenced.
//
// Time. A send/enqueue first waits for room, reserves a slot, then moves the bytes with one
// synchronous copy task on the calling thread's sync stream (host link H2D for host memory, the
// device's DMA for device memory); the entry becomes visible when that copy ended, at the call's
// end clock. A receive/dequeue waits for an entry, takes it, and moves its bytes D2H (or D2D). A
// dataset or entry of zero bytes moves nothing. Waits are in simulated time (wait_for):
//  - timeout 0: no wait; > 0: at most that many simulated ms; -1: until it can proceed;
//  - with several host threads the waiter is a Runtime waiter (runtime.h, "Several host
//    threads"): the call that makes room or data wakes it at that call's end clock, in clock
//    order whatever the wall-time interleaving; a timeout ends it at exactly now + timeout;
//  - with one host thread nothing can change a channel or queue while its only thread waits: a
//    finite timeout passes in full (the call's host time grows by it) and fails, a wait forever
//    fails at once (deadlock) with the same code.
// Failures: full → ACL_ERROR_RT_QUEUE_FULL, empty → ACL_ERROR_RT_QUEUE_EMPTY (also after a timeout
// or a deadlock, with a message saying which), stopped channel → ACL_ERROR_FAILURE, timeout < -1 →
// ACL_ERROR_INVALID_PARAM.
//
// Routes: a bound route src → dst moves entries from src into dst without any call reading src
// (forward()), run whenever an entry arrives in a queue, leaves one, or a route is bound; an entry
// leaves src when every bound route from src has room in its dst and is copied into each. The
// move is functional only (no simulated time: the device's queue scheduler does it in the
// background). Binding a route that would close a cycle fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_tdt.h"
#include "runtime/core/api_call.h"

// ---- The C handle types (opaque in the headers) ----

/// One tensor. A created item refers to the caller's bytes; a received one owns them.
struct acltdtDataItem {
  int tensor_type = 0;  // acltdtTensorType
  int data_type = 0;    // aclDataType
  std::vector<std::int64_t> dims;
  void* data = nullptr;
  std::size_t size = 0;
  std::vector<unsigned char> owned;  // a received item's bytes (data points here)
  std::size_t slice_num = 0;
  std::size_t slice_id = 0;
  acltdtDataset* owner = nullptr;  // the dataset a receive created it for (frees it)
};

struct acltdtDataset {
  std::vector<acltdtDataItem*> items;
  std::string name;
};

namespace npusim::rt::tdt {

/// A tensor inside a channel (a copy of an item's description and bytes).
struct Tensor {
  int tensor_type = 0;
  int data_type = 0;
  std::vector<std::int64_t> dims;
  std::vector<unsigned char> bytes;
  std::size_t slice_num = 0;
  std::size_t slice_id = 0;
};

/// A dataset inside a channel.
struct Message {
  std::string name;
  std::vector<Tensor> tensors;
};

struct ChannelState {
  std::uint32_t device = 0;
  std::string name;
  std::size_t capacity = 0;
  std::deque<Message> messages;
  std::size_t reserved = 0;  // slots of sends still copying
  bool stopped = false;
  bool destroyed = false;
  bool has_room() const { return messages.size() + reserved < capacity; }
};

/// One queue entry: the data bytes and the user data.
struct Entry {
  std::vector<unsigned char> data;
  std::vector<unsigned char> user;
};

struct QueueState {
  std::uint32_t id = 0;
  std::uint32_t device = 0;
  std::string name;
  std::uint32_t depth = 0;
  std::deque<Entry> entries;
  std::size_t reserved = 0;  // slots of enqueues still copying
  bool destroyed = false;
  bool has_room() const { return entries.size() + reserved < depth; }
};

/// Route status values (ACL_TDT_QUEUE_ROUTE_STATUS_INT32).
constexpr std::int32_t kRouteUnbound = 0;
constexpr std::int32_t kRouteBound = 1;
constexpr std::int32_t kRouteAbnormal = 2;

struct Route {
  std::uint32_t src = 0;
  std::uint32_t dst = 0;
  std::int32_t status = kRouteUnbound;
};

constexpr std::size_t kDefaultChannelCapacity = 128;
constexpr std::size_t kMinChannelCapacity = 2;
constexpr std::size_t kMaxChannelCapacity = 8192;
constexpr std::uint32_t kDefaultQueueDepth = 8;
constexpr std::uint32_t kMaxQueueDepth = 8192;
constexpr std::size_t kMaxNameLength = 127;  // characters (128 bytes with the terminator)
constexpr std::size_t kMaxUserData = 96;     // bytes of user data per queue entry
constexpr std::size_t kMaxDims = 128;

/// The process-wide TDT state; used only under the API lock.
class Tdt {
 public:
  static Tdt& instance();

  // Live handles by kind (the C skin checks every handle against these).
  std::set<const void*> items, datasets, channels, attrs, routes, route_lists, query_infos;

  std::map<std::uint32_t, std::shared_ptr<QueueState>> queues;
  /// Bound and abnormal routes, in bind order.
  std::vector<Route> bound;
  /// Permissions granted to other processes: (qid, pid) -> bits.
  std::map<std::pair<std::uint32_t, std::int32_t>, std::uint32_t> grants;
  std::uint64_t auto_names = 0;

  /// The live queue `qid` (ACL_ERROR_INVALID_QUEUE_ID otherwise).
  QueueState& queue(std::uint32_t qid);
  /// Lowest unused queue id.
  std::uint32_t free_queue_id() const;
  /// Moves entries along bound routes until nothing can move (see the file comment).
  void forward();
};

/// aclFinalize: destroys the channels and queues the program left (their handles and ids become
/// invalid) and drops every route. Data items, datasets, attributes, routes and route lists are
/// host objects and stay.
void release_all();

// ---- Waiting and moving bytes (transfer.cpp) ----

/// A slot of a channel or queue held while its bytes are copied in; given back by release() (the
/// entry is in) or when the copy failed.
class Reservation {
 public:
  explicit Reservation(std::size_t& reserved) : reserved_(reserved) { ++reserved_; }
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation() { release(); }
  void release() {
    if (held_) --reserved_;
    held_ = false;
  }

 private:
  std::size_t& reserved_;
  bool held_ = true;
};

/// Waits until `ready` holds (see the file comment). True when it holds; false when timeout_ms
/// was 0 or the timeout passed. A wait that can never end fails with `code` ("deadlock").
/// timeout_ms < -1 fails with ACL_ERROR_INVALID_PARAM.
bool wait_for(Call& call, const std::function<bool()>& ready, std::int32_t timeout_ms, int code,
              const std::string& what);
/// A wait_for that ran out: fails with `code`, "<what> is <state> [after N ms]".
[[noreturn]] void fail_waited(int code, const std::string& what, const char* state,
                              std::int32_t timeout_ms);

/// Moves `bytes` with one synchronous copy task on `device` (the caller's clock advances to its
/// end). Nothing when bytes is 0. Fails with the task's error.
/// Size arguments (issue 23): a buffer [data, data + size) that would run past the end of the
/// address space (dataSize SIZE_MAX), and bytes meant for a device queue or channel beyond the
/// device's memory (chip config hbm.size), which holds them, are ACL_ERROR_INVALID_PARAM with a
/// message naming the argument (`what`), checked before any byte is copied.
void require_span(const void* data, std::size_t size, const char* what);
void require_fits_device(Call& call, std::uint64_t bytes, const std::string& what);

void transfer(Call& call, std::uint32_t device, Direction direction, std::uint64_t bytes,
              const char* name);

// ---- Channels (channel.cpp) ----

acltdtChannelHandle* create_channel(Call& call, std::uint32_t device, const char* name,
                                    std::size_t capacity);
ChannelState& live_channel(Call& call, const acltdtChannelHandle* handle);
void destroy_channel(Call& call, acltdtChannelHandle* handle);
void stop_channel(Call& call, acltdtChannelHandle* handle);
void clean_channel(Call& call, acltdtChannelHandle* handle);
void send(Call& call, const acltdtChannelHandle* handle, const acltdtDataset* dataset,
          std::int32_t timeout_ms);
void receive(Call& call, const acltdtChannelHandle* handle, acltdtDataset* dataset,
             std::int32_t timeout_ms);

// ---- Queues (queue.cpp) ----

struct QueueSpec {
  std::string name;  // empty: automatic
  std::uint32_t depth = kDefaultQueueDepth;
};
std::uint32_t create_queue(Call& call, const QueueSpec& spec);
void destroy_queue(Call& call, std::uint32_t qid);
void enqueue(Call& call, std::uint32_t qid, const void* data, std::size_t size,
             const void* user, std::size_t user_size, std::int32_t timeout_ms);
void dequeue(Call& call, std::uint32_t qid, void* data, std::size_t size, std::size_t* ret_size,
             void* user, std::size_t user_size, std::int32_t timeout_ms);
/// Binds each route (status becomes 1 in the list).
void bind_routes(Call& call, std::vector<Route>& routes);
/// Unbinds each route that is bound or abnormal (status becomes 0 in the list).
void unbind_routes(Call& call, std::vector<Route>& routes);
struct RouteQuery {
  int mode = -1;  // acltdtQueueRouteQueryMode; -1 = not set
  bool has_src = false, has_dst = false;
  std::uint32_t src = 0, dst = 0;
};
std::vector<Route> query_routes(Call& call, const RouteQuery& query);

}  // namespace npusim::rt::tdt

struct acltdtChannelHandle {
  std::shared_ptr<npusim::rt::tdt::ChannelState> state;
};
