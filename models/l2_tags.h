// SPDX-License-Identifier: Apache-2.0
// The L2's tags: which GM bytes the L2 holds, decided by address. Plain C++ (L2Cache, l2_cache.h,
// adds the time).
//
// Model: a sectored, set-associative cache of `size` bytes in lines of `line` bytes, each line
// `line / sector` sectors with their own valid and dirty bits, `ways` lines per set, the set of
// a line = (address / line) mod sets (sets = size / (line x ways); plain modulo, so moving every
// address by the same multiple of the line size changes no hit or miss: runs whose device memory
// lands at another host address behave alike). Replacement: least recently used line of the set.
// Reads: a valid sector hits; a missing sector is fetched whole from HBM (`fill` bytes), the line
// allocated if absent. Writes: write-allocate, write-back: the written sectors become valid and
// dirty without a fetch (the core writes whole 32-byte blocks; partial sectors are taken as
// merged); HBM sees them only when their line is evicted (`writeback` bytes). Shared by every
// core of a chip. DMA engines (SDMA, host link, peers) reach HBM without passing these tags: data
// they move is neither filled into nor invalidated in L2 (their traffic is timed on HBM only).
#pragma once

#include <cstdint>
#include <vector>

namespace npusim::models {

class L2Tags {
 public:
  struct Geometry {
    std::uint64_t size = 0;    // bytes
    std::uint64_t line = 512;  // bytes; a power of two
    std::uint64_t sector = 128;  // bytes; a power of two dividing `line`, at most 8 per line
    std::uint64_t ways = 16;
  };
  /// What one access did.
  struct Result {
    std::uint64_t hit_bytes = 0;   // read bytes found in valid sectors
    std::uint64_t fill_bytes = 0;  // bytes read from HBM (whole sectors)
    std::uint64_t writeback_bytes = 0;  // dirty bytes of evicted lines, written to HBM
    std::uint64_t evictions = 0;
    std::uint64_t write_hit_bytes = 0;  // written bytes whose line L2 already held
  };

  /// Contract: g is valid (validate_chip_config checks the preset keys).
  explicit L2Tags(const Geometry& g);

  /// `bursts` bursts of `len` bytes, burst i at addr + i * pitch (pitch 0: contiguous, one burst of
  /// bursts x len bytes). Updates the tags and LRU order; adds what happened to `out`.
  void access(std::uint64_t addr, std::uint64_t len, std::uint64_t bursts, std::uint64_t pitch,
              bool write, Result& out);

  /// Drops every line (dirty data is discarded: no HBM traffic).
  void clear();

  std::uint64_t sets() const { return sets_; }

  /// Tests only: the LRU stamp counter, to reach its wrap-around (every 2^32 line accesses).
  void set_clock_for_test(std::uint32_t clock) { clock_ = clock; }

 private:
  /// Per way, apart from its tag: the tags of a set are contiguous (a hit scans only them, 8 bytes
  /// per way); this is read only for the way found and, on a miss, to choose the victim.
  struct Meta {
    std::uint32_t used = 0;  // LRU stamp (0: never used); re-ranked per set when clock_ wraps
    std::uint8_t valid = 0;  // sector bits
    std::uint8_t dirty = 0;
  };
  void range(std::uint64_t addr, std::uint64_t bytes, bool write, Result& out);
  /// The way index (into tags_/meta_) holding `line_no` in set `set`, allocated if absent.
  /// `allocated`: the line was absent.
  std::uint64_t find(std::uint64_t line_no, std::uint64_t set, Result& out, bool& allocated);
  /// The next LRU stamp; when the 32-bit stamps run out, every set's stamps are replaced by
  /// their rank (1..ways), which keeps each set's LRU order exactly.
  std::uint32_t stamp();

  Geometry g_;
  std::uint64_t sets_;
  unsigned line_shift_, sector_shift_;
  std::uint32_t clock_ = 0;
  std::vector<std::uint64_t> tags_;  // sets_ x g_.ways: line number + 1 (0: empty); at first use
  std::vector<Meta> meta_;           // the same shape
};

}  // namespace npusim::models
