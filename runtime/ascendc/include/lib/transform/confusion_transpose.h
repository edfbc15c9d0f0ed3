// SPDX-License-Identifier: Apache-2.0
// The ConfusionTranspose form of the Transpose high-level API of the Ascend C twin:
//   Transpose(dst, src[, sharedTmpBuffer], TransposeType::TRANSPOSE_NZ2ND_0213, tiling)
// src is [B, N, S, H/N] stored as one NZ matrix per (b, n): H/N / c0 column blocks, each S rows
// of c0 elements (c0 = 32 bytes); dst is the ND tensor [B, S, N, H/N] (axes 1 and 2 swapped).
// The other TransposeTypes fail the kernel naming the type.
// Timing (vector pipe): per (b, n, column block) Copy instructions moving its S blocks of 32
// bytes, 8 per repeat, to rows N * H/N elements apart (npusim/ascendc/high_level_copy.h);
// no temporary space is used. Host side: tiling/transform/transpose_tiling.h
// (GetTransposeMaxMinTmpSize, GetTransposeTilingInfo).
#pragma once

#include <cstdint>

#include "kernel_tiling/transform_tiling.h"
#include "npusim/ascendc/high_level_copy.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_select.h"

namespace npusim::ascendc {

template <class T>
void transpose_nz2nd_0213(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          const ConfusionTransposeTiling& t) {
  constexpr std::uint32_t c0 = 32 / sizeof(T);
  const std::uint32_t b = t.batch, n = t.heads, s = t.seqLen, hd = t.headDim;
  if (b == 0 || n == 0 || s == 0 || hd == 0 || hd % c0 != 0)
    fail("Transpose", "TRANSPOSE_NZ2ND_0213 needs a [B, N, S, H/N] tiling with H/N a multiple "
         "of %u (got [%u, %u, %u, %u]): call GetTransposeTilingInfo", c0, b, n, s, hd);
  const std::uint32_t col_blocks = hd / c0;
  for (std::uint32_t ib = 0; ib < b; ++ib) {
    for (std::uint32_t in = 0; in < n; ++in) {
      for (std::uint32_t hb = 0; hb < col_blocks; ++hb) {
        const std::uint32_t from = ((ib * n + in) * col_blocks + hb) * s * c0;
        const std::uint32_t to = (ib * s * n + in) * hd + hb * c0;
        ub_copy_block_rows(dst[to], src[from], s, 1, n * col_blocks, 1);
      }
    }
  }
}

template <class T>
void confusion_transpose(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         AscendC::TransposeType type, const ConfusionTransposeTiling& t) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Transpose: 16- and 32-bit types");
  if (type != AscendC::TransposeType::TRANSPOSE_NZ2ND_0213)
    fail("Transpose", "TransposeType %u is not supported by the simulator (TRANSPOSE_NZ2ND_0213 "
         "is)", static_cast<unsigned>(type));
  if (t.transposeTypeId != static_cast<std::uint32_t>(type))
    fail("Transpose", "the tiling was made for TransposeType %u, called with %u",
         t.transposeTypeId, static_cast<unsigned>(type));
  if (t.typeSize != sizeof(T))
    fail("Transpose", "the tiling was made for %u-byte elements, the tensors hold %u-byte ones",
         t.typeSize, static_cast<unsigned>(sizeof(T)));
  transpose_nz2nd_0213(dst, src, t);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <typename T>
inline void Transpose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                      const LocalTensor<std::uint8_t>& /*sharedTmpBuffer*/,
                      TransposeType transposeType, ConfusionTransposeTiling& tiling) {
  npusim::ascendc::confusion_transpose(dstTensor, srcTensor, transposeType, tiling);
}

template <typename T>
inline void Transpose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                      TransposeType transposeType, ConfusionTransposeTiling& tiling) {
  npusim::ascendc::confusion_transpose(dstTensor, srcTensor, transposeType, tiling);
}

template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                               TransposeType transposeType, ConfusionTransposeTiling& tiling) {
  Transpose(dstTensor, srcTensor, sharedTmpBuffer, transposeType, tiling);
}

template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               TransposeType transposeType, ConfusionTransposeTiling& tiling) {
  Transpose(dstTensor, srcTensor, transposeType, tiling);
}

}  // namespace AscendC
