// SPDX-License-Identifier: Apache-2.0
// Ascend C kernels of the shape family (shape_kernels.cpp) and their tiling structs, filled by the
// host side (shape.cpp). All run on vector cores (Core::kVector), one tile range per block.
//
// Permute: the host reduces any permutation (rank <= 8) of a (possibly strided) input to a batch
// of 2-D planes: a "row" input dimension and the input dimension of stride 1 ("col"). Tiles of rows
// x cols move GM -> UB with one strided DataCopyPad; when the output keeps col innermost they go
// straight back out with a strided DataCopyPad, otherwise the tile is transposed in UB by one
// Gather (offset table built once per block) and written out column by column.
//
// Embedding: indices are read in chunks (DataCopyPad to UB, scalar reads); each weight row moves
// GM -> UB by DMA, groups of rows go back to GM in one DataCopyPad. An index outside
// [0, num_weights) raises a device trap (the stream fails with the vector/AI Core exception);
// in timing-only mode (BlockContext::functional false) such an index reads row 0 instead.
//
// RotaryPositionEmbedding: rows of D elements; cos/sin rows follow by broadcasting (contiguous
// runs of cos rows load with one DataCopyPad); the rotated copy of x comes from one Gather per
// tile with a sign vector; computed in float (fp16/bf16 cast in and out).
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace npusim::aclnn::kernels {

constexpr int kMaxRank = 8;

struct PermuteTiling {
  std::uint32_t elem = 4;  // bytes per element (1, 2, 4, 8)
  std::int32_t batch_rank = 0;
  std::int64_t batch_dims[kMaxRank] = {};
  std::int64_t batch_in_stride[kMaxRank] = {};  // elements
  std::int64_t batch_out_stride[kMaxRank] = {};
  std::int64_t rows = 1, cols = 1;  // the plane
  std::int64_t in_row_stride = 0;   // input stride of the row dimension (elements)
  std::int64_t out_row_stride = 0, out_col_stride = 1;
  bool transpose = false;  // out_row_stride == 1: rows become innermost
  std::int64_t tile_rows = 1, tile_cols = 1;
  std::int64_t tiles_r = 1, tiles_c = 1;
  std::int64_t total_tiles = 1, tiles_per_block = 1;
};

struct EmbeddingTiling {
  std::uint32_t elem = 4;         // bytes per weight element
  std::uint32_t index_elem = 4;   // 4 (INT32) or 8 (INT64)
  std::int64_t num = 0, dim = 0;  // weight [num, dim]
  std::int64_t count = 0;         // indices
  std::int64_t per_block = 0;
  std::int64_t tile_dim = 0;  // columns per pass (dim tiles when a row does not fit)
  std::int64_t group = 1;     // rows per output DataCopyPad
};

struct RopeTiling {
  std::int32_t dtype = 0;                 // 0 float, 1 half, 2 bfloat16
  std::int32_t mode = 0;                  // 0 half (rotate_half), 1 interleave
  std::int64_t d = 0;                     // last dimension
  std::int64_t rows = 0;                  // x rows (numel / d)
  std::int32_t lead_rank = 0;             // x's leading dimensions (all but the last)
  std::int64_t lead_dims[kMaxRank] = {};  // x's leading sizes
  std::int64_t cs_stride[kMaxRank] = {};  // cos/sin row stride per leading dim (0: broadcast)
  std::int64_t per_block = 0;
  std::int64_t tile_rows = 1;
};

void permute_kernel_1(std::uint8_t* x, std::uint8_t* y, const PermuteTiling& t);
void permute_kernel_2(std::uint8_t* x, std::uint8_t* y, const PermuteTiling& t);
void permute_kernel_4(std::uint8_t* x, std::uint8_t* y, const PermuteTiling& t);
void permute_kernel_8(std::uint8_t* x, std::uint8_t* y, const PermuteTiling& t);

void embedding_kernel(std::uint8_t* weight, std::uint8_t* indices, std::uint8_t* out,
                      const EmbeddingTiling& t);

void rope_kernel(std::uint8_t* x, std::uint8_t* cos, std::uint8_t* sin, std::uint8_t* out,
                 const RopeTiling& t);

/// ApplyRotaryPosEmb: query rows then key rows of this block, each rotated in place.
void apply_rope_kernel(std::uint8_t* q, std::uint8_t* k, std::uint8_t* cos, std::uint8_t* sin,
                       const RopeTiling& tq, const RopeTiling& tk);

}  // namespace npusim::aclnn::kernels
