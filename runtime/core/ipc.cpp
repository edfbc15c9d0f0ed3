// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/ipc.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/event.h"
#include "runtime/core/notify.h"
#include "runtime/core/peer.h"
#include "runtime/session/session.h"
#include "runtime/core/runtime.h"
#include "runtime/core/session_client.h"
#include "runtime/core/vmm.h"
#include "sim/log.h"

namespace npusim::rt {
namespace {

constexpr std::size_t kKeyLen = 65;  // 64 characters and the terminator

// What an IPC memory export names.
struct IpcMemory {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  std::uint32_t device = 0;
  std::uint64_t serial = 0;  // the allocation's: a freed one is detected at import
};

// What an IPC event export carries: the event's state, shared with every opened copy.
struct IpcEvent {
  std::shared_ptr<EventState> state;
  std::uint32_t flags = 0;
  std::uint32_t device = 0;
};

// What an IPC notify export carries.
struct IpcNotify {
  std::shared_ptr<NotifyState> state;
  std::uint32_t device = 0;
  std::uint32_t id = 0;
};

constexpr std::size_t kPage = 4096;

// ---- How each kind travels to another process of the session (session_client.h) ----

// IPC memory: the exporter's device arena file and the range's offset in it; the importer maps
// that range at an address of its own and records it as device memory of the exporter's device.
class MemoryCodec final : public IpcCodecOf<IpcMemory> {
 public:
  void write(const IpcMemory& m, remote::WireOut& out, IpcWire& w) override {
    std::uint64_t offset = 0;
    const int fd = Runtime::instance().memory().device_arena().share(
        reinterpret_cast<void*>(m.base), m.size, &offset);
    if (fd < 0) {
      fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "cannot share this range with other processes (it partly overlaps a range exported "
           "before; export the same range or one inside it)");
    }
    out.u64(offset).u64(m.base % kPage).u64(m.size).u64(m.device);
    w.fd = fd;
    w.owned_fd = true;
  }
  IpcObject materialize(std::uint64_t id, const IpcWire& wire) override {
    remote::WireIn in(wire.description);
    const std::uint64_t page_offset = in.u64();
    const std::uint64_t in_page = in.u64();
    const std::uint64_t size = in.u64();
    const auto device = static_cast<std::uint32_t>(in.u64());
    if (!in.ok() || wire.fd < 0) return nullptr;
    const std::size_t span = (in_page + size + kPage - 1) / kPage * kPage;
    MemoryRegistry& memory = Runtime::instance().memory();
    void* p = memory.reserve_range(span);
    if (p == nullptr || mmap(p, span, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, wire.fd,
                             static_cast<off_t>(page_offset)) == MAP_FAILED) {
      ::close(wire.fd);
      if (p != nullptr) memory.release_range(p, span);
      sim::log_error("cannot map IPC memory " + ipc_key(IpcKind::kMemory, id) +
                     " of another process");
      return nullptr;
    }
    ::close(wire.fd);  // the mapping keeps the pages
    const Allocation* a = memory.add_mapping(device, p, span);
    auto* m = new IpcMemory;
    m->base = reinterpret_cast<std::uintptr_t>(p) + in_page;
    m->size = size;
    m->device = device;
    m->serial = a->serial;
    // The last close of the import unmaps it (the range faults again, like freed memory).
    return std::shared_ptr<IpcMemory>(m, [p, span](IpcMemory* dead) {
      MemoryRegistry& mem = Runtime::instance().memory();
      mem.release(p);
      mmap(p, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
      mem.release_range(p, span);
      delete dead;
    });
  }
};

// Events: the importer gets its own state, kept in step by the session (SharedSync); the export
// carries the latest record so far.
class EventCodec final : public IpcCodecOf<IpcEvent> {
 public:
  void write(const IpcEvent& x, remote::WireOut& out, IpcWire& w) override {
    out.u64(x.flags);
    if (x.state->complete()) {
      w.records = 1;
      w.last_time = static_cast<std::int64_t>(x.state->done_time);
    }
  }
  void on_published(const IpcEvent& x, std::uint64_t id) override {
    Runtime::instance().shared_sync().track_event(id, x.state, x.device);
  }
  IpcObject materialize(std::uint64_t id, const IpcWire& wire) override {
    remote::WireIn in(wire.description);
    auto x = std::make_shared<IpcEvent>();
    x->state = std::make_shared<EventState>();
    x->flags = static_cast<std::uint32_t>(in.u64());
    Runtime& rt = Runtime::instance();
    if (wire.records != 0 && wire.last_time >= 0) {
      // The record another process completed: here it completes at that simulated time (a
      // phantom task when that is still ahead of this process's engine).
      const auto t = static_cast<SimTime>(wire.last_time);
      SharedSync::Phantom record =
          SharedSync::event_record(x->state, t, 0, "IPC_EVENT_RECORD(export)");
      if (rt.backend() != nullptr && t > rt.backend()->now()) {
        rt.submit_phantom(std::move(record));
      } else {
        record.apply();
      }
    }
    rt.shared_sync().track_event(id, x->state, 0);
    return x;
  }
};

class NotifyCodec final : public IpcCodecOf<IpcNotify> {
 public:
  void write(const IpcNotify& x, remote::WireOut& out, IpcWire&) override {
    out.u64(x.device).u64(x.id);
  }
  void on_published(const IpcNotify& x, std::uint64_t id) override {
    Runtime::instance().shared_sync().track_notify(id, x.state, x.device);
  }
  IpcObject materialize(std::uint64_t id, const IpcWire& wire) override {
    remote::WireIn in(wire.description);
    auto x = std::make_shared<IpcNotify>();
    x->state = std::make_shared<NotifyState>();
    x->device = static_cast<std::uint32_t>(in.u64());
    x->id = static_cast<std::uint32_t>(in.u64());
    if (!in.ok()) return nullptr;
    Runtime::instance().shared_sync().track_notify(id, x->state, x->device);
    return x;
  }
};

const char* prefix(IpcKind kind) {
  // Indexed by IpcKind (ipc_registry.h).
  static const char* const kPrefixes[] = {"npusim-ipc-mem-", "npusim-ipc-vmm-",
                                          "npusim-ipc-event-", "npusim-ipc-notify-"};
  const auto i = static_cast<std::size_t>(kind);
  return i < std::size(kPrefixes) ? kPrefixes[i] : "npusim-ipc-vmm-";
}

void write_key(IpcKind kind, std::uint64_t id, char* key, std::size_t len) {
  const std::string text = ipc_key(kind, id);
  std::memcpy(key, text.c_str(), text.size() + 1);
  (void)len;
}

std::vector<std::int32_t> pid_list(const std::int32_t* pids, std::size_t count) {
  require_not_null(pids, "pid");
  require(count != 0, ACL_ERROR_INVALID_PARAM, "num is 0");
  return std::vector<std::int32_t>(pids, pids + count);
}

}  // namespace

std::int32_t process_pid() { return static_cast<std::int32_t>(::getpid()); }

void install_ipc_codecs(RemoteIpcRegistry& registry) {
  static MemoryCodec memory;
  static EventCodec event;
  static NotifyCodec notify;
  registry.set_codec(IpcKind::kMemory, &memory);
  registry.set_codec(IpcKind::kEvent, &event);
  registry.set_codec(IpcKind::kNotify, &notify);
  registry.set_codec(IpcKind::kPhysical, &physical_codec());
}

void check_ipc(IpcStatus status, const std::string& what) {
  switch (status) {
    case IpcStatus::kOk: return;
    case IpcStatus::kUnknownKey:
      fail(ACL_ERROR_RT_PARAM_INVALID,
           what + " is not exported (never exported, closed, or its object was destroyed)");
    case IpcStatus::kNotOwner:
      fail(ACL_ERROR_RT_NO_PERMISSION, what + " was exported by another process");
    case IpcStatus::kNotPermitted:
      fail(ACL_ERROR_RT_NO_PERMISSION,
           what + " is exported with pid validation and this process (pid " +
               std::to_string(process_pid()) + ") is not on its whitelist");
  }
}

std::string ipc_key(IpcKind kind, std::uint64_t id) {
  char text[kKeyLen];
  std::snprintf(text, sizeof text, "%s%016" PRIx64, prefix(kind), id);
  return text;
}

std::uint64_t parse_ipc_key(IpcKind kind, const char* key) {
  if (key == nullptr) return 0;
  const char* p = prefix(kind);
  const std::size_t n = std::strlen(p);
  if (strnlen(key, kKeyLen) >= kKeyLen || std::strncmp(key, p, n) != 0) return 0;
  const char* hex = key + n;
  if (std::strlen(hex) != 16) return 0;
  std::uint64_t id = 0;
  for (const char* c = hex; *c != '\0'; ++c) {
    int v = (*c >= '0' && *c <= '9') ? *c - '0' : (*c >= 'a' && *c <= 'f') ? *c - 'a' + 10 : -1;
    if (v < 0) return 0;
    id = id << 4 | static_cast<std::uint64_t>(v);
  }
  return id;
}

// ---- IPC memory ----

void ipc_mem_export(Call& call, void* ptr, std::size_t size, char* key, std::size_t len,
                    std::uint64_t flags) {
  require_not_null(ptr, "devPtr");
  require_not_null(key, "key");
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  require(len >= kKeyLen, ACL_ERROR_INVALID_PARAM, "len must be at least 65 (the key's length)");
  require(flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT ||
              flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
          ACL_ERROR_INVALID_PARAM, "flags must be an ACL_RT_IPC_MEM_EXPORT_FLAG_* value");
  call.context();
  const Allocation* a = call.runtime().memory().find(ptr);
  const auto addr = reinterpret_cast<std::uintptr_t>(ptr);
  require(a != nullptr && a->kind == MemKind::kDevice, ACL_ERROR_RT_PARAM_INVALID,
          "devPtr is not inside a live device allocation");
  require(a->contains(addr, size), ACL_ERROR_RT_PARAM_INVALID,
          "devPtr + size runs past the end of its allocation");
  auto m = std::make_shared<IpcMemory>();
  m->base = addr;
  m->size = size;
  m->device = a->device;
  m->serial = a->serial;
  const std::uint64_t id = call.runtime().ipc().publish(
      IpcKind::kMemory, process_pid(), flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, std::move(m));
  write_key(IpcKind::kMemory, id, key, len);
}

void ipc_mem_set_pids(Call& call, const char* key, const std::int32_t* pids, std::size_t count) {
  require_not_null(key, "key");
  std::vector<std::int32_t> list = pid_list(pids, count);
  call.context();
  check_ipc(call.runtime().ipc().allow(parse_ipc_key(IpcKind::kMemory, key), IpcKind::kMemory,
                                       process_pid(), list),
            std::string("key \"") + key + "\"");
}

void* ipc_mem_import(Call& call, const char* key, std::uint64_t flags) {
  require_not_null(key, "key");
  require(flags == ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT ||
              flags == ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS,
          ACL_ERROR_INVALID_PARAM, "flags must be an ACL_RT_IPC_MEM_IMPORT_FLAG_* value");
  const Context& ctx = call.context();
  const std::uint64_t id = parse_ipc_key(IpcKind::kMemory, key);
  const std::string what = std::string("key \"") + key + "\"";
  IpcRegistry& registry = call.runtime().ipc();
  IpcObject object;
  check_ipc(registry.import(id, IpcKind::kMemory, process_pid(), &object), what);
  const auto& m = *std::static_pointer_cast<IpcMemory>(object);
  if (!call.runtime().memory().alive(m.serial)) {
    registry.close(id, IpcKind::kMemory, process_pid());
    registry.withdraw(id);
    fail(ACL_ERROR_RT_PARAM_INVALID, what + " names device memory that was freed");
  }
  if (m.device != ctx.device && flags == ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS &&
      peer_capable(call)) {
    call.device(ctx.device).peers.insert(m.device);
  }
  return reinterpret_cast<void*>(m.base);
}

void ipc_mem_close(Call& call, const char* key) {
  require_not_null(key, "key");
  call.context();
  check_ipc(call.runtime().ipc().close(parse_ipc_key(IpcKind::kMemory, key), IpcKind::kMemory,
                                       process_pid()),
            std::string("key \"") + key + "\"");
}

// ---- IPC events ----

void ipc_event_export(Call& call, void* event, void* handle) {
  require_not_null(handle, "handle");
  Event& e = call.event(event);
  require((e.flags & ACL_EVENT_IPC) != 0 && e.ex, ACL_ERROR_RT_PARAM_INVALID,
          "event was not created by aclrtCreateEventExWithFlag with ACL_EVENT_IPC");
  if (e.export_id == 0) {
    auto x = std::make_shared<IpcEvent>();
    x->state = e.state;
    x->flags = e.flags;
    x->device = e.device;
    e.export_id = call.runtime().ipc().publish(IpcKind::kEvent, process_pid(), false, std::move(x));
  }
  auto* out = static_cast<aclrtIpcEventHandle*>(handle);
  std::memset(out->reserved, 0, sizeof out->reserved);
  write_key(IpcKind::kEvent, e.export_id, out->reserved, sizeof out->reserved);
}

void* ipc_event_open(Call& call, const void* handle) {
  const auto* in = static_cast<const aclrtIpcEventHandle*>(handle);
  char key[kKeyLen] = {};
  std::memcpy(key, in->reserved, sizeof in->reserved);
  Context& ctx = call.context();
  const std::uint64_t id = parse_ipc_key(IpcKind::kEvent, key);
  IpcObject object;
  check_ipc(call.runtime().ipc().import(id, IpcKind::kEvent, process_pid(), &object),
            "the IPC event handle");
  call.runtime().ipc().close(id, IpcKind::kEvent, process_pid());  // the event holds the state
  const auto& x = *std::static_pointer_cast<IpcEvent>(object);
  Device& dev = call.device(ctx.device);
  auto e = std::make_shared<Event>();
  e->device = dev.id;
  e->id = dev.next_event_id++;
  e->flags = x.flags;
  e->ex = true;
  e->opened = true;
  e->state = x.state;
  return call.runtime().events().add(std::move(e));
}

// ---- IPC notifies ----

void notify_export(Call& call, void* notify, char* key, std::size_t len, std::uint64_t flags) {
  require_not_null(key, "key");
  require(len >= kKeyLen, ACL_ERROR_INVALID_PARAM, "len must be at least 65 (the key's length)");
  require(flags == ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT ||
              flags == ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION,
          ACL_ERROR_INVALID_PARAM, "flags must be an ACL_RT_NOTIFY_EXPORT_FLAG_* value");
  Notify& n = live_notify(call, notify);
  require(!n.imported, ACL_ERROR_RT_PARAM_INVALID,
          "notify was imported: only the creating process exports it");
  require(n.export_id == 0, ACL_ERROR_RT_PARAM_INVALID, "notify is already exported");
  auto x = std::make_shared<IpcNotify>();
  x->state = n.state;
  x->device = n.device;
  x->id = n.id;
  n.export_id = call.runtime().ipc().publish(IpcKind::kNotify, process_pid(),
                                             flags == ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT,
                                             std::move(x));
  write_key(IpcKind::kNotify, n.export_id, key, len);
}

void notify_set_pids(Call& call, void* notify, const std::int32_t* pids, std::size_t count) {
  Notify& n = live_notify(call, notify);
  std::vector<std::int32_t> list = pid_list(pids, count);
  require(n.export_id != 0, ACL_ERROR_RT_PARAM_INVALID,
          "notify is not exported (aclrtNotifyGetExportKey first)");
  check_ipc(call.runtime().ipc().allow(n.export_id, IpcKind::kNotify, process_pid(), list),
            "the notify");
}

void* notify_import(Call& call, const char* key, std::uint64_t flags) {
  require_not_null(key, "key");
  require(flags == ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT ||
              flags == ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS,
          ACL_ERROR_INVALID_PARAM, "flags must be an ACL_RT_NOTIFY_IMPORT_FLAG_* value");
  call.context();
  const std::uint64_t id = parse_ipc_key(IpcKind::kNotify, key);
  IpcObject object;
  check_ipc(call.runtime().ipc().import(id, IpcKind::kNotify, process_pid(), &object),
            std::string("key \"") + key + "\"");
  call.runtime().ipc().close(id, IpcKind::kNotify, process_pid());  // the notify holds the state
  const auto& x = *std::static_pointer_cast<IpcNotify>(object);
  auto n = std::make_shared<Notify>();
  n->device = x.device;
  n->id = x.id;
  n->state = x.state;
  n->imported = true;
  n->peer_ok = flags == ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS;
  return call.runtime().notifies().add(std::move(n));
}

}  // namespace npusim::rt
