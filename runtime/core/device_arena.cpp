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

using Spans = std::map<std::uintptr_t, std::size_t>;

/// First fit: the start of a free span of `span` bytes taken out of `spans`, or 0.
std::uintptr_t take_span(Spans& spans, std::size_t span) {
  for (auto it = spans.begin(); it != spans.end(); ++it) {
    if (it->second < span) continue;
    const std::uintptr_t at = it->first;
    const std::size_t rest = it->second - span;
    spans.erase(it);
    if (rest != 0) spans.emplace(at + span, rest);
    return at;
  }
  return 0;
}

/// Gives [at, at + span) back to `spans`, merged with its neighbours.
void put_span(Spans& spans, std::uintptr_t at, std::size_t span) {
  auto next = spans.lower_bound(at);
  if (next != spans.end() && at + span == next->first) {  // merge with the span after
    span += next->second;
    next = spans.erase(next);
  }
  if (next != spans.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == at) {  // merge with the span before
      prev->second += span;
      return;
    }
  }
  spans.emplace(at, span);
}

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
  return take_span(free_, span);  // first fit among freed spans
}

int DeviceArena::size_class(std::size_t size) const {
  int c = 0;
  for (std::size_t chunk = min_chunk_; chunk < size; chunk *= 2) ++c;
  return c;
}

void* DeviceArena::allocate(std::size_t size) {
  if (size > small_max_) {
    if (page_allocations_ >= kMaxGuardedAllocations && size < kPackedSlab) {
      return allocate_packed(page_round(size));
    }
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
    const std::size_t usable = page_round(size == 0 ? 1 : size);
    if (release_packed(reinterpret_cast<std::uintptr_t>(p), usable)) return;
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
  put_span(free_, at, usable + kPage);
}

void* DeviceArena::allocate_packed(std::size_t usable) {
  for (auto& [base, slab] : packed_) {
    const std::uintptr_t at = take_span(slab.free, usable);
    if (at == 0) continue;
    slab.used += usable;
    return reinterpret_cast<void*>(at);
  }
  void* p = allocate_pages(kPackedSlab);  // a new slab (not counted among the guarded ones)
  if (p == nullptr) return nullptr;
  const auto base = reinterpret_cast<std::uintptr_t>(p);
  PackedSlab& slab = packed_[base];
  slab.used = usable;
  if (usable < kPackedSlab) slab.free.emplace(base + usable, kPackedSlab - usable);
  return p;
}

bool DeviceArena::release_packed(std::uintptr_t at, std::size_t usable) {
  auto it = packed_.upper_bound(at);
  if (it == packed_.begin()) return false;
  --it;
  if (at >= it->first + kPackedSlab) return false;
  PackedSlab& slab = it->second;
  slab.used -= usable;
  if (slab.used == 0) {  // its last allocation: the slab goes back as a whole
    release_pages(reinterpret_cast<void*>(it->first), kPackedSlab);
    packed_.erase(it);
    return true;
  }
  discard(at, usable);
  put_span(slab.free, at, usable);
  return true;
}

void DeviceArena::discard(std::uintptr_t at, std::size_t usable) {
  void* p = reinterpret_cast<void*>(at);
  // A fresh mapping: the host gets the memory back, the contents go, a range another process
  // shared or a caller made inaccessible (MemoryRegistry::reserve_range) is readable again, and
  // the mapping merges with the slab's around it.
  if (fd_ >= 0) {
    fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(at - base_),
              static_cast<off_t>(usable));
    mmap(p, usable, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_,
         static_cast<off_t>(at - base_));
  } else {
    mmap(p, usable, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
         -1, 0);
  }
  for (auto s = shared_.lower_bound(at); s != shared_.end() && s->first < at + usable;) {
    ::close(s->second.fd);
    s = shared_.erase(s);
  }
}

}  // namespace npusim::rt
