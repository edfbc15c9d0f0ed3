// SPDX-License-Identifier: Apache-2.0
// Copies and fills: validation (kinds, bounds, which side is device memory), then one task whose
// effect moves the bytes when the simulated engine finishes.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime/ascendc/sanitizer.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/memory.h"
#include "runtime/core/model_ri.h"
#include "runtime/core/peer.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {
namespace {

// One side of a copy as the registry sees it. Managed memory is both host and device memory: it
// takes whichever role the copy kind gives it (device for ACL_MEMCPY_DEFAULT). Registered host
// memory (aclrtHostRegister) is pinned.
struct Side {
  const Allocation* alloc = nullptr;  // nullptr: pageable (or registered) host memory
  bool registered = false;            // inside an aclrtHostRegister range
  bool as_device = false;             // managed memory playing the device role

  bool device() const {
    return alloc != nullptr && (alloc->kind == MemKind::kDevice || as_device);
  }
  bool managed() const { return alloc != nullptr && alloc->kind == MemKind::kManaged; }
  bool pageable() const { return alloc == nullptr && !registered; }
};

// `name` names the pointer in the error when it is a device address no live allocation holds
// (freed, or past the end of one): such a pointer is never taken for host memory.
Side side_of(const MemoryRegistry& memory, const void* p, const char* name) {
  Side side{memory.find(p)};
  if (side.alloc == nullptr && memory.runtime_address(p)) {
    fail(ACL_ERROR_RT_PARAM_INVALID,
         std::string(name) + " is a device or pinned-host address outside every live allocation "
                             "(freed, or past the end of one)");
  }
  side.registered = side.alloc == nullptr && memory.find_registered(p) != nullptr;
  return side;
}

// Managed sides take the role the kind asks for (device when the kind is DEFAULT).
void assign_managed_roles(int kind, Side& s, Side& d) {
  bool dflt = kind == ACL_MEMCPY_DEFAULT;
  s.as_device = s.managed() && (dflt || kind == ACL_MEMCPY_DEVICE_TO_HOST ||
                                kind == ACL_MEMCPY_DEVICE_TO_DEVICE);
  d.as_device = d.managed() && (dflt || kind == ACL_MEMCPY_HOST_TO_DEVICE ||
                                kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                                kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE);
}

struct CopyPlan {
  Direction path = Direction::kH2H;
  bool pageable = false;         // the host side is not pinned memory
  std::uint32_t device = 0;      // device doing the work
  // A copy between two devices' memories (path kPeer once resolve_peer() ran).
  bool cross_device = false;
  std::uint32_t src_device = 0, dst_device = 0;
  std::uint32_t peer = 0;        // kPeer: the other end
  bool from_peer = false;        // kPeer: the bytes come from `peer` (else they go to it)
  std::uint64_t dst_serial = 0;  // registered allocations to re-check at execution
  std::uint64_t src_serial = 0;
};

Direction path_of(bool src_device, bool dst_device) {
  if (src_device) return dst_device ? Direction::kD2D : Direction::kD2H;
  return dst_device ? Direction::kH2D : Direction::kH2H;
}

// Checks that an explicit kind agrees with what the addresses are.
void check_kind(int kind, bool src_device, bool dst_device) {
  bool want_src = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  bool want_dst = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                  kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE;
  if (want_src != src_device) {
    fail(ACL_ERROR_RT_PARAM_INVALID, want_src ? "src is not inside a device allocation"
                                              : "src is device memory but kind says host");
  }
  if (want_dst != dst_device) {
    fail(ACL_ERROR_RT_PARAM_INVALID, want_dst ? "dst is not inside a device allocation"
                                              : "dst is device memory but kind says host");
  }
}

void check_bounds(const Side& side, const void* p, std::size_t count, const char* name) {
  if (side.alloc == nullptr) return;
  if (!side.alloc->contains(reinterpret_cast<std::uintptr_t>(p), count)) {
    fail(ACL_ERROR_RT_PARAM_INVALID, std::string(name) + " + count runs past the end of its allocation");
  }
}

CopyPlan plan_copy(Call& call, void* dst, std::size_t dest_max, const void* src, std::size_t count,
                   int kind) {
  require_not_null(dst, "dst");
  require_not_null(src, "src");
  require(kind >= ACL_MEMCPY_HOST_TO_HOST && kind <= ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
          ACL_ERROR_INVALID_PARAM, "kind is not a supported aclrtMemcpyKind");
  require(count <= dest_max, ACL_ERROR_RT_PARAM_INVALID, "count is larger than destMax");
  const MemoryRegistry& memory = call.runtime().memory();
  Side s = side_of(memory, src, "src");
  Side d = side_of(memory, dst, "dst");
  assign_managed_roles(kind, s, d);
  if (kind != ACL_MEMCPY_DEFAULT) check_kind(kind, s.device(), d.device());
  check_bounds(s, src, count, "src");
  check_bounds(d, dst, count, "dst");
  CopyPlan plan;
  plan.path = path_of(s.device(), d.device());
  plan.pageable = s.pageable() || d.pageable();
  plan.src_serial = s.alloc != nullptr ? s.alloc->serial : 0;
  plan.dst_serial = d.alloc != nullptr ? d.alloc->serial : 0;
  if (d.device()) {
    plan.device = d.alloc->device;
  } else if (s.device()) {
    plan.device = s.alloc->device;
  } else {
    plan.device = call.context().device;
  }
  if (s.device() && d.device() && s.alloc->device != d.alloc->device) {
    plan.cross_device = true;
    plan.src_device = s.alloc->device;
    plan.dst_device = d.alloc->device;
  }
  return plan;
}

// A copy between two devices runs on `device` (the current device for a synchronous copy, the
// stream's for an asynchronous one), which must be one of its ends and have enabled peer access
// to the other (runtime/core/peer.h).
void resolve_peer(Call& call, CopyPlan& plan, std::uint32_t device, const char* what) {
  if (!plan.cross_device) return;
  if (device != plan.src_device && device != plan.dst_device) {
    fail(ACL_ERROR_RT_PARAM_INVALID,
         std::string(what) + " runs on device " + std::to_string(device) + " but src is on device " +
             std::to_string(plan.src_device) + " and dst on device " +
             std::to_string(plan.dst_device) + ": one of them must be the device that copies");
  }
  plan.device = device;
  plan.from_peer = device == plan.dst_device;
  plan.peer = plan.from_peer ? plan.src_device : plan.dst_device;
  require_peer_access(call, device, plan.peer, what);
  plan.path = Direction::kPeer;
}

const char* copy_name(Direction path) {
  // Indexed by Direction (models/task.h).
  static const char* const kNames[models::kDirections] = {
      "MEMCPY_H2H", "MEMCPY_H2D", "MEMCPY_D2H", "MEMCPY_D2D", "MEMCPY_P2P"};
  const auto i = static_cast<int>(path);
  return i < models::kDirections ? kNames[i] : "MEMCPY";
}

// The copy task. `staged` holds the source bytes when the caller may reuse its buffer at once.
Task copy_task(Call& call, const CopyPlan& plan, void* dst, const void* src, std::size_t count,
               std::shared_ptr<std::vector<unsigned char>> staged) {
  Task task;
  task.kind = TaskKind::kCopy;
  task.name = copy_name(plan.path);
  task.direction = plan.path;
  task.peer = plan.peer;
  task.from_peer = plan.from_peer;
  task.bytes = count;
  task.pageable = plan.pageable;
  const MemoryRegistry* memory = &call.runtime().memory();
  task.effect = [memory, plan, dst, src, count, staged]() -> int {
    if ((plan.dst_serial != 0 && !memory->alive(plan.dst_serial)) ||
        (!staged && plan.src_serial != 0 && !memory->alive(plan.src_serial))) {
      return ACL_ERROR_RT_DEVICE_MEM_ERROR;  // freed before the copy ran
    }
    std::memmove(dst, staged ? staged->data() : src, count);
    if (sanitizer::g_checks != 0) sanitizer::on_copy(dst, src, count, "aclrtMemcpy");
    return 0;
  };
  return task;
}

// Memset target: device memory or ACL-allocated (pinned) host memory.
const Allocation& memset_target(Call& call, void* ptr, std::size_t max_count, std::size_t count) {
  require_not_null(ptr, "devPtr");
  require(count <= max_count, ACL_ERROR_RT_PARAM_INVALID, "count is larger than maxCount");
  const Allocation* a = call.runtime().memory().find(ptr);
  require(a != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "devPtr is neither device memory nor ACL-allocated host memory");
  require(a->contains(reinterpret_cast<std::uintptr_t>(ptr), count), ACL_ERROR_RT_PARAM_INVALID,
          "devPtr + count runs past the end of its allocation");
  return *a;
}

Task memset_task(Call& call, const Allocation& a, void* ptr, int value, std::size_t count) {
  Task task;
  task.kind = TaskKind::kMemset;
  task.name = "MEMSET";
  task.direction = a.kind == MemKind::kDevice ? Direction::kD2D : Direction::kH2H;
  task.bytes = count;
  const MemoryRegistry* memory = &call.runtime().memory();
  task.effect = [memory, serial = a.serial, ptr, value, count]() -> int {
    if (!memory->alive(serial)) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
    std::memset(ptr, value & 0xFF, count);
    if (sanitizer::g_checks != 0) sanitizer::on_copy(ptr, nullptr, count, "aclrtMemset");
    return 0;
  };
  return task;
}

constexpr std::size_t kMax2dWidth = 5000000;
constexpr std::size_t kMax2dHeight = 5242880;

// User-space addresses end below 2^47 on x86-64 and AArch64 (48-bit virtual addresses): no
// buffer reaches past it, whatever memory it is.
constexpr std::uintptr_t kAddressSpaceEnd = std::uintptr_t{1} << 47;

// A pitched side spans pitch * (height - 1) + width bytes; the span must fit the address space
// (host memory the runtime does not know cannot be bounds-checked otherwise).
Side pitched_side(Call& call, const void* p, std::size_t pitch, std::size_t width,
                  std::size_t height, const char* name) {
  std::size_t span = 0;
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  if (__builtin_mul_overflow(pitch, height - 1, &span) ||
      __builtin_add_overflow(span, width, &span) || at >= kAddressSpaceEnd ||
      span > kAddressSpaceEnd - at) {
    fail(ACL_ERROR_INVALID_PARAM, std::string(name) + " pitch x height (" + std::to_string(pitch) +
                                      " x " + std::to_string(height) +
                                      ") runs past the end of the address space");
  }
  Side side = side_of(call.runtime().memory(), p, name);
  check_bounds(side, p, span, name);
  return side;
}

Task copy_2d_task(Call& call, const CopyPlan& plan, void* dst, std::size_t dpitch, const void* src,
                  std::size_t spitch, std::size_t width, std::size_t height) {
  Task task = copy_task(call, plan, dst, src, width * height, nullptr);
  const MemoryRegistry* memory = &call.runtime().memory();
  task.effect = [memory, plan, dst, dpitch, src, spitch, width, height]() -> int {
    if ((plan.dst_serial != 0 && !memory->alive(plan.dst_serial)) ||
        (plan.src_serial != 0 && !memory->alive(plan.src_serial))) {
      return ACL_ERROR_RT_DEVICE_MEM_ERROR;
    }
    for (std::size_t row = 0; row < height; ++row) {
      std::memmove(static_cast<char*>(dst) + row * dpitch,
                   static_cast<const char*>(src) + row * spitch, width);
      if (sanitizer::g_checks != 0) {
        sanitizer::on_copy(static_cast<char*>(dst) + row * dpitch,
                           static_cast<const char*>(src) + row * spitch, width, "aclrtMemcpy2d");
      }
    }
    return 0;
  };
  return task;
}

}  // namespace

void memcpy_2d(Call& call, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
               std::size_t width, std::size_t height, int kind, void* stream, bool async) {
  require_not_null(dst, "dst");
  require_not_null(src, "src");
  require(width > 0 && height > 0, ACL_ERROR_INVALID_PARAM, "width and height must be > 0");
  require(width <= dpitch && width <= spitch && width <= kMax2dWidth && height <= kMax2dHeight,
          ACL_ERROR_INVALID_PARAM, "width must not exceed the pitches (or 5000000 bytes)");
  bool allowed = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_HOST ||
                 (async && kind == ACL_MEMCPY_DEVICE_TO_DEVICE);
  require(allowed, ACL_ERROR_INVALID_PARAM, "kind is not supported by the 2-D copy");
  Side s = pitched_side(call, src, spitch, width, height, "src");
  Side d = pitched_side(call, dst, dpitch, width, height, "dst");
  assign_managed_roles(kind, s, d);
  check_kind(kind, s.device(), d.device());
  CopyPlan plan;
  plan.path = path_of(s.device(), d.device());
  plan.pageable = s.pageable() || d.pageable();
  plan.src_serial = s.alloc != nullptr ? s.alloc->serial : 0;
  plan.dst_serial = d.alloc != nullptr ? d.alloc->serial : 0;
  plan.device = d.device() ? d.alloc->device : s.alloc->device;
  require(!(s.device() && d.device() && s.alloc->device != d.alloc->device),
          ACL_ERROR_RT_PARAM_INVALID, "a 2-D copy cannot copy between two devices' memories");
  Task task = copy_2d_task(call, plan, dst, dpitch, src, spitch, width, height);
  if (!async) {
    int error = run_sync_task(call, plan.device, std::move(task));
    require(error == 0, error, "the copy failed");
    return;
  }
  Stream& st = call.stream(stream);
  submit_to_stream(call, st, std::move(task));
}

void memset_d32(Call& call, void* ptr, std::size_t mem_size, std::uint32_t value, std::size_t n,
                void* stream, bool async) {
  require(n <= mem_size / 4, ACL_ERROR_RT_PARAM_INVALID, "memSize is smaller than N * 4");
  const Allocation& a = memset_target(call, ptr, mem_size, n * 4);
  Stream* s = async ? &call.stream(stream) : nullptr;
  if (n == 0) return;
  Task task = memset_task(call, a, ptr, 0, n * 4);
  const MemoryRegistry* memory = &call.runtime().memory();
  task.effect = [memory, serial = a.serial, ptr, value, n]() -> int {
    if (!memory->alive(serial)) return ACL_ERROR_RT_DEVICE_MEM_ERROR;
    for (std::size_t i = 0; i < n; ++i) std::memcpy(static_cast<char*>(ptr) + 4 * i, &value, 4);
    return 0;
  };
  if (s != nullptr) {
    submit_to_stream(call, *s, std::move(task));
    return;
  }
  std::uint32_t device = a.kind == MemKind::kDevice ? a.device : call.context().device;
  int error = run_sync_task(call, device, std::move(task));
  require(error == 0, error, "the memset failed");
}

void memcpy_sync(Call& call, void* dst, std::size_t dest_max, const void* src, std::size_t count,
                 int kind) {
  CopyPlan plan = plan_copy(call, dst, dest_max, src, count, kind);
  if (plan.cross_device) resolve_peer(call, plan, call.context().device, "aclrtMemcpy");
  if (count == 0) return;
  int error = run_sync_task(call, plan.device, copy_task(call, plan, dst, src, count, nullptr));
  require(error == 0, error, "the copy failed");
}

void memcpy_async(Call& call, void* dst, std::size_t dest_max, const void* src, std::size_t count,
                  int kind, void* stream) {
  CopyPlan plan = plan_copy(call, dst, dest_max, src, count, kind);
  Stream& s = call.stream(stream);
  resolve_peer(call, plan, s.device, "aclrtMemcpyAsync");
  if (plan.path != Direction::kH2H && s.device != plan.device) {
    fail(ACL_ERROR_RT_PARAM_INVALID,
         "the stream belongs to device " + std::to_string(s.device) +
             " but the copy's device memory is on device " + std::to_string(plan.device));
  }
  // Documented for a host with a PCIe card (EP): no asynchronous host-to-host copies.
  require(plan.path != Direction::kH2H, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "asynchronous host-to-host copies are not supported on a PCIe-attached device");
  if (count == 0) return;
  std::shared_ptr<std::vector<unsigned char>> staged;
  if (kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
    auto bytes = static_cast<const unsigned char*>(src);
    staged = std::make_shared<std::vector<unsigned char>>(bytes, bytes + count);
    plan.pageable = false;  // the runtime's staging buffer is pinned
  }
  bool wait_here = plan.pageable;
  if (wait_here) require_capture_safe(call);  // an unsafe call while a stream is captured
  submit_to_stream(call, s, copy_task(call, plan, dst, src, count, staged));
  if (!wait_here) return;
  // Pageable host memory: the call returns once the copy (and so everything before it) is done.
  std::shared_ptr<StreamProgress> p = s.progress;
  std::uint64_t target = p->submitted;
  WaitResult r =
      call.wait([p, target] { return p->finished >= target; }, kForever, [id = s.id] {
        return "aclrtMemcpyAsync (pageable host memory) waits for stream " + std::to_string(id);
      });
  require(r == WaitResult::kDone, ACL_ERROR_RT_INTERNAL_ERROR,
          "deadlock: the copy on pageable memory can never run");
}

void memset_sync(Call& call, void* ptr, std::size_t max_count, int value, std::size_t count) {
  const Allocation& a = memset_target(call, ptr, max_count, count);
  if (count == 0) return;
  std::uint32_t device = a.kind == MemKind::kDevice ? a.device : call.context().device;
  int error = run_sync_task(call, device, memset_task(call, a, ptr, value, count));
  require(error == 0, error, "the memset failed");
}

void memset_async(Call& call, void* ptr, std::size_t max_count, int value, std::size_t count,
                  void* stream) {
  const Allocation& a = memset_target(call, ptr, max_count, count);
  Stream& s = call.stream(stream);
  if (a.kind == MemKind::kDevice && a.device != s.device) {
    fail(ACL_ERROR_RT_PARAM_INVALID, "the stream belongs to device " + std::to_string(s.device) +
                                         " but devPtr is memory of device " +
                                         std::to_string(a.device));
  }
  if (count == 0) return;
  submit_to_stream(call, s, memset_task(call, a, ptr, value, count));
}

}  // namespace npusim::rt
