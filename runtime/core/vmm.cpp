// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/vmm.h"

#include "runtime/session/session.h"
#include "runtime/core/session_client.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <iterator>
#include <string>

#include "acl/acl_rt.h"
#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/ipc.h"
#include "runtime/core/runtime.h"

namespace npusim::rt {
namespace {

std::size_t round_up(std::size_t v) { return (v + kVmmGranularity - 1) / kVmmGranularity * kVmmGranularity; }

bool is_ddr(int attr) {
  return attr == ACL_DDR_MEM || attr == ACL_DDR_MEM_HUGE || attr == ACL_DDR_MEM_NORMAL ||
         attr == ACL_DDR_MEM_P2P_HUGE || attr == ACL_DDR_MEM_P2P_NORMAL;
}

// A physical memory property: handle type NONE, pinned, on a device, HBM.
void check_prop(Call& call, const aclrtPhysicalMemProp& p) {
  require(p.handleType == ACL_MEM_HANDLE_TYPE_NONE || p.handleType == ACL_MEM_HANDLE_TYPE_POSIX,
          ACL_ERROR_INVALID_PARAM, "prop->handleType is not an aclrtMemHandleType value");
  require(p.allocationType == ACL_MEM_ALLOCATION_TYPE_PINNED, ACL_ERROR_INVALID_PARAM,
          "prop->allocationType must be ACL_MEM_ALLOCATION_TYPE_PINNED");
  require(p.location.type == ACL_MEM_LOCATION_TYPE_DEVICE, ACL_ERROR_INVALID_PARAM,
          "prop->location.type must be ACL_MEM_LOCATION_TYPE_DEVICE");
  call.device(p.location.id);
  const int attr = static_cast<int>(p.memAttr);
  require(attr >= ACL_DDR_MEM && attr <= ACL_MEM_P2P_HUGE1G, ACL_ERROR_INVALID_PARAM,
          "prop->memAttr is not an aclrtMemAttr value");
  if (is_ddr(attr)) {
    call.runtime().report_unsupported("aclrtMallocPhysical(DDR memory)");
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "the simulated chips have HBM only, no device DDR");
  }
}

void make_inaccessible(std::uintptr_t base, std::size_t size) {
  mmap(reinterpret_cast<void*>(base), size, PROT_NONE,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

}  // namespace

PhysicalPool::~PhysicalPool() {
  if (fd_ >= 0) ::close(fd_);
}

std::int64_t PhysicalPool::allocate(std::size_t size) {
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < size) continue;
    const std::int64_t at = it->first;
    const std::size_t rest = it->second - size;
    free_.erase(it);
    if (rest != 0) free_.emplace(at + static_cast<std::int64_t>(size), rest);
    return at;
  }
  if (fd_ < 0) fd_ = memfd_create("npusim-physical", MFD_CLOEXEC);
  if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(end_ + size)) != 0) return -1;
  const auto at = static_cast<std::int64_t>(end_);
  end_ += size;
  return at;
}

void PhysicalPool::release(std::int64_t offset, std::size_t size) {
  fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, static_cast<off_t>(size));
  std::size_t span = size;
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && offset + static_cast<std::int64_t>(span) == next->first) {
    span += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + static_cast<std::int64_t>(prev->second) == offset) {
      prev->second += span;
      return;
    }
  }
  free_.emplace(offset, span);
}

PhysicalMemory::~PhysicalMemory() {
  if (pool != nullptr && offset >= 0) pool->release(offset, size);
  if (fd >= 0) ::close(fd);
}

namespace {

// Another process maps the same range of this process's pool file.
class PhysicalCodec final : public IpcCodecOf<PhysicalMemory> {
 public:
  void write(const PhysicalMemory& m, remote::WireOut& out, IpcWire& w) override {
    out.i64(m.offset).u64(m.size).u64(m.device).i64(m.mem_attr);
    w.fd = m.fd >= 0 ? m.fd : (m.pool != nullptr ? m.pool->fd() : -1);
  }
  IpcObject materialize(std::uint64_t, const IpcWire& wire) override {
    remote::WireIn in(wire.description);
    auto m = std::make_shared<PhysicalMemory>();
    m->offset = in.i64();
    m->size = in.u64();
    m->device = static_cast<std::uint32_t>(in.u64());
    m->mem_attr = static_cast<int>(in.i64());
    m->fd = wire.fd;
    if (!in.ok() || wire.fd < 0) return nullptr;
    return m;
  }
};

}  // namespace

IpcCodec& physical_codec() {
  static PhysicalCodec codec;
  return codec;
}

VmmReservation* VirtualMemory::reservation_of(const void* p) {
  auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto it = reservations_.upper_bound(addr);
  if (it == reservations_.begin()) return nullptr;
  --it;
  return addr < it->second.base + it->second.size ? &it->second : nullptr;
}

VmmMapping* VirtualMemory::mapping_of(const void* p) {
  VmmReservation* r = reservation_of(p);
  if (r == nullptr) return nullptr;
  auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto it = r->mappings.upper_bound(addr);
  if (it == r->mappings.begin()) return nullptr;
  --it;
  return addr < it->second.base + it->second.size ? &it->second : nullptr;
}

std::size_t vmm_granularity(Call& call, const void* prop, int option) {
  require_not_null(prop, "prop");
  require(option == ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM ||
              option == ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
          ACL_ERROR_INVALID_PARAM, "option must be ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM or _RECOMMENDED");
  check_prop(call, *static_cast<const aclrtPhysicalMemProp*>(prop));
  return kVmmGranularity;
}

void* reserve_address(Call& call, std::size_t size, std::size_t alignment, void* expect,
                      std::uint64_t flags) {
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  require(alignment == 0, ACL_ERROR_INVALID_PARAM, "alignment is reserved and must be 0");
  require(flags == 0 || flags == 1, ACL_ERROR_INVALID_PARAM,
          "flags must be 0 (normal pages) or 1 (huge pages)");
  call.context();
  if (expect != nullptr) {
    call.runtime().report_unsupported("aclrtReserveMemAddress(expectPtr)");
    fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "a caller-chosen start address (expectPtr) is an experimental feature npusim does not "
         "support; pass nullptr");
  }
  const std::size_t rounded = round_up(size);
  require(rounded >= size, ACL_ERROR_INVALID_PARAM, "size is too large");
  void* p = call.runtime().memory().reserve_range(rounded);
  require(p != nullptr, ACL_ERROR_RT_MEMORY_ALLOCATION, "the device address space is exhausted");
  VmmReservation r;
  r.base = reinterpret_cast<std::uintptr_t>(p);
  r.size = rounded;
  call.runtime().vmm().reservations().emplace(r.base, std::move(r));
  return p;
}

void release_address(Call& call, void* virt) {
  require_not_null(virt, "virPtr");
  VirtualMemory& vmm = call.runtime().vmm();
  auto it = vmm.reservations().find(reinterpret_cast<std::uintptr_t>(virt));
  require(it != vmm.reservations().end(), ACL_ERROR_RT_PARAM_INVALID,
          "virPtr is not the start of a range reserved with aclrtReserveMemAddress");
  require(it->second.mappings.empty(), ACL_ERROR_RT_PARAM_INVALID,
          "the reserved range still has mappings: aclrtUnmapMem them first");
  call.runtime().memory().release_range(virt, it->second.size);
  vmm.reservations().erase(it);
}

void* malloc_physical(Call& call, std::size_t size, const void* prop_arg, std::uint64_t flags) {
  require_not_null(prop_arg, "prop");
  const auto& prop = *static_cast<const aclrtPhysicalMemProp*>(prop_arg);
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  require(flags == 0, ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0");
  call.context();
  check_prop(call, prop);
  require(size % kVmmGranularity == 0, ACL_ERROR_INVALID_PARAM,
          "size must be a multiple of the allocation granularity (2 MiB, "
          "aclrtMemGetAllocationGranularity)");
  const std::uint32_t device = prop.location.id;
  MemoryRegistry& memory = call.runtime().memory();
  const std::uint64_t capacity = call.config().hbm.size.value;
  const std::uint64_t used = memory.charged(device);
  if (size > capacity || used > capacity - size) {
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
         "out of device memory: " + std::to_string(size) + " bytes of physical memory requested, " +
             std::to_string(used >= capacity ? 0 : capacity - used) + " free on device " +
             std::to_string(device));
  }
  PhysicalPool& pool = call.runtime().vmm().pool();
  const std::int64_t offset = pool.allocate(size);
  require(offset >= 0, ACL_ERROR_RT_MEMORY_ALLOCATION,
          "the host cannot back the physical allocation");
  auto mem = std::make_shared<PhysicalMemory>();
  mem->pool = &pool;
  mem->offset = offset;
  mem->size = size;
  mem->device = device;
  mem->mem_attr = static_cast<int>(prop.memAttr);
  memory.charge(device, static_cast<std::int64_t>(size));
  auto h = std::make_shared<PhysicalHandle>();
  h->memory = std::move(mem);
  return call.runtime().vmm().handles().add(std::move(h));
}

PhysicalHandle& live_physical(Call& call, void* handle) {
  require_not_null(handle, "handle");
  PhysicalHandle* h = call.runtime().vmm().handles().find(handle);
  require(h != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "handle is not a live aclrtMallocPhysical or imported handle");
  return *h;
}

void free_physical(Call& call, void* handle) {
  PhysicalHandle& h = live_physical(call, handle);
  if (!h.imported) {
    call.runtime().memory().charge(h.memory->device, -static_cast<std::int64_t>(h.memory->size));
    if (h.export_id != 0) call.runtime().ipc().withdraw(h.export_id);
  }
  call.runtime().vmm().handles().remove(handle);  // mappings keep the pages
}

void* retain_physical(Call& call, void* virt) {
  require_not_null(virt, "virPtr");
  VmmMapping* m = call.runtime().vmm().mapping_of(virt);
  require(m != nullptr && m->base == reinterpret_cast<std::uintptr_t>(virt),
          ACL_ERROR_RT_PARAM_INVALID, "virPtr is not the start of an aclrtMapMem mapping");
  auto h = std::make_shared<PhysicalHandle>();
  h->memory = m->memory;
  h->imported = true;
  return call.runtime().vmm().handles().add(std::move(h));
}

void map_memory(Call& call, void* virt, std::size_t size, std::size_t offset, void* handle,
                std::uint64_t flags) {
  require_not_null(virt, "virPtr");
  require(size != 0, ACL_ERROR_INVALID_PARAM, "size is 0");
  require(flags == 0, ACL_ERROR_INVALID_PARAM, "flags is reserved and must be 0");
  PhysicalHandle& h = live_physical(call, handle);
  VirtualMemory& vmm = call.runtime().vmm();
  VmmReservation* r = vmm.reservation_of(virt);
  require(r != nullptr, ACL_ERROR_RT_PARAM_INVALID,
          "virPtr is not inside a range reserved with aclrtReserveMemAddress");
  const auto base = reinterpret_cast<std::uintptr_t>(virt);
  require((base - r->base) % kVmmGranularity == 0 && size % kVmmGranularity == 0 &&
              offset % kVmmGranularity == 0,
          ACL_ERROR_RT_PARAM_INVALID,
          "virPtr (from the reservation's start), size and offset must be multiples of the "
          "allocation granularity (2 MiB)");
  require(size <= r->base + r->size - base, ACL_ERROR_RT_PARAM_INVALID,
          "virPtr + size runs past the end of the reserved range");
  require(offset <= h.memory->size && size <= h.memory->size - offset, ACL_ERROR_RT_PARAM_INVALID,
          "offset + size runs past the end of the physical allocation");
  auto next = r->mappings.lower_bound(base);
  bool overlap = next != r->mappings.end() && next->first < base + size;
  if (next != r->mappings.begin()) {
    const VmmMapping& before = std::prev(next)->second;
    overlap = overlap || before.base + before.size > base;
  }
  require(!overlap, ACL_ERROR_RT_PARAM_INVALID, "the range is already mapped");
  void* p = mmap(virt, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                 h.memory->fd >= 0 ? h.memory->fd : call.runtime().vmm().pool().fd(),
                 static_cast<off_t>(h.memory->offset + offset));
  if (p == MAP_FAILED) {
    make_inaccessible(base, size);
    fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "the host cannot map the physical allocation");
  }
  VmmMapping m;
  m.base = base;
  m.size = size;
  m.memory = h.memory;
  m.handle = handle;
  r->mappings.emplace(base, std::move(m));
  call.runtime().memory().add_mapping(h.memory->device, virt, size);
}

void unmap_memory(Call& call, void* virt) {
  require_not_null(virt, "virPtr");
  VirtualMemory& vmm = call.runtime().vmm();
  VmmReservation* r = vmm.reservation_of(virt);
  const auto base = reinterpret_cast<std::uintptr_t>(virt);
  auto it = r == nullptr ? decltype(r->mappings.end()){} : r->mappings.find(base);
  require(r != nullptr && it != r->mappings.end(), ACL_ERROR_RT_PARAM_INVALID,
          "virPtr is not the start of a range mapped with aclrtMapMem");
  call.runtime().memory().release(virt);
  make_inaccessible(base, it->second.size);
  r->mappings.erase(it);
}

void set_access(Call& call, void* virt, std::size_t size, const void* descs, std::size_t count) {
  require_not_null(virt, "virPtr");
  require_not_null(descs, "desc");
  require(size != 0 && count != 0, ACL_ERROR_INVALID_PARAM, "size and count must not be 0");
  VmmMapping* m = call.runtime().vmm().mapping_of(virt);
  const auto base = reinterpret_cast<std::uintptr_t>(virt);
  require(m != nullptr && size <= m->base + m->size - base, ACL_ERROR_RT_PARAM_INVALID,
          "[virPtr, virPtr + size) is not inside one aclrtMapMem mapping");
  const auto* d = static_cast<const aclrtMemAccessDesc*>(descs);
  for (std::size_t i = 0; i < count; ++i) {
    require(d[i].location.type == ACL_MEM_LOCATION_TYPE_DEVICE, ACL_ERROR_INVALID_PARAM,
            "desc->location.type must be ACL_MEM_LOCATION_TYPE_DEVICE");
    call.device(d[i].location.id);
    const auto flags = static_cast<std::uint64_t>(d[i].flags);
    require(flags == ACL_RT_MEM_ACCESS_FLAGS_NONE || flags == ACL_RT_MEM_ACCESS_FLAGS_READ ||
                flags == ACL_RT_MEM_ACCESS_FLAGS_READWRITE,
            ACL_ERROR_INVALID_PARAM, "desc->flags is not an aclrtMemAccessFlags value");
    if (flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE) {
      call.runtime().report_unsupported("aclrtMemSetAccess(READ or NONE)");
      fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "only ACL_RT_MEM_ACCESS_FLAGS_READWRITE access is supported");
    }
    m->access = flags;
  }
}

std::uint64_t export_physical(Call& call, void* handle, int handle_type, std::uint64_t flags) {
  PhysicalHandle& h = live_physical(call, handle);
  require(handle_type == ACL_MEM_HANDLE_TYPE_NONE, ACL_ERROR_INVALID_PARAM,
          "handleType must be ACL_MEM_HANDLE_TYPE_NONE");
  require(flags == ACL_RT_VMM_EXPORT_FLAG_DEFAULT ||
              flags == ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
          ACL_ERROR_INVALID_PARAM, "flags must be an ACL_RT_VMM_EXPORT_FLAG_* value");
  require(!h.imported, ACL_ERROR_RT_PARAM_INVALID,
          "handle was imported: only the allocating process exports it");
  require(h.export_id == 0, ACL_ERROR_RT_PARAM_INVALID, "handle is already exported");
  h.export_id = call.runtime().ipc().publish(IpcKind::kPhysical, process_pid(),
                                             flags == ACL_RT_VMM_EXPORT_FLAG_DEFAULT, h.memory);
  return h.export_id;
}

void allow_physical_import(Call& call, std::uint64_t shareable, const std::int32_t* pids,
                           std::size_t count) {
  require_not_null(pids, "pid");
  require(count != 0, ACL_ERROR_INVALID_PARAM, "pidNum is 0");
  call.context();
  check_ipc(call.runtime().ipc().allow(shareable, IpcKind::kPhysical, process_pid(),
                                       std::vector<std::int32_t>(pids, pids + count)),
            "shareableHandle " + std::to_string(shareable));
}

void* import_physical(Call& call, std::uint64_t shareable, std::int32_t device) {
  call.context();
  call.device(device);
  IpcObject object;
  check_ipc(call.runtime().ipc().import(shareable, IpcKind::kPhysical, process_pid(), &object),
            "shareableHandle " + std::to_string(shareable));
  // In-process imports hold the object; the registry needs no close for them (the handle's
  // aclrtFreePhysical ends it).
  call.runtime().ipc().close(shareable, IpcKind::kPhysical, process_pid());
  auto h = std::make_shared<PhysicalHandle>();
  h->memory = std::static_pointer_cast<PhysicalMemory>(object);
  h->imported = true;
  return call.runtime().vmm().handles().add(std::move(h));
}

void release_all_vmm(Call& call) {
  Runtime& rt = call.runtime();
  VirtualMemory& vmm = rt.vmm();
  for (auto& [base, r] : vmm.reservations()) {
    for (auto& [mbase, m] : r.mappings) {
      rt.memory().release(reinterpret_cast<void*>(mbase));
      make_inaccessible(mbase, m.size);
    }
    rt.memory().release_range(reinterpret_cast<void*>(base), r.size);
  }
  vmm.reservations().clear();
  std::vector<void*> handles;
  vmm.handles().for_each([&](void* h, PhysicalHandle&) { handles.push_back(h); });
  for (void* h : handles) free_physical(call, h);
}

}  // namespace npusim::rt
