// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/device_arena.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <iterator>

namespace npusim::rt {
namespace {

constexpr std::size_t kPage = 4096;
// Largest first: 16 TiB holds 16 devices' 64 GiB plus 3 TB of managed memory many times over;
// smaller ones serve hosts and tools (sanitizers, valgrind) that will not reserve that much
// address space.
// AddressSanitizer keeps a large part of the address space for its shadow and allocator: under
// it the arena starts smaller, so the sanitizer keeps room to map its own memory.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kReserveTries[] = {std::size_t{256} << 30, std::size_t{64} << 30,
                                         std::size_t{16} << 30, std::size_t{4} << 30,
                                         std::size_t{1} << 30};
#else
constexpr std::size_t kReserveTries[] = {
    std::size_t{16} << 40, std::size_t{4} << 40, std::size_t{1} << 40, std::size_t{256} << 30,
    std::size_t{64} << 30, std::size_t{16} << 30, std::size_t{4} << 30, std::size_t{1} << 30};
#endif

std::size_t page_round(std::size_t v) { return (v + kPage - 1) / kPage * kPage; }

}  // namespace

DeviceArena::~DeviceArena() {
  if (base_ != 0) munmap(reinterpret_cast<void*>(base_), size_);
  for (auto& [at, s] : shared_) ::close(s.fd);
  if (fd_ >= 0) ::close(fd_);
}

int DeviceArena::share(const void* p, std::size_t size, std::uint64_t* offset) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t first = addr / kPage * kPage;
  const std::uintptr_t end = page_round(addr + size);
  if (fd_ >= 0) {  // the whole range is one file already
    *offset = first - base_;
    return ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  }
  // Shared before: the same range or one containing it.
  auto it = shared_.upper_bound(first);
  if (it != shared_.begin()) {
    auto prev = std::prev(it);
    if (prev->first <= first && end <= prev->first + prev->second.size) {
      *offset = first - prev->first;
      return ::fcntl(prev->second.fd, F_DUPFD_CLOEXEC, 0);
    }
    if (prev->first + prev->second.size > first) return -1;  // partly overlapping
  }
  if (it != shared_.end() && it->first < end) return -1;
  const std::size_t len = end - first;
  const int fd = ::memfd_create("npusim-ipc-memory", MFD_CLOEXEC);
  if (fd < 0) return -1;
  void* at = reinterpret_cast<void*>(first);
  if (::ftruncate(fd, static_cast<off_t>(len)) != 0 ||
      ::pwrite(fd, at, len, 0) != static_cast<ssize_t>(len) ||
      mmap(at, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
    ::close(fd);
    return -1;
  }
  shared_[first] = Shared{len, fd};
  *offset = 0;
  return ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

bool DeviceArena::reserve() {
  for (std::size_t size : kReserveTries) {
    void* p = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) continue;
    if (whole_file_) {
      const int fd = ::memfd_create("npusim-device-arena", MFD_CLOEXEC);
      if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(size)) != 0) {
        if (fd >= 0) ::close(fd);
        munmap(p, size);
        continue;
      }
      fd_ = fd;
    }
    base_ = reinterpret_cast<std::uintptr_t>(p);
    size_ = size;
    bump_ = kPage;  // the first page stays inaccessible too
    return true;
  }
  return false;
}

std::uintptr_t DeviceArena::take(std::size_t span) {
  if (bump_ <= size_ && size_ - bump_ >= span) {
    const std::uintptr_t at = base_ + bump_;
    bump_ += span;
    return at;
  }
  for (auto it = free_.begin(); it != free_.end(); ++it) {  // first fit among freed spans
    if (it->second < span) continue;
    const std::uintptr_t at = it->first;
    const std::size_t rest = it->second - span;
    free_.erase(it);
    if (rest != 0) free_.emplace(at + span, rest);
    return at;
  }
  return 0;
}

int DeviceArena::size_class(std::size_t size) const {
  int c = 0;
  for (std::size_t chunk = min_chunk_; chunk < size; chunk *= 2) ++c;
  return c;
}

void* DeviceArena::allocate(std::size_t size) {
  if (size > small_max_) {
    if (page_allocations_ >= kMaxPageAllocations) return nullptr;
    void* p = allocate_pages(size);
    if (p != nullptr) ++page_allocations_;
    return p;
  }
  const int c = size_class(size);
  std::deque<std::uintptr_t>& list = small_free_[c];
  if (list.empty()) {  // a new slab, cut into chunks of this class
    void* slab = allocate_pages(kSlab);
    if (slab == nullptr) return nullptr;
    const std::size_t chunk = min_chunk_ << c;
    for (std::size_t off = 0; off + chunk <= kSlab; off += chunk) {
      list.push_back(reinterpret_cast<std::uintptr_t>(slab) + off);
    }
  }
  const std::uintptr_t at = list.front();  // the chunk freed longest ago: reuse is late
  list.pop_front();
  return reinterpret_cast<void*>(at);
}

void DeviceArena::release(void* p, std::size_t size) {
  if (size > small_max_) {
    --page_allocations_;
    release_pages(p, size);
    return;
  }
  small_free_[size_class(size)].push_back(reinterpret_cast<std::uintptr_t>(p));
}

void* DeviceArena::allocate_pages(std::size_t size) {
  if (base_ == 0 && !reserve()) return nullptr;
  const std::size_t usable = page_round(size == 0 ? 1 : size);
  if (usable > size_) return nullptr;
  const std::uintptr_t at = take(usable + kPage);  // + the guard page after it
  if (at == 0) return nullptr;
  void* p = reinterpret_cast<void*>(at);
  if (fd_ >= 0 ? mmap(p, usable, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_,
                      static_cast<off_t>(at - base_)) == MAP_FAILED
               : mprotect(p, usable, PROT_READ | PROT_WRITE) != 0) {
    release_pages(p, size);
    return nullptr;
  }
  return p;
}

void DeviceArena::release_pages(void* p, std::size_t size) {
  const std::size_t usable = page_round(size == 0 ? 1 : size);
  // A fresh inaccessible mapping over the range: the host gets the memory back, and the range
  // merges with the inaccessible ones around it (an mprotect'ed range would stay a mapping of its
  // own, and a long run would reach the kernel's limit on mappings per process).
  mmap(p, usable, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  if (fd_ >= 0) {
    fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(at - base_),
              static_cast<off_t>(usable));
  }
  // Shared ranges inside it end here (importers keep their own mapping of the pages).
  for (auto s = shared_.lower_bound(at); s != shared_.end() && s->first < at + usable;) {
    ::close(s->second.fd);
    s = shared_.erase(s);
  }
  std::size_t span = usable + kPage;
  auto next = free_.lower_bound(at);
  if (next != free_.end() && at + span == next->first) {  // merge with the span after
    span += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == at) {  // merge with the span before
      prev->second += span;
      return;
    }
  }
  free_.emplace(at, span);
}

}  // namespace npusim::rt
