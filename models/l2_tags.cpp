// SPDX-License-Identifier: Apache-2.0
#include "models/l2_tags.h"

#include <algorithm>
#include <cstdint>

namespace npusim::models {

namespace {
unsigned log2_of(std::uint64_t v) { return static_cast<unsigned>(__builtin_ctzll(v)); }
}  // namespace

L2Tags::L2Tags(const Geometry& g)
    : g_(g),
      sets_(std::max<std::uint64_t>(g.size / (g.line * g.ways), 1)),
      line_shift_(log2_of(g.line)),
      sector_shift_(log2_of(g.sector)) {}

void L2Tags::clear() {
  tags_.clear();
  meta_.clear();
}

std::uint32_t L2Tags::stamp() {
  if (clock_ == UINT32_MAX) {
    std::vector<std::uint32_t> order(g_.ways);
    for (std::uint64_t s = 0; s < sets_; ++s) {
      Meta* set = &meta_[s * g_.ways];
      for (std::uint32_t w = 0; w < g_.ways; ++w) order[w] = w;
      std::sort(order.begin(), order.end(),
                [set](std::uint32_t a, std::uint32_t b) { return set[a].used < set[b].used; });
      for (std::uint32_t r = 0; r < g_.ways; ++r) {
        if (set[order[r]].used != 0) set[order[r]].used = r + 1;
      }
    }
    clock_ = static_cast<std::uint32_t>(g_.ways);
  }
  return ++clock_;
}

std::uint64_t L2Tags::find(std::uint64_t line_no, std::uint64_t set_index, Result& out,
                           bool& allocated) {
  allocated = false;
  const std::uint64_t base = set_index * g_.ways;
  const std::uint64_t* tags = &tags_[base];
  const std::uint64_t tag = line_no + 1;
  for (std::uint64_t w = 0; w < g_.ways; ++w) {
    if (tags[w] == tag) return base + w;
  }
  const Meta* meta = &meta_[base];
  std::uint64_t victim = 0;
  for (std::uint64_t w = 1; w < g_.ways; ++w) {
    if (meta[w].used < meta[victim].used) victim = w;  // empty ways have used 0: taken first
  }
  const std::uint64_t v = base + victim;
  allocated = true;
  if (tags_[v] != 0) {
    ++out.evictions;
    out.writeback_bytes += static_cast<std::uint64_t>(__builtin_popcount(meta_[v].dirty)) * g_.sector;
  }
  tags_[v] = tag;
  meta_[v] = Meta{};
  return v;
}

void L2Tags::range(std::uint64_t addr, std::uint64_t bytes, bool write, Result& out) {
  if (tags_.empty()) {
    tags_.assign(sets_ * g_.ways, 0);
    meta_.assign(sets_ * g_.ways, Meta{});
  }
  std::uint64_t at = addr;
  const std::uint64_t end = addr + bytes;
  std::uint64_t set = (at >> line_shift_) % sets_;  // then one more per line: no division
  while (at < end) {
    const std::uint64_t line_no = at >> line_shift_;
    const std::uint64_t line_end = std::min(end, (line_no + 1) << line_shift_);
    bool allocated = false;
    const std::uint64_t index = find(line_no, set, out, allocated);
    if (++set == sets_) set = 0;
    const std::uint32_t used = stamp();  // may re-rank meta_: take the reference after it
    Meta& way = meta_[index];
    way.used = used;
    const unsigned first = static_cast<unsigned>((at - (line_no << line_shift_)) >> sector_shift_);
    const unsigned last =
        static_cast<unsigned>((line_end - 1 - (line_no << line_shift_)) >> sector_shift_);
    const auto mask =
        static_cast<std::uint8_t>(((1u << (last - first + 1)) - 1u) << first);
    if (write) {
      if (!allocated) out.write_hit_bytes += line_end - at;
      way.valid |= mask;
      way.dirty |= mask;
    } else {
      const auto missing = static_cast<std::uint8_t>(mask & ~way.valid);
      const std::uint64_t span = line_end - at;
      if (missing == 0) {
        out.hit_bytes += span;
      } else {
        // Bytes in the sectors already valid hit; count them sector by sector at the edges.
        std::uint64_t hit = 0;
        for (unsigned s = first; s <= last; ++s) {
          if ((way.valid >> s & 1u) == 0) continue;
          const std::uint64_t s_begin = (line_no << line_shift_) + (std::uint64_t{s} << sector_shift_);
          hit += std::min(line_end, s_begin + g_.sector) - std::max(at, s_begin);
        }
        out.hit_bytes += hit;
        out.fill_bytes += static_cast<std::uint64_t>(__builtin_popcount(missing)) * g_.sector;
        way.valid |= missing;
      }
    }
    at = line_end;
  }
}

void L2Tags::access(std::uint64_t addr, std::uint64_t len, std::uint64_t bursts,
                    std::uint64_t pitch, bool write, Result& out) {
  if (pitch == 0 || bursts <= 1 || pitch == len) {
    range(addr, len * std::max<std::uint64_t>(bursts, 1), write, out);
    return;
  }
  for (std::uint64_t i = 0; i < bursts; ++i) range(addr + i * pitch, len, write, out);
}

}  // namespace npusim::models
