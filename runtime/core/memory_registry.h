// SPDX-License-Identifier: Apache-2.0
// Every block of memory the runtime hands out, by address range: device memory (aclrtMalloc, and
// the runtime's own kernel argument blocks), pinned host memory (aclrtMallocHost) and managed
// memory (aclrtMemAllocManaged). All are real process memory, so a kernel (or a copy task) can
// dereference a device pointer directly; device and managed memory come from one DeviceArena and
// pinned host memory from another, ranges of addresses of their own (so such an address is
// recognisable even after it is freed, and a stale one faults instead of corrupting the heap); the registry is what tells them apart (memcpy kind
// inference, aclrtMemset's host-versus-device choice, bounds checks, double-free detection, the
// kernels' global-memory check). Each allocation has a serial number that is never reused: a task
// that captured it can check at execution time that the memory has not been freed meanwhile.
// Host ranges registered with aclrtHostRegister(V2) are kept apart (they may lie inside a pinned
// allocation); their device alias is the host address itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include "runtime/core/device_arena.h"

namespace npusim::rt {

enum class MemKind : std::uint8_t { kDevice, kHostPinned, kManaged };

struct Allocation {
  std::uintptr_t base = 0;
  std::size_t size = 0;     // usable bytes (requested size with the runtime's padding)
  std::size_t charged = 0;  // bytes counted against the device's capacity
  MemKind kind = MemKind::kDevice;
  std::uint32_t device = 0;
  std::uint64_t serial = 0;
  /// A physical allocation mapped into a reserved range (aclrtMapMem, runtime/core/vmm.h): device
  /// memory, but not aclrtFree's and not the arena's to unmap.
  bool mapped = false;

  bool contains(std::uintptr_t p, std::size_t bytes) const {
    return p >= base && bytes <= size && p - base <= size - bytes;
  }
};

/// A host range made visible to the device (aclrtHostRegister / aclrtHostRegisterV2).
struct HostRegistration {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  std::uint32_t flags = 0;  // ACL_HOST_REG_* bits
  bool contains(std::uintptr_t p, std::size_t bytes) const {
    return p >= base && bytes <= size && p - base <= size - bytes;
  }
};

class MemoryRegistry {
 public:
  /// In a named session (NPUSIM_SESSION set, not "off") all device memory is one memfd, so a
  /// peer process can map any buffer (device_arena.h).
  MemoryRegistry();
  MemoryRegistry(const MemoryRegistry&) = delete;
  MemoryRegistry& operator=(const MemoryRegistry&) = delete;
  ~MemoryRegistry();

  /// Allocates `size` usable bytes, page aligned; nullptr when the host (or the device arena) is
  /// out of memory.
  const Allocation* allocate(MemKind kind, std::uint32_t device, std::size_t size,
                             std::size_t charged);
  /// The allocation containing address `p`, or nullptr.
  const Allocation* find(const void* p) const;
  /// The allocation starting exactly at `base`, or nullptr.
  const Allocation* find_base(const void* base) const;
  /// Releases the allocation starting at `base`; false when there is none. Registrations inside a
  /// released pinned block are dropped with it.
  bool release(const void* base);
  /// Releases the allocation starting at `base` only if it is still the one with `serial`.
  bool release_if(const void* base, std::uint64_t serial);
  /// Releases every allocation of `kind` (aclFinalize).
  void release_all(MemKind kind);
  bool alive(std::uint64_t serial) const { return live_serials_.count(serial) != 0; }
  /// Bytes charged on `device` by live device allocations.
  std::uint64_t charged(std::uint32_t device) const;
  /// Bytes held by live pinned host allocations.
  std::uint64_t pinned_bytes() const { return pinned_bytes_; }
  std::size_t count() const { return blocks_.size(); }
  /// Whether `p` is an address the runtime hands out (device, managed or pinned memory), live or
  /// not: such a pointer outside every live allocation is freed or past the end of one.
  bool runtime_address(const void* p) const {
    return arena_.contains(p) || pinned_arena_.contains(p);
  }
  /// The address range of device (and managed) memory: [first, second).
  DeviceArena& device_arena() { return arena_; }
  const DeviceArena& device_arena() const { return arena_; }
  std::pair<std::uintptr_t, std::uintptr_t> device_range() const {
    return {arena_.base(), arena_.base() + (arena_.base() != 0 ? arena_.reserved() : 0)};
  }

  // ---- Virtual memory (runtime/core/vmm.h) ----
  /// Reserves `size` bytes of device address space (page-aligned start), inaccessible until
  /// pages are mapped into it; nullptr when the arena is exhausted. Not an allocation.
  void* reserve_range(std::size_t size);
  /// Returns a range from reserve_range (its mappings must be gone from the registry).
  void release_range(void* base, std::size_t size);
  /// Records [base, base + size) (inside a reserved range, already backed) as device memory of
  /// `device`, charging nothing; released with release().
  const Allocation* add_mapping(std::uint32_t device, void* base, std::size_t size);
  /// Physical allocations count against the device's capacity (`bytes` may be negative).
  void charge(std::uint32_t device, std::int64_t bytes) {
    charged_[device] = static_cast<std::uint64_t>(static_cast<std::int64_t>(charged_[device]) + bytes);
  }

  // ---- Registered host ranges ----
  /// Registers [base, base + size); false when it overlaps a registered range.
  bool register_host(const void* base, std::size_t size, std::uint32_t flags);
  /// The registered range containing `p`, or nullptr.
  const HostRegistration* find_registered(const void* p) const;
  /// Drops the registration starting exactly at `base`; false when there is none.
  bool unregister_host(const void* base);
  void unregister_all() {
    registered_.clear();
    ++generation_;
  }

  /// Bumped by every change of what device_accessible answers (allocate, release, register and
  /// unregister a host range) and by note_contents_changed(): a kernel's memoised block trace
  /// (trace_memo.h) is only reused while it is unchanged, so a freed buffer is still reported by
  /// the GM checks of a re-run and a kernel reading (say) tiling data from GM sees new contents.
  std::uint64_t generation() const { return generation_; }
  /// A task other than a kernel may have written device memory (copies, memsets, value writes,
  /// host callbacks...: Call::submit wraps their effects).
  void note_contents_changed() { ++generation_; }

  /// Whether a kernel may access [p, p + bytes): device or managed memory, or a registered host
  /// range (writes not into a read-only one).
  bool device_accessible(const void* p, std::uint64_t bytes, bool write) const;

 private:
  void unmap(const Allocation& a);

  // Before blocks_: released after them. Pinned host memory starts on a page (it may be
  // registered with aclrtHostRegister, which takes page-aligned ranges).
  DeviceArena arena_{2048, 64};           // device and managed memory
  DeviceArena pinned_arena_{4096, 4096};  // pinned host memory
  std::map<std::uintptr_t, Allocation> blocks_;  // by base address
  std::map<std::uintptr_t, HostRegistration> registered_;  // by base address
  std::set<std::uint64_t> live_serials_;
  std::map<std::uint32_t, std::uint64_t> charged_;  // by device
  std::uint64_t next_serial_ = 1;
  std::uint64_t pinned_bytes_ = 0;
  std::uint64_t generation_ = 0;
};

}  // namespace npusim::rt
