// SPDX-License-Identifier: Apache-2.0
// Slice data movement of the Ascend C twin: DataCopy(dst, src, dstSliceInfo[], srcSliceInfo[],
// dimValue) between GM and UB (Atlas A2/A3). Each side describes a strided sub-block of a
// dimValue-dimensional ND tensor (dimension 0 innermost):
//   startIndex..endIndex (inclusive) along the dimension; along dimension 0 a slice is burstLen
//   32-byte blocks of elements followed by `stride` skipped elements, along the others one index
//   followed by `stride` skipped indices; shapeValue is the dimension's length in elements.
// The bursts of both sides, taken in row-major order, are paired one to one; both sides must
// describe the same number of bursts of the same length. GM -> UB runs on MTE2, UB -> GM on MTE3,
// recorded as one strided copy (its GM pitch is the first two bursts' distance).
#pragma once

#include <cstdint>

#include "npusim/ascendc/data_copy.h"

namespace AscendC {

inline constexpr std::uint32_t K_MAX_DIM = 8;

struct SliceInfo {
  std::uint32_t startIndex = 0;
  std::uint32_t endIndex = 0;
  std::uint32_t stride = 0;
  std::uint32_t burstLen = 0;
  std::uint32_t shapeValue = 0;
};

}  // namespace AscendC

namespace npusim::ascendc {

/// Walks the bursts a slice description selects in row-major order (dimension 0 fastest),
/// without allocating: offset() is the current burst's first element.
struct SliceWalker {
  const AscendC::SliceInfo* info;
  std::uint32_t dims;
  std::uint64_t burst;                      // elements per burst
  std::uint64_t index[AscendC::K_MAX_DIM];  // current index along each dimension
  std::uint64_t pitch[AscendC::K_MAX_DIM];  // elements between consecutive indices

  NPUSIM_TWIN_FN std::uint64_t step(std::uint32_t d) const {
    return (d == 0 ? burst : 1) + info[d].stride;
  }
  NPUSIM_TWIN_FN std::uint64_t offset() const {
    std::uint64_t o = 0;
    for (std::uint32_t d = 0; d < dims; ++d) o += index[d] * pitch[d];
    return o;
  }
  /// Moves to the next burst; false after the last one.
  NPUSIM_TWIN_FN bool next() {
    for (std::uint32_t d = 0; d < dims; ++d) {
      index[d] += step(d);
      if (index[d] <= info[d].endIndex) return true;
      index[d] = info[d].startIndex;
    }
    return false;
  }
  NPUSIM_TWIN_FN std::uint64_t count() const {
    std::uint64_t n = 1;
    for (std::uint32_t d = 0; d < dims; ++d)
      n *= (info[d].endIndex - info[d].startIndex) / step(d) + 1;
    return n;
  }
};

/// Checks a slice description (what the hardware refuses fails) and starts its walk.
NPUSIM_TWIN_FN inline SliceWalker slice_walker(const AscendC::SliceInfo* info, std::uint32_t dims,
                                               std::uint32_t elem_bytes) {
  if (dims == 0 || dims > AscendC::K_MAX_DIM)
    fail("DataCopy(SliceInfo)", "dimValue %u outside 1..%u", dims, AscendC::K_MAX_DIM);
  SliceWalker w{info, dims, info[0].burstLen * 32ull / elem_bytes, {}, {}};
  if (w.burst == 0) fail("DataCopy(SliceInfo)", "burstLen of dimension 0 is 0");
  std::uint64_t pitch = 1;
  for (std::uint32_t d = 0; d < dims; ++d) {
    const AscendC::SliceInfo& s = info[d];
    if (d > 0 && s.burstLen != 1)
      fail("DataCopy(SliceInfo)", "burstLen of dimension %u is %u, must be 1", d, s.burstLen);
    if (s.endIndex < s.startIndex || s.endIndex >= s.shapeValue)
      fail("DataCopy(SliceInfo)", "dimension %u: indices %u..%u outside its shape %u", d,
           s.startIndex, s.endIndex, s.shapeValue);
    w.index[d] = s.startIndex;
    w.pitch[d] = pitch;
    pitch *= s.shapeValue;
  }
  return w;
}

/// Copies the paired bursts of two slice descriptions (one end GM, the other local).
NPUSIM_TWIN_FN inline void slice_copy_body(BlockContext& ctx, const CopyEnds& e, DType dtype,
                                           std::uint32_t elem_bytes,
                                           const AscendC::SliceInfo* dst_info,
                                           const AscendC::SliceInfo* src_info, std::uint32_t dims) {
  SliceWalker dw = slice_walker(dst_info, dims, elem_bytes);
  SliceWalker sw = slice_walker(src_info, dims, elem_bytes);
  const std::uint64_t bursts = sw.count();
  if (dw.count() != bursts || dw.burst != sw.burst) {
    fail("DataCopy(SliceInfo)", "source has %llu bursts of %llu elements, destination %llu of %llu",
         static_cast<unsigned long long>(bursts), static_cast<unsigned long long>(sw.burst),
         static_cast<unsigned long long>(dw.count()), static_cast<unsigned long long>(dw.burst));
  }
  const std::uint64_t len = sw.burst * elem_bytes;
  const bool gm_src = e.src_mem == Mem::kGm;
  const Mem local = gm_src ? e.dst_mem : e.src_mem;
  const std::uint8_t* gm = (gm_src ? e.src : e.dst) + (gm_src ? sw : dw).offset() * elem_bytes;
  std::uint64_t gm_pitch = 0;
  for (std::uint64_t i = 0; i < bursts; ++i, dw.next(), sw.next()) {
    std::uint8_t* d = e.dst + dw.offset() * elem_bytes;
    const std::uint8_t* s = e.src + sw.offset() * elem_bytes;
    const std::uint8_t* l = gm_src ? d : s;
    const std::uint8_t* g = gm_src ? s : d;
    check_local(ctx, local, local_offset(ctx, l, local, "DataCopy(SliceInfo)"), len,
                "DataCopy(SliceInfo)");
    check_gm_range(ctx, g, len, !gm_src, "DataCopy(SliceInfo)");
    if (i == 1) gm_pitch = static_cast<std::uint64_t>(g - gm);
    if (ctx.functional) __builtin_memmove(d, s, len);
  }
  record_copy(ctx, Op::kCopy, dtype, e.src_mem, e.dst_mem, len * bursts,
              static_cast<std::uint32_t>(bursts), e.src_slot, e.dst_slot, gm, gm_pitch);
}

template <class D, class S>
void slice_copy(const D& dst, const S& src, const AscendC::SliceInfo* dst_info,
                const AscendC::SliceInfo* src_info, std::uint32_t dims) {
  using T = typename D::PrimType;
  auto& ctx = block();
  ScalarPause pause(ctx);
  slice_copy_body(ctx, ends(dst, src), dtype_of<T>(), sizeof(T), dst_info, src_info, dims);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                     const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
                     const std::uint32_t dimValue = 1) {
  npusim::ascendc::slice_copy(dst, src, dstSliceInfo, srcSliceInfo, dimValue);
}

template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                     const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
                     const std::uint32_t dimValue = 1) {
  npusim::ascendc::slice_copy(dst, src, dstSliceInfo, srcSliceInfo, dimValue);
}

}  // namespace AscendC
