// SPDX-License-Identifier: Apache-2.0
// Where device memory lives: one large reserved range of the process's address space, apart from
// the host heap. Allocations are carved out of it page by page, each followed by an inaccessible
// guard page; freed ranges become inaccessible again and are reused only after the rest of the
// range has been handed out once. Small allocations (up to `small_max` bytes) share 1 MiB slabs
// by power-of-two size class instead (aligned to their class, at least `min_chunk`), without a
// guard page each. Every page-and-guard allocation costs the process two kernel memory mappings,
// and tens of thousands of them would exhaust the kernel's limit (vm.max_map_count, 65530 by
// default), which the host's own allocator also needs: so the first kMaxGuardedAllocations live
// page-granular allocations get a guard page each, and further ones below kPackedSlab bytes are
// packed, page-granular, into shared read-write slabs of kPackedSlab bytes (two mappings per slab,
// none per allocation; a freed packed range gets fresh zero pages and stays accessible, and a
// slab goes back when its last allocation does). The number of live allocations is then bounded
// only by the memory behind them (the caller's HBM accounting) and the reserved range. Packed
// allocations are recognisable as device memory like the others, but a stray access just past
// one or into a freed one is not caught. So a device address is recognisable
// (the runtime can tell a freed or past-the-end device pointer from host memory), and a kernel's
// stray access near a buffer, into freed memory or to address 0 faults instead of silently
// corrupting host memory (the kernel launcher turns that fault into an AI Core exception).
// Pages are anonymous memory, except a range another process of a session maps (an IPC export):
// share() moves that range, contents included, to a memfd of its own mapped shared at the same
// address, so both processes see one set of bytes; the range's release drops it (importers keep
// theirs). Only exported ranges pay for shared memory (anonymous pages copy 3.5x faster in bulk).
// An arena made with `whole_file` (set_whole_file before the first allocation: the processes of
// a named session, whose collectives read any buffer of a peer) is one sparse memfd as large as
// the range instead (offset = address - base; freed ranges punch holes): fd(), offset_of().
// Plain C++ over mmap/mprotect/memfd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>

namespace npusim::rt {

class DeviceArena {
 public:
  static constexpr std::size_t kMaxGuardedAllocations = 8192;
  static constexpr std::size_t kPackedSlab = std::size_t{64} << 20;

  DeviceArena(std::size_t small_max, std::size_t min_chunk)
      : small_max_(small_max), min_chunk_(min_chunk) {}
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;
  ~DeviceArena();

  /// `size` usable bytes (page-aligned start), or nullptr when the range is exhausted or the host
  /// cannot reserve it. Pages are committed by the host only when touched.
  void* allocate(std::size_t size);
  /// Returns an allocation of `size` bytes at `p` (from allocate()); its pages become
  /// inaccessible and their memory goes back to the host.
  void release(void* p, std::size_t size);
  /// Whether `p` lies in the reserved range (live, freed or never allocated).
  bool contains(const void* p) const {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return a >= base_ && a < base_ + size_;
  }
  std::size_t reserved() const { return size_; }
  /// Start of the reserved range (0 until the first allocation reserves it).
  std::uintptr_t base() const { return base_; }
  /// Makes the pages of [p, p + size) shared (see the file comment). Returns a new descriptor of
  /// their memfd (the caller closes it) and in *offset the offset of `p`'s page in it; -1 when
  /// the range partly overlaps a range shared before (only the same or a contained range may be
  /// exported again) or the host says no.
  int share(const void* p, std::size_t size, std::uint64_t* offset);
  /// Before the first allocation: back the whole range by one memfd (see the file comment).
  void set_whole_file(bool on) { whole_file_ = on; }
  /// The whole-range memfd (-1 unless whole_file; reserves the range first); `p`'s offset in it.
  int fd() {
    if (base_ == 0) reserve();
    return fd_;
  }
  std::uint64_t offset_of(const void* p) const {
    return reinterpret_cast<std::uintptr_t>(p) - base_;
  }

 private:
  bool reserve();
  std::uintptr_t take(std::size_t span);
  void* allocate_pages(std::size_t size);
  void release_pages(void* p, std::size_t size);
  int size_class(std::size_t size) const;  // 0 = min_chunk, 1 = 2 x min_chunk, ...
  void* allocate_packed(std::size_t usable);
  bool release_packed(std::uintptr_t at, std::size_t usable);  // false: not a packed range
  void discard(std::uintptr_t at, std::size_t usable);  // fresh zero pages, still accessible

  static constexpr int kClasses = 16;
  static constexpr std::size_t kSlab = 1 << 20;

  std::size_t small_max_;
  std::size_t min_chunk_;
  std::size_t page_allocations_ = 0;  // live guarded allocations (slabs not counted)
  std::uintptr_t base_ = 0;
  std::size_t size_ = 0;
  bool whole_file_ = false;
  int fd_ = -1;
  struct Shared {
    std::size_t size = 0;
    int fd = -1;
  };
  std::map<std::uintptr_t, Shared> shared_;  // ranges moved to a memfd, by page address
  std::size_t bump_ = 0;                        // offset of the never-used rest
  std::map<std::uintptr_t, std::size_t> free_;  // released spans by address (coalesced)
  std::deque<std::uintptr_t> small_free_[kClasses];  // free chunks per class, oldest first
  struct PackedSlab {
    std::size_t used = 0;                        // bytes of live allocations in it
    std::map<std::uintptr_t, std::size_t> free;  // free spans by address (coalesced)
  };
  std::map<std::uintptr_t, PackedSlab> packed_;  // by slab address
};

}  // namespace npusim::rt
