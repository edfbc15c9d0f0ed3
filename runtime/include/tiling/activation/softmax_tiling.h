/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling functions of the SoftMax family (lib/activation/softmax.h,
 * softmax_flash.h, softmax_grad.h, log_softmax.h): the temporary space range and the
 * SoftMaxTiling / LogSoftMaxTiling a kernel passes along.
 *
 * The twin's APIs work on whole rows of the [m, k] input (m: the product of the leading
 * dimensions, k: the last), a pass of r rows at a time, with float intermediates in the
 * temporary buffer: r x k floats per row buffer and r-float arrays padded to 32 bytes. SoftMax,
 * SimpleSoftMax, LogSoftMax, SoftmaxFlashV2: one row buffer (two for half: the source in
 * float), four arrays; SoftmaxGrad(Front): one (three for half), four arrays; SoftmaxFlashV3:
 * two row buffers, 156 arrays. maxValue is a pass of every row, minValue one of min(m, 8) rows
 * (SoftmaxFlashV3: one row). The tiling functions record the shape and, for the
 * given workspace, the rows per pass (splitM), the full passes (rangeM) and the tail (tailM).
 * isReuseSource, isBasicBlock and isFlashOutputBrc do not change the sizes.
 */
#ifndef NPUSIM_TILING_ACTIVATION_SOFTMAX_TILING_H_
#define NPUSIM_TILING_ACTIVATION_SOFTMAX_TILING_H_

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/softmax_tiling.h"
#include "tiling/tensor_shape.h"
#include "tiling/tiling_data_def.h"

namespace optiling {

#define NPUSIM_SOFTMAX_TILING_DEF(f) TILING_DATA_FIELD_DEF(uint32_t, f);
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
NPUSIM_SOFTMAX_TILING_FIELDS(NPUSIM_SOFTMAX_TILING_DEF)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
NPUSIM_SOFTMAX_TILING_FIELDS(NPUSIM_SOFTMAX_TILING_DEF)
END_TILING_DATA_DEF;
#undef NPUSIM_SOFTMAX_TILING_DEF

}  // namespace optiling

namespace npusim::tiling {

/// [m, k] of a SoftMax-family shape: k the last dimension, m the product of the others.
struct SoftmaxRows {
  uint32_t m = 0;
  uint32_t k = 0;
};

inline SoftmaxRows softmax_rows(const ge::Shape& shape) {
  SoftmaxRows r;
  const size_t dims = shape.GetDimNum();
  if (dims == 0) return r;
  int64_t m = 1;
  for (size_t i = 0; i + 1 < dims; ++i) m *= shape.GetDim(i);
  const int64_t k = shape.GetDim(dims - 1);
  if (m <= 0 || k <= 0 || m > int64_t{0xFFFFFFFF} || k > int64_t{0xFFFFFFFF}) return r;
  r.m = static_cast<uint32_t>(m);
  r.k = static_cast<uint32_t>(k);
  return r;
}

/// What the kernel side keeps (lib/activation/softmax_common.h): `float_rows` float row buffers
/// and `stats` per-row float arrays padded to 32 bytes.
struct SoftmaxScratchShape {
  uint32_t float_rows = 1;
  uint32_t stats = 4;
};

/// Temporary bytes of a pass of r rows of k elements, rounded up to 32 bytes.
inline uint32_t softmax_pass_bytes(uint32_t r, uint32_t k, SoftmaxScratchShape s) {
  const uint64_t bytes = uint64_t{r} * k * 4 * s.float_rows + uint64_t{s.stats} * ((r + 7) / 8 * 8) * 4;
  return static_cast<uint32_t>((bytes + 31) / 32 * 32);
}

/// maxValue (all rows in one pass) or minValue (min(m, min_rows) rows).
inline uint32_t softmax_tmp(const ge::Shape& shape, SoftmaxScratchShape s, bool max_size,
                            uint32_t min_rows = 8) {
  const SoftmaxRows r = softmax_rows(shape);
  const uint32_t rows = max_size || r.m < min_rows ? r.m : min_rows;
  return softmax_pass_bytes(rows, r.k, s);
}

/// Rows per pass with `workspace` bytes (0 when not even one row fits).
inline uint32_t softmax_split_rows(uint32_t m, uint32_t k, SoftmaxScratchShape s,
                                   uint32_t workspace) {
  uint32_t r = m;
  while (r > 0 && softmax_pass_bytes(r, k, s) > workspace) --r;
  return r;
}

/// The scratch of SoftMax, SimpleSoftMax, LogSoftMax and SoftmaxFlashV2 for an element size.
inline SoftmaxScratchShape softmax_scratch(uint32_t type_size) {
  return {type_size == 2 ? 2u : 1u, 4u};
}
/// Of SoftmaxGrad and SoftmaxGradFront.
inline SoftmaxScratchShape softmax_grad_scratch(uint32_t type_size) {
  return {type_size == 2 ? 3u : 1u, 4u};
}
/// Of SoftmaxFlashV3: two float row buffers, 156 per-row arrays; its minimum is one row.
inline SoftmaxScratchShape softmax_flash_v3_scratch() { return {2u, 156u}; }

template <class Tiling>
void fill_softmax_tiling(const ge::Shape& shape, uint32_t type_size, uint32_t workspace,
                         SoftmaxScratchShape scratch, Tiling& t) {
  const SoftmaxRows r = softmax_rows(shape);
  const uint32_t per_blk = type_size == 2 ? 16u : 8u;
  const uint32_t split = softmax_split_rows(r.m, r.k, scratch, workspace);
  t.set_srcM(r.m);
  t.set_srcK(r.k);
  t.set_srcSize(r.m * r.k);
  t.set_outMaxM(r.m);
  t.set_outMaxK(per_blk);
  t.set_outMaxSize(r.m * per_blk);
  t.set_splitM(split);
  t.set_splitK(r.k);
  t.set_splitSize(split * r.k);
  t.set_reduceM(split);
  t.set_reduceK(per_blk);
  t.set_reduceSize(split * per_blk);
  t.set_rangeM(split == 0 ? 0 : r.m / split);
  const uint32_t tail = split == 0 ? 0 : r.m % split;
  t.set_tailM(tail);
  t.set_tailSplitSize(tail * r.k);
  t.set_tailReduceSize(tail * per_blk);
}

/// The device struct through the host class's setters.
template <class Plain>
struct PlainSoftmaxTiling {
  Plain& p;
#define NPUSIM_SOFTMAX_PLAIN_SET(f) \
  void set_##f(uint32_t v) { p.f = v; }
  NPUSIM_SOFTMAX_TILING_FIELDS(NPUSIM_SOFTMAX_PLAIN_SET)
#undef NPUSIM_SOFTMAX_PLAIN_SET
};

/// Fills the host class (optiling::...) or the device struct (AscendC::tiling::...).
template <class Tiling>
void fill_softmax_any(const ge::Shape& shape, uint32_t type_size, uint32_t workspace,
                      SoftmaxScratchShape scratch, Tiling& t) {
  if constexpr (std::is_base_of_v<optiling::TilingDef, Tiling>) {
    fill_softmax_tiling(shape, type_size, workspace, scratch, t);
  } else {
    PlainSoftmaxTiling<Tiling> w{t};
    fill_softmax_tiling(shape, type_size, workspace, scratch, w);
  }
}

}  // namespace npusim::tiling

namespace AscendC {

// ---- SoftMax / SimpleSoftMax ------------------------------------------------------------------

inline uint32_t GetSoftMaxMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                     const bool /*isReuseSource*/) {
  using namespace npusim::tiling;
  return softmax_tmp(srcShape, softmax_scratch(dataTypeSize), true);
}
inline uint32_t GetSoftMaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                     const bool /*isReuseSource*/) {
  using namespace npusim::tiling;
  return softmax_tmp(srcShape, softmax_scratch(dataTypeSize), false);
}
inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& tiling) {
  using namespace npusim::tiling;
  fill_softmax_any(srcShape, dataTypeSize, localWorkSpaceSize,
                      softmax_scratch(dataTypeSize),
                      tiling);
}
inline void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& tiling) {
  using namespace npusim::tiling;
  fill_softmax_any(srcShape, dataTypeSize, localWorkSpaceSize,
                     softmax_scratch(dataTypeSize),
                     tiling);
}
/// Whether the tiling's passes are basic blocks (rows a multiple of 8, k of 64 elements, below
/// 2048): the twin computes them the same way either way.
inline bool IsBasicBlockInSoftMax(const optiling::SoftMaxTiling& tiling,
                                  const uint32_t dataTypeSize = 2) {
  const uint32_t per_repeat = dataTypeSize == 0 ? 0 : 256 / dataTypeSize;
  return per_repeat != 0 && tiling.get_splitM() % 8 == 0 && tiling.get_srcK() % per_repeat == 0 &&
         tiling.get_srcK() < 2048;
}

// ---- SoftmaxFlashV2 ---------------------------------------------------------------------------

inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const TensorShape& srcShape,
                                            const uint32_t dataTypeSize1,
                                            const uint32_t /*dataTypeSize2*/,
                                            const bool /*isUpdate*/,
                                            const bool /*isBasicBlock*/ = false,
                                            const bool /*isFlashOutputBrc*/ = false) {
  using namespace npusim::tiling;
  return softmax_tmp(srcShape, softmax_scratch(dataTypeSize1), true);
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const TensorShape& srcShape,
                                            const uint32_t dataTypeSize1,
                                            const uint32_t /*dataTypeSize2*/,
                                            const bool /*isUpdate*/,
                                            const bool /*isBasicBlock*/ = false,
                                            const bool /*isFlashOutputBrc*/ = false) {
  using namespace npusim::tiling;
  return softmax_tmp(srcShape, softmax_scratch(dataTypeSize1), false);
}
inline void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t /*dataTypeSize2*/,
                                     const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& tiling, const bool /*isUpdate*/,
                                     const bool /*isBasicBlock*/ = false,
                                     const bool /*isFlashOutputBrc*/ = false) {
  using namespace npusim::tiling;
  fill_softmax_any(srcShape, dataTypeSize1, localWorkSpaceSize,
                   softmax_scratch(dataTypeSize1),
                   tiling);
}
inline void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t /*dataTypeSize2*/,
                                     const uint32_t localWorkSpaceSize,
                                     tiling::SoftMaxTiling& tiling, const bool /*isUpdate*/,
                                     const bool /*isBasicBlock*/ = false,
                                     const bool /*isFlashOutputBrc*/ = false) {
  using namespace npusim::tiling;
  fill_softmax_any(srcShape, dataTypeSize1, localWorkSpaceSize,
                   softmax_scratch(dataTypeSize1),
                   tiling);
}

// ---- SoftmaxFlashV3 ---------------------------------------------------------------------------

inline void GetSoftMaxFlashV3MaxMinTmpSize(const TensorShape& srcShape,
                                           const uint32_t /*dataTypeSize1*/,
                                           const uint32_t /*dataTypeSize2*/, uint32_t& maxValue,
                                           uint32_t& minValue, const bool /*isUpdate*/,
                                           const bool /*isBasicBlock*/ = false) {
  using namespace npusim::tiling;
  maxValue = softmax_tmp(srcShape, softmax_flash_v3_scratch(), true);
  minValue = softmax_tmp(srcShape, softmax_flash_v3_scratch(), false, 1);
}
inline void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t /*dataTypeSize2*/,
                                     const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& tiling, const bool /*isUpdate*/,
                                     const bool /*isBasicBlock*/ = false) {
  using namespace npusim::tiling;
  fill_softmax_any(srcShape, dataTypeSize1, localWorkSpaceSize,
                      softmax_flash_v3_scratch(), tiling);
}
inline void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t /*dataTypeSize2*/,
                                     const uint32_t localWorkSpaceSize,
                                     tiling::SoftMaxTiling& tiling, const bool /*isUpdate*/,
                                     const bool /*isBasicBlock*/ = false) {
  using namespace npusim::tiling;
  fill_softmax_any(srcShape, dataTypeSize1, localWorkSpaceSize,
                     softmax_flash_v3_scratch(), tiling);
}

// ---- SoftmaxGrad / SoftmaxGradFront -----------------------------------------------------------

inline uint32_t GetSoftMaxGradMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                         const bool /*isFront*/, const bool /*isReuseSource*/) {
  using namespace npusim::tiling;
  return softmax_tmp(srcShape, softmax_grad_scratch(dataTypeSize), true);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                         const bool /*isFront*/, const bool /*isReuseSource*/) {
  using namespace npusim::tiling;
  return softmax_tmp(srcShape, softmax_grad_scratch(dataTypeSize), false);
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize,
                                  optiling::SoftMaxTiling& tiling, const bool /*isFront*/ = false) {
  using namespace npusim::tiling;
  fill_softmax_any(
      srcShape, dataTypeSize, localWorkSpaceSize,
      softmax_grad_scratch(dataTypeSize), tiling);
}
inline void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& tiling,
                                  const bool /*isFront*/ = false) {
  using namespace npusim::tiling;
  fill_softmax_any(
      srcShape, dataTypeSize, localWorkSpaceSize,
      softmax_grad_scratch(dataTypeSize), tiling);
}

// ---- LogSoftMax -------------------------------------------------------------------------------

inline uint32_t GetLogSoftMaxMaxTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize,
                                 optiling::LogSoftMaxTiling& tiling) {
  using namespace npusim::tiling;
  fill_softmax_any(srcShape, dataTypeSize, localWorkSpaceSize,
                      softmax_scratch(dataTypeSize),
                      tiling);
}
inline void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize,
                                 tiling::LogSoftMaxTiling& tiling) {
  using namespace npusim::tiling;
  fill_softmax_any(srcShape, dataTypeSize, localWorkSpaceSize,
                     softmax_scratch(dataTypeSize),
                     tiling);
}

}  // namespace AscendC

#endif  // NPUSIM_TILING_ACTIVATION_SOFTMAX_TILING_H_
