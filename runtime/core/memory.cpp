// SPDX-License-Identifier: Apache-2.0
// Allocation, release and capacity of device, pinned host and managed memory; host registration.
#include "runtime/ascendc/sanitizer.h"
#include "runtime/core/memory.h"

#include <cstring>
#include <string>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {
namespace {

constexpr std::uintptr_t kHostPage = 4096;
constexpr std::size_t kManagedGranule = 2u << 20;  // managed sizes round up to 2 MiB
constexpr std::uint64_t kMaxManaged = 3ull << 40;  // 3 TB per process

std::size_t round_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

bool is_huge1g(int policy) {
  return policy == ACL_MEM_MALLOC_HUGE1G_ONLY || policy == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

// The allocation `ptr` (named `name`, not NULL) starts, if any (a free's argument).
const Allocation* allocation_at(Call& call, void* ptr, const char* name) {
  require_not_null(ptr, name);
  return call.runtime().memory().find_base(ptr);
}

}  // namespace

void* malloc_device(Call& call, std::size_t size, int policy, bool pad) {
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  const Context& ctx = call.context();
  const models::ChipConfig& cfg = call.config();
  // A policy outside aclrtMemMallocPolicy is documented to fall back to huge pages from 2 MiB
  // and normal pages below: the page kind does not change anything simulated, so it is accepted.
  bool extra = pad && !is_huge1g(policy) && cfg.generation().malloc_pad;
  require(size <= cfg.hbm.size.value, ACL_ERROR_RT_MEMORY_ALLOCATION,
          "size exceeds the device memory capacity");
  std::size_t padded = round_up(size, 32) + (extra ? 32 : 0);
  MemoryRegistry& memory = call.runtime().memory();
  std::uint64_t used = memory.charged(ctx.device);
  if (used + padded > cfg.hbm.size.value) {
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
         "out of device memory: " + std::to_string(size) + " bytes requested (" +
             std::to_string(padded) + " with the runtime's alignment and padding), " +
             std::to_string(cfg.hbm.size.value - used) + " free");
  }
  const Allocation* a = memory.allocate(MemKind::kDevice, ctx.device, padded, padded);
  require(a != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "the host cannot back the allocation");
  return reinterpret_cast<void*>(a->base);
}

void* hardware_sync_addr(Call& call) {
  const arch::Generation& gen = call.config().generation();
  require(gen.hardware_sync_addr, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          std::string(gen.family) + " has no cube/vector hardware synchronisation address");
  Device& dev = call.device(call.context().device);
  if (dev.hardware_sync == nullptr) {
    const Allocation* a = call.runtime().memory().allocate(MemKind::kDevice, dev.id,
                                                           kHardwareSyncBytes, 0);
    require(a != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "the host cannot back the allocation");
    std::memset(reinterpret_cast<void*>(a->base), 0, kHardwareSyncBytes);
    dev.hardware_sync = reinterpret_cast<void*>(a->base);
  }
  return dev.hardware_sync;
}

void free_device(Call& call, void* ptr) {
  const Allocation* a = allocation_at(call, ptr, "devPtr");
  require(a != nullptr && a->kind != MemKind::kHostPinned, ACL_ERROR_RT_MEMORY_FREE,
          "devPtr is not the start of a live aclrtMalloc or aclrtMemAllocManaged allocation "
          "(double free?)");
  require(!a->mapped, ACL_ERROR_RT_MEMORY_FREE,
          "devPtr is an aclrtMapMem mapping: release it with aclrtUnmapMem");
  require(a->kind != MemKind::kDevice || call.device(a->device).hardware_sync != ptr,
          ACL_ERROR_RT_MEMORY_FREE,
          "devPtr is the runtime's aclrtGetHardwareSyncAddr area, which the program does not own");
  if (sanitizer::g_checks != 0) sanitizer::on_free(ptr);
  call.runtime().memory().release(ptr);
}

void* malloc_host(Call& call, std::size_t size) {
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  MemoryRegistry& memory = call.runtime().memory();
  const std::uint64_t limit = call.config().host.pinned_memory.value;
  if (size > limit || memory.pinned_bytes() > limit - size) {
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
         "out of pinned host memory: " + std::to_string(size) + " bytes requested, " +
             std::to_string(limit - std::min<std::uint64_t>(limit, memory.pinned_bytes())) +
             " of host.pinned_memory free");
  }
  const Allocation* a = memory.allocate(MemKind::kHostPinned, 0, size, 0);
  require(a != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
  return reinterpret_cast<void*>(a->base);
}

void free_host(Call& call, void* ptr) {
  const Allocation* a = allocation_at(call, ptr, "hostPtr");
  require(a != nullptr && a->kind == MemKind::kHostPinned, ACL_ERROR_RT_MEMORY_FREE,
          "hostPtr is not the start of a live aclrtMallocHost allocation (double free?)");
  call.runtime().memory().release(ptr);
}

void host_register(Call& call, void* ptr, std::uint64_t size, std::uint32_t flags) {
  require_not_null(ptr, "ptr");
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  constexpr std::uint64_t kKnown =
      ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;
  require(flags != 0 && (flags & ~kKnown) == 0, ACL_ERROR_INVALID_PARAM,
          "flag must be an OR of ACL_HOST_REG_MAPPED / _PINNED (/ _IOMEMORY / _READONLY)");
  if ((flags & (ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY)) != 0) {
    call.runtime().report_unsupported("aclrtHostRegisterV2(ACL_HOST_REG_IOMEMORY/READONLY)");
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "ACL_HOST_REG_IOMEMORY and ACL_HOST_REG_READONLY are reserved and not supported");
  }
  call.context();
  auto addr = reinterpret_cast<std::uintptr_t>(ptr);
  require(addr % kHostPage == 0, ACL_ERROR_RT_PARAM_INVALID,
          "ptr must be aligned to a 4 KiB page");
  MemoryRegistry& memory = call.runtime().memory();
  const Allocation* a = memory.find(ptr);
  require(a == nullptr || a->kind == MemKind::kHostPinned, ACL_ERROR_RT_PARAM_INVALID,
          "ptr is device or managed memory, not host memory");
  require(a == nullptr || a->contains(addr, size), ACL_ERROR_RT_PARAM_INVALID,
          "ptr + size runs past the end of its aclrtMallocHost allocation");
  require(a == nullptr || (flags & ACL_HOST_REG_PINNED) == 0, ACL_ERROR_RT_PARAM_INVALID,
          "ACL_HOST_REG_PINNED applies to pageable memory only; ptr is already pinned");
  require(memory.register_host(ptr, size, flags), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
          "the range overlaps host memory that is already registered");
}

void* host_device_pointer(Call& call, void* host, std::uint32_t flag) {
  require_not_null(host, "pHost");
  require(flag == 0, ACL_ERROR_INVALID_PARAM, "flag is reserved and must be 0");
  const HostRegistration* r = call.runtime().memory().find_registered(host);
  require(r != nullptr && (r->flags & ACL_HOST_REG_MAPPED) != 0, ACL_ERROR_RT_PARAM_INVALID,
          "pHost is not inside host memory registered with ACL_HOST_REG_MAPPED");
  return host;
}

void host_unregister(Call& call, void* ptr) {
  require_not_null(ptr, "ptr");
  require(call.runtime().memory().unregister_host(ptr), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
          "ptr is not the start of a registered host range");
}

void* malloc_managed(Call& call, std::uint64_t size, std::uint32_t flag) {
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  require(flag == ACL_RT_MEM_ATTACH_GLOBAL, ACL_ERROR_INVALID_PARAM,
          "flag must be ACL_RT_MEM_ATTACH_GLOBAL");
  const Context& ctx = call.context();
  if (!call.config().generation().unified_memory) {
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "this chip has no unified (managed) memory");
  }
  require(size <= kMaxManaged, ACL_ERROR_RT_MEMORY_ALLOCATION,
          "a process may reserve at most 3 TB of managed memory");
  std::size_t rounded = round_up(static_cast<std::size_t>(size), kManagedGranule);
  const Allocation* a =
      call.runtime().memory().allocate(MemKind::kManaged, ctx.device, rounded, 0);
  require(a != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "the host cannot back the allocation");
  return reinterpret_cast<void*>(a->base);
}

void get_mem_info(Call& call, int attr, std::size_t* free, std::size_t* total) {
  require_not_null(free, "free");
  require_not_null(total, "total");
  require(attr >= ACL_DDR_MEM && attr <= ACL_MEM_P2P_HUGE1G, ACL_ERROR_INVALID_PARAM,
          "attr is not an aclrtMemAttr value");
  const Context& ctx = call.context();
  bool ddr = attr == ACL_DDR_MEM || attr == ACL_DDR_MEM_HUGE || attr == ACL_DDR_MEM_NORMAL ||
             attr == ACL_DDR_MEM_P2P_HUGE || attr == ACL_DDR_MEM_P2P_NORMAL;
  if (ddr) {  // the simulated chips have HBM only: no device DDR
    *free = 0;
    *total = 0;
    return;
  }
  std::uint64_t capacity = call.config().hbm.size.value;
  std::uint64_t used = call.runtime().memory().charged(ctx.device);
  *total = static_cast<std::size_t>(capacity);
  *free = static_cast<std::size_t>(used >= capacity ? 0 : capacity - used);
}

}  // namespace npusim::rt
