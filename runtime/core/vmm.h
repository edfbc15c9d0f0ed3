// SPDX-License-Identifier: Apache-2.0
// Virtual memory management: physical allocations (aclrtMallocPhysical) mapped into reserved
// device address ranges (aclrtReserveMemAddress, aclrtMapMem), and shared between processes
// through shareable handles (aclrtMemExportToShareableHandle / ImportFromShareableHandle, with a
// pid whitelist, via the IpcRegistry).
//
// Rules (CANN runtime API reference):
//  - The allocation granularity is 2 MiB (minimum and recommended): physical sizes, mapping sizes
//    and mapping offsets inside a reservation are multiples of it; a reservation is rounded up.
//  - A reservation is device address space with nothing behind it: an access faults until a
//    physical allocation is mapped there. A mapped range is device memory of the physical
//    allocation's device, for copies and kernels alike; aclrtFree refuses it (aclrtUnmapMem).
//  - aclrtReleaseMemAddress needs every mapping in the reservation unmapped first.
//  - Freeing a physical handle (aclrtFreePhysical) that is still mapped, or imported elsewhere,
//    keeps the pages until the last mapping goes; the allocating handle's capacity charge ends
//    when it is freed, and an export of it is withdrawn then.
//  - Two mappings of one physical allocation (the same or an imported handle) show the same bytes:
//    a physical allocation is a range of the process's one physical-memory memfd (PhysicalPool),
//    mapped shared at each virtual address. One file for all: programs (caching allocators) hold
//    thousands of 2 MiB physical allocations, far more than a process may open files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "runtime/core/handle_table.h"

namespace npusim::rt {

class Call;
class IpcCodec;

constexpr std::size_t kVmmGranularity = std::size_t{2} << 20;

/// Where physical pages live: one memfd, grown as needed; freed ranges give their pages back
/// (hole punching) and are reused first fit.
class PhysicalPool {
 public:
  PhysicalPool() = default;
  PhysicalPool(const PhysicalPool&) = delete;
  PhysicalPool& operator=(const PhysicalPool&) = delete;
  ~PhysicalPool();
  /// Offset of `size` bytes (a multiple of the granularity), or -1 when the host says no.
  std::int64_t allocate(std::size_t size);
  void release(std::int64_t offset, std::size_t size);
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::size_t end_ = 0;                         // file size
  std::map<std::int64_t, std::size_t> free_;   // released ranges by offset (coalesced)
};

/// The pages of one aclrtMallocPhysical: shared by its handle, imported handles and mappings;
/// its range of the pool is released with the last of them.
struct PhysicalMemory {
  PhysicalPool* pool = nullptr;  // this process's pool; null for another process's allocation
  int fd = -1;                   // another process's pool (imported through the session), owned
  std::int64_t offset = -1;
  std::size_t size = 0;
  std::uint32_t device = 0;
  int mem_attr = 0;  // aclrtMemAttr of the allocation
  PhysicalMemory() = default;
  PhysicalMemory(const PhysicalMemory&) = delete;
  PhysicalMemory& operator=(const PhysicalMemory&) = delete;
  ~PhysicalMemory();
};

/// An aclrtDrvMemHandle: the allocating one, or one made by an import or by
/// aclrtMemRetainAllocationHandle (each freed by its own aclrtFreePhysical).
struct PhysicalHandle {
  std::shared_ptr<PhysicalMemory> memory;
  bool imported = false;  // not the allocating handle: holds no capacity charge, never exported
  std::uint64_t export_id = 0;  // IpcRegistry id of its export (0: not exported)
};

struct VmmMapping {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  std::shared_ptr<PhysicalMemory> memory;
  void* handle = nullptr;   // the handle it was mapped with (aclrtMemRetainAllocationHandle)
  std::uint64_t access = 3;  // aclrtMemAccessFlags (READWRITE)
};

struct VmmReservation {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  std::map<std::uintptr_t, VmmMapping> mappings;  // by base address
};

class VirtualMemory {
 public:
  HandleTable<PhysicalHandle>& handles() { return handles_; }
  PhysicalPool& pool() { return pool_; }
  std::map<std::uintptr_t, VmmReservation>& reservations() { return reservations_; }
  /// The reservation containing `p`, or nullptr.
  VmmReservation* reservation_of(const void* p);
  /// The mapping containing `p`, or nullptr.
  VmmMapping* mapping_of(const void* p);

 private:
  PhysicalPool pool_;  // first: destroyed after everything holding its ranges
  HandleTable<PhysicalHandle> handles_{0x30};
  std::map<std::uintptr_t, VmmReservation> reservations_;
};

std::size_t vmm_granularity(Call& call, const void* prop, int option);
void* reserve_address(Call& call, std::size_t size, std::size_t alignment, void* expect,
                      std::uint64_t flags);
void release_address(Call& call, void* virt);
/// `prop` is an aclrtPhysicalMemProp.
void* malloc_physical(Call& call, std::size_t size, const void* prop, std::uint64_t flags);
void free_physical(Call& call, void* handle);
/// aclrtMemRetainAllocationHandle: a new handle of the allocation mapped at `virt` (a mapping's
/// start), to be freed with aclrtFreePhysical.
void* retain_physical(Call& call, void* virt);
void map_memory(Call& call, void* virt, std::size_t size, std::size_t offset, void* handle,
                std::uint64_t flags);
void unmap_memory(Call& call, void* virt);
/// aclrtMemSetAccess: `descs` are aclrtMemAccessDesc.
void set_access(Call& call, void* virt, std::size_t size, const void* descs, std::size_t count);
PhysicalHandle& live_physical(Call& call, void* handle);
std::uint64_t export_physical(Call& call, void* handle, int handle_type, std::uint64_t flags);
/// How a physical allocation travels to another process of the session (session_client.h).
IpcCodec& physical_codec();
void allow_physical_import(Call& call, std::uint64_t shareable, const std::int32_t* pids,
                           std::size_t count);
void* import_physical(Call& call, std::uint64_t shareable, std::int32_t device);
/// aclFinalize: every mapping, reservation and handle goes.
void release_all_vmm(Call& call);

}  // namespace npusim::rt
