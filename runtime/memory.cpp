// SPDX-License-Identifier: Apache-2.0
// Allocation, release and capacity of device and pinned host memory.
#include "runtime/memory.h"

#include <string>

#include "acl/acl_rt.h"
#include "runtime/api_call.h"
#include "runtime/errors.h"
#include "runtime/runtime.h"

namespace npusim::rt {
namespace {

constexpr std::int64_t kArch950 = 3510;  // Ascend 950: no extra 32 bytes per allocation

std::size_t round_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

bool is_huge1g(int policy) {
  return policy == ACL_MEM_MALLOC_HUGE1G_ONLY || policy == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

}  // namespace

void* malloc_device(Call& call, std::size_t size, int policy, bool pad) {
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  const Context& ctx = call.context();
  const models::ChipConfig& cfg = call.config();
  // A policy outside aclrtMemMallocPolicy is documented to fall back to huge pages from 2 MiB
  // and normal pages below: the page kind does not change anything simulated, so it is accepted.
  bool extra = pad && !is_huge1g(policy) && cfg.soc.npu_arch != kArch950;
  require(size <= cfg.hbm.size.value, ACL_ERROR_RT_MEMORY_ALLOCATION,
          "size exceeds the device memory capacity");
  std::size_t padded = round_up(size, 32) + (extra ? 32 : 0);
  MemoryRegistry& memory = call.runtime().memory();
  std::uint64_t used = memory.charged(ctx.device);
  require(used + padded <= cfg.hbm.size.value, ACL_ERROR_RT_MEMORY_ALLOCATION,
          "out of device memory: " + std::to_string(size) + " bytes requested, " +
              std::to_string(cfg.hbm.size.value - used) + " free");
  const Allocation* a = memory.allocate(MemKind::kDevice, ctx.device, padded, padded);
  require(a != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "the host cannot back the allocation");
  return reinterpret_cast<void*>(a->base);
}

void free_device(Call& call, void* ptr) {
  require_not_null(ptr, "devPtr");
  MemoryRegistry& memory = call.runtime().memory();
  const Allocation* a = memory.find_base(ptr);
  require(a != nullptr && a->kind == MemKind::kDevice, ACL_ERROR_RT_MEMORY_FREE,
          "devPtr is not the start of a live aclrtMalloc allocation (double free?)");
  memory.release(ptr);
}

void* malloc_host(Call& call, std::size_t size) {
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  const Allocation* a = call.runtime().memory().allocate(MemKind::kHostPinned, 0, size, 0);
  require(a != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
  return reinterpret_cast<void*>(a->base);
}

void free_host(Call& call, void* ptr) {
  require_not_null(ptr, "hostPtr");
  MemoryRegistry& memory = call.runtime().memory();
  const Allocation* a = memory.find_base(ptr);
  require(a != nullptr && a->kind == MemKind::kHostPinned, ACL_ERROR_RT_MEMORY_FREE,
          "hostPtr is not the start of a live aclrtMallocHost allocation (double free?)");
  memory.release(ptr);
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
