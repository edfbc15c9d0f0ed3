// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/memory_registry.h"

#include <sys/mman.h>

#include <iterator>
#include <vector>

#include "runtime/session/session.h"

namespace npusim::rt {

MemoryRegistry::MemoryRegistry() {
  arena_.set_whole_file(remote::session_named_in_env());
}

MemoryRegistry::~MemoryRegistry() {
  for (auto& [base, a] : blocks_) {
    if (!a.mapped) unmap(a);
  }
}

void* MemoryRegistry::reserve_range(std::size_t size) {
  void* p = arena_.allocate(size);
  if (p == nullptr) return nullptr;
  // Inaccessible until aclrtMapMem puts physical pages there.
  mmap(p, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  return p;
}

void MemoryRegistry::release_range(void* base, std::size_t size) { arena_.release(base, size); }

const Allocation* MemoryRegistry::add_mapping(std::uint32_t device, void* base,
                                              std::size_t size) {
  Allocation a;
  a.base = reinterpret_cast<std::uintptr_t>(base);
  a.size = size;
  a.kind = MemKind::kDevice;
  a.device = device;
  a.serial = next_serial_++;
  a.mapped = true;
  ++generation_;
  live_serials_.insert(a.serial);
  return &blocks_.emplace(a.base, a).first->second;
}

const Allocation* MemoryRegistry::allocate(MemKind kind, std::uint32_t device, std::size_t size,
                                           std::size_t charged) {
  void* p = (kind == MemKind::kHostPinned ? pinned_arena_ : arena_).allocate(size);
  if (p == nullptr) return nullptr;
  Allocation a;
  a.base = reinterpret_cast<std::uintptr_t>(p);
  a.size = size;
  a.charged = charged;
  a.kind = kind;
  a.device = device;
  a.serial = next_serial_++;
  ++generation_;
  live_serials_.insert(a.serial);
  if (kind == MemKind::kDevice) charged_[device] += charged;
  if (kind == MemKind::kHostPinned) pinned_bytes_ += size;
  return &blocks_.emplace(a.base, a).first->second;
}

const Allocation* MemoryRegistry::find(const void* p) const {
  auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto it = blocks_.upper_bound(addr);
  if (it == blocks_.begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  return addr < a.base + (a.size == 0 ? 1 : a.size) ? &a : nullptr;
}

const Allocation* MemoryRegistry::find_base(const void* base) const {
  auto it = blocks_.find(reinterpret_cast<std::uintptr_t>(base));
  return it == blocks_.end() ? nullptr : &it->second;
}

bool MemoryRegistry::release(const void* base) {
  auto it = blocks_.find(reinterpret_cast<std::uintptr_t>(base));
  if (it == blocks_.end()) return false;
  const Allocation& a = it->second;
  live_serials_.erase(a.serial);
  if (a.kind == MemKind::kDevice) charged_[a.device] -= a.charged;
  if (a.kind == MemKind::kHostPinned) {
    pinned_bytes_ -= a.size;
    registered_.erase(registered_.lower_bound(a.base), registered_.lower_bound(a.base + a.size));
  }
  if (!a.mapped) unmap(a);
  blocks_.erase(it);
  ++generation_;
  return true;
}

bool MemoryRegistry::release_if(const void* base, std::uint64_t serial) {
  const Allocation* a = find_base(base);
  return a != nullptr && a->serial == serial && release(base);
}

bool MemoryRegistry::register_host(const void* base, std::size_t size, std::uint32_t flags) {
  auto b = reinterpret_cast<std::uintptr_t>(base);
  auto next = registered_.lower_bound(b);
  if (next != registered_.end() && next->first < b + size) return false;
  if (next != registered_.begin()) {
    const HostRegistration& before = std::prev(next)->second;
    if (before.base + before.size > b) return false;
  }
  registered_.emplace(b, HostRegistration{b, size, flags});
  ++generation_;
  return true;
}

const HostRegistration* MemoryRegistry::find_registered(const void* p) const {
  auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto it = registered_.upper_bound(addr);
  if (it == registered_.begin()) return nullptr;
  --it;
  return addr < it->second.base + it->second.size ? &it->second : nullptr;
}

bool MemoryRegistry::unregister_host(const void* base) {
  ++generation_;
  return registered_.erase(reinterpret_cast<std::uintptr_t>(base)) != 0;
}

bool MemoryRegistry::device_accessible(const void* p, std::uint64_t bytes, bool write) const {
  auto addr = reinterpret_cast<std::uintptr_t>(p);
  const Allocation* a = find(p);
  if (a != nullptr && a->kind != MemKind::kHostPinned && a->contains(addr, bytes)) return true;
  const HostRegistration* r = find_registered(p);
  if (r == nullptr || !r->contains(addr, bytes)) return false;
  constexpr std::uint32_t kReadOnly = 0x8;  // ACL_HOST_REG_READONLY
  return !write || (r->flags & kReadOnly) == 0;
}

void MemoryRegistry::release_all(MemKind kind) {
  std::vector<std::uintptr_t> bases;
  for (const auto& [base, a] : blocks_) {
    if (a.kind == kind && !a.mapped) bases.push_back(base);  // mappings: runtime/core/vmm.h
  }
  for (std::uintptr_t b : bases) release(reinterpret_cast<const void*>(b));
}

std::uint64_t MemoryRegistry::charged(std::uint32_t device) const {
  auto it = charged_.find(device);
  return it == charged_.end() ? 0 : it->second;
}

void MemoryRegistry::unmap(const Allocation& a) {
  (a.kind == MemKind::kHostPinned ? pinned_arena_ : arena_)
      .release(reinterpret_cast<void*>(a.base), a.size);
}

}  // namespace npusim::rt
