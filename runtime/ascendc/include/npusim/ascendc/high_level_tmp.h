// SPDX-License-Identifier: Apache-2.0
// What the twin's high-level APIs (lib/...) share: their temporary Unified Buffer space and how a
// computation is split into passes over it.
//
// A high-level API that needs intermediate values takes them from a temporary buffer: the
// caller's sharedTmpBuffer, or (the "framework allocates" forms, without that argument) the free
// space above everything the block's TPipe has allocated, taken for the call and given back at
// its end (tensors a kernel places by address, LocalTensor(pos, addr, n), are not known to be
// there: such a kernel passes a sharedTmpBuffer); when that space is smaller than the API's minimum the call fails naming the API. An
// API needing B bytes of temporary space per element processes all elements in one pass when
// they fit, else passes of a multiple of 64 elements (one 256-byte repeat of float); below 64
// elements' worth (or all of them, when fewer) the call fails naming the API and the tiling
// function that says how much to reserve. The APIs are built from the twin's basic vector
// instructions (vector_ops.h), so each pass costs what its instructions cost.
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/tensor.h"

namespace npusim::ascendc {

/// Elements per pass of an API needing `bytes_per_elem` temporary bytes per element, with
/// `tmp_bytes` of temporary space, for `count` elements; 0 when the space is below the minimum.
inline std::uint32_t high_level_pass(std::uint32_t tmp_bytes, std::uint32_t bytes_per_elem,
                                     std::uint32_t count) {
  if (bytes_per_elem == 0) return count;
  const std::uint32_t fit = tmp_bytes / bytes_per_elem;
  if (fit >= count) return count;
  return fit / 64 * 64;
}

/// The minimum temporary space of such an API (what its GetXxxTmpSize reports as minValue).
inline std::uint32_t high_level_min_tmp(std::uint32_t bytes_per_elem, std::uint32_t count) {
  const std::uint32_t elems = count < 64 ? count : 64;
  return (elems * bytes_per_elem + 31) / 32 * 32;
}

/// A high-level API's temporary buffer: the caller's, or UB space held for the call.
class HighLevelTmp {
 public:
  explicit HighLevelTmp(const AscendC::LocalTensor<std::uint8_t>& shared) : tensor_(shared) {}

  /// The framework form: `want` bytes of the block's free UB, or as many as are free (at least
  /// `need`; fewer fail naming `api` and `tiling`).
  HighLevelTmp(const char* api, const char* tiling, std::uint32_t want, std::uint32_t need) {
    if (want == 0) return;
    BlockContext& ctx = block();
    ScalarPause pause(ctx);  // the framework's bookkeeping, not kernel work
    mark_ = ctx.used(Mem::kUb);
    const std::uint32_t cap = ctx.capacity(Mem::kUb);
    const std::uint32_t free = cap > mark_ ? (cap - mark_) / 32 * 32 : 0;
    const std::uint32_t bytes = want <= free ? want : free;
    if (bytes < need) {
      fail(api,
           "no room in UB for its temporary space: needs %u bytes, %u free above the TPipe's "
           "buffers (reserve what %s reports or pass a sharedTmpBuffer)",
           need, free, tiling);
    }
    const std::uint32_t at = ctx.allocate(Mem::kUb, bytes, api);
    ctx_ = &ctx;
    tensor_ = AscendC::LocalTensor<std::uint8_t>(AscendC::TPosition::VECCALC, at, bytes);
  }
  ~HighLevelTmp() {
    if (ctx_ != nullptr) ctx_->release_to(Mem::kUb, mark_);
  }
  HighLevelTmp(const HighLevelTmp&) = delete;
  HighLevelTmp& operator=(const HighLevelTmp&) = delete;

  std::uint32_t bytes() const { return tensor_.GetSize(); }
  /// `elems` elements of U at element offset `at` of the buffer.
  template <class U>
  AscendC::LocalTensor<U> as(std::uint32_t at = 0) const {
    return tensor_.template ReinterpretCast<U>()[at];
  }

 private:
  AscendC::LocalTensor<std::uint8_t> tensor_;
  BlockContext* ctx_ = nullptr;
  std::uint32_t mark_ = 0;
};

/// Elements per pass for `api` (fails when the space is below the minimum).
inline std::uint32_t high_level_pass_or_fail(const char* api, const char* tiling,
                                             std::uint32_t tmp_bytes,
                                             std::uint32_t bytes_per_elem, std::uint32_t count) {
  const std::uint32_t pass = high_level_pass(tmp_bytes, bytes_per_elem, count);
  if (pass == 0 && count > 0) {
    fail(api, "sharedTmpBuffer of %u bytes is below the minimum of %u bytes for %u elements (%s)",
         tmp_bytes, high_level_min_tmp(bytes_per_elem, count), count, tiling);
  }
  return pass;
}

}  // namespace npusim::ascendc
