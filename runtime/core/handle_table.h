// SPDX-License-Identifier: Apache-2.0
// Opaque handles for runtime objects (contexts, streams, events, allocator descriptors...).
// A handle is a tagged serial number, never a raw pointer, and serials are never reused, so a
// destroyed or foreign handle is always detected (no ABA when an address would be recycled).
// Objects are held by shared_ptr: task callbacks may keep state alive past destruction.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

namespace npusim::rt {

template <class T>
class HandleTable {
 public:
  /// `tag` marks the handle kind in the high bits ("0x5" → streams print as 0x5000000001).
  explicit HandleTable(std::uint64_t tag) : tag_(tag << 36) {}

  void* add(std::shared_ptr<T> object) {
    std::uintptr_t key = static_cast<std::uintptr_t>(tag_ | next_serial_++);
    items_.emplace(key, std::move(object));
    return reinterpret_cast<void*>(key);
  }

  /// The live object for `handle`, or nullptr.
  T* find(const void* handle) const {
    auto it = items_.find(reinterpret_cast<std::uintptr_t>(handle));
    return it == items_.end() ? nullptr : it->second.get();
  }

  std::shared_ptr<T> get(const void* handle) const {
    auto it = items_.find(reinterpret_cast<std::uintptr_t>(handle));
    return it == items_.end() ? nullptr : it->second;
  }

  /// Removes the object; returns it (empty when the handle was unknown).
  std::shared_ptr<T> remove(const void* handle) {
    auto it = items_.find(reinterpret_cast<std::uintptr_t>(handle));
    if (it == items_.end()) return nullptr;
    std::shared_ptr<T> object = std::move(it->second);
    items_.erase(it);
    return object;
  }

  /// Calls f(handle, T&) for every object, in creation order.
  template <class F>
  void for_each(F&& f) const {
    for (const auto& [key, object] : items_) f(reinterpret_cast<void*>(key), *object);
  }

  std::size_t size() const { return items_.size(); }
  void clear() { items_.clear(); }

 private:
  std::uint64_t tag_;
  std::uint64_t next_serial_ = 1;
  std::map<std::uintptr_t, std::shared_ptr<T>> items_;
};

}  // namespace npusim::rt
