/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's device tiling structures of the tensor-transform and sort high-level APIs, filled on
 * the host by tiling/transform/{pad,transpose}_tiling.h and tiling/sort/topk_tiling.h (whose
 * BEGIN_TILING_DATA_DEF classes are generated from the same field lists, so SaveToBuffer writes
 * this layout):
 *   AscendC::tiling::PadTiling     Pad (lib/transform/pad.h)
 *   AscendC::tiling::UnPadTiling   UnPad (lib/transform/pad.h)
 *   ConfusionTransposeTiling       Transpose with a TransposeType
 *                                  (lib/transform/confusion_transpose.h)
 *   TopkTiling                     TopK (lib/sort/topk.h): 33 words, as CANN's
 * All fields are uint32_t.
 */
#ifndef NPUSIM_KERNEL_TILING_TRANSFORM_TILING_H_
#define NPUSIM_KERNEL_TILING_TRANSFORM_TILING_H_

#include <cstdint>

#include "kernel_tiling/ascendc_types.h"

/// Pad: the source rows (srcHeight x srcWidth, of which srcOriWidth valid), the destination
/// row pitch (dstWidth: srcWidth rounded up to 32 bytes) and the element size.
#define NPUSIM_PAD_TILING_FIELDS(X) \
  X(srcHeight)                      \
  X(srcWidth)                       \
  X(srcOriWidth)                    \
  X(dstWidth)                       \
  X(typeSize)                       \
  X(tmpBufferSize)

/// UnPad: the source rows (srcHeight x srcWidth, srcWidth 32-byte aligned) and the element size.
#define NPUSIM_UNPAD_TILING_FIELDS(X) \
  X(srcHeight)                        \
  X(srcWidth)                         \
  X(typeSize)                         \
  X(tmpBufferSize)

/// ConfusionTranspose: the [B, N, S, H/N] shape, the element size and the TransposeType id.
#define NPUSIM_CONFUSION_TRANSPOSE_TILING_FIELDS(X) \
  X(batch)                                          \
  X(heads)                                          \
  X(seqLen)                                         \
  X(headDim)                                        \
  X(typeSize)                                       \
  X(transposeTypeId)                                \
  X(tmpBufferSize)

/// TopK: the rows (outter x inner, inner padded to 32 elements: innerDataSize), k, the output
/// row pitches (kAlignValue: k rounded up to 32 bytes of the values; kAlignIndex: to 8 indices),
/// the temporary buffer's layout (byte offsets) and the mode.
#define NPUSIM_TOPK_TILING_FIELDS(X) \
  X(tmpLocalSize)                    \
  X(outter)                          \
  X(inner)                           \
  X(innerDataSize)                   \
  X(k)                               \
  X(kAlignValue)                     \
  X(kAlignIndex)                     \
  X(sortRepeat)                      \
  X(typeSize)                        \
  X(isLargest)                       \
  X(isInitIndex)                     \
  X(topkMode)                        \
  X(scoreOffset)                     \
  X(indexOffset)                     \
  X(sortOffset)                      \
  X(mergeOffset)                     \
  X(extractValueOffset)              \
  X(extractIndexOffset)
#define NPUSIM_TOPK_TILING_RESERVED 15  // words after the named ones (33 in all)

#define NPUSIM_TILING_U32_MEMBER(name) std::uint32_t name = 0;
/// The host classes' field (tiling/tiling_data_def.h), for the same lists.
#define NPUSIM_TILING_U32_FIELD(name) TILING_DATA_FIELD_DEF(uint32_t, name);

struct ConfusionTransposeTiling {
  NPUSIM_CONFUSION_TRANSPOSE_TILING_FIELDS(NPUSIM_TILING_U32_MEMBER)
};

struct TopkTiling {
  NPUSIM_TOPK_TILING_FIELDS(NPUSIM_TILING_U32_MEMBER)
  std::uint32_t reserved[NPUSIM_TOPK_TILING_RESERVED] = {};
};
static_assert(sizeof(TopkTiling) == 33 * 4, "TopkTiling is 33 words, as CANN's");

namespace AscendC {

/// TopK's two algorithms (the twin runs the same instructions for both): TOPK_NORMAL, one
/// index row shared by every row; TOPK_NSMALL, rows of 32 with an index row each.
enum class TopKMode : std::int32_t { TOPK_NORMAL = 0, TOPK_NSMALL = 1 };

struct TransDataConfig {
  DataFormat srcFormat;
  DataFormat dstFormat;
};

namespace tiling {
struct PadTiling {
  NPUSIM_PAD_TILING_FIELDS(NPUSIM_TILING_U32_MEMBER)
};
struct UnPadTiling {
  NPUSIM_UNPAD_TILING_FIELDS(NPUSIM_TILING_U32_MEMBER)
};
using ::ConfusionTransposeTiling;
using ::TopkTiling;
}  // namespace tiling
}  // namespace AscendC

#endif  // NPUSIM_KERNEL_TILING_TRANSFORM_TILING_H_
