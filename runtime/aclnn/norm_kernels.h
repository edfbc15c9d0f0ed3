// SPDX-License-Identifier: Apache-2.0
// Ascend C kernels of the "norm" operator family (norm.cpp, reduce.cpp): row softmax, layer /
// RMS normalisation, batch-norm inference, reductions (sum / max / min, scaled for mean) and the
// element type conversions they need. Plain declarations and tiling structs (no twin headers), so
// host files include this without kernel_operator.h.
//
// Every kernel runs on the vector cores: the work (rows, planes, output columns) is split evenly
// over the launch's blocks (block b takes units [b * per_block, (b + 1) * per_block)); each block
// moves UB tiles with DataCopyPad (any row length, rows padded to 32 bytes in UB) and computes in
// fp32 (FLOAT16 / BFLOAT16 tiles are cast up after the copy-in and down before the copy-out).
// A row that fits UB is one tile (several rows per tile when they fit), computed with whole-tile
// instructions (row statistics by Sum / ReduceMax, broadcast back with Broadcast); a longer row
// is walked in column chunks, once per pass (statistics, then the normalised output).
#pragma once

#include <cstdint>

namespace npusim::aclnn::norm {

/// Element types the kernels take.
enum class Dt : std::uint8_t { kF32, kF16, kBf16 };

/// out[i] = (D) in[i] for i < count (a 1-D conversion, fp32 <-> fp16 / bf16).
struct CastTiling {
  Dt src = Dt::kF32, dst = Dt::kF32;
  std::int64_t count = 0;
  std::int64_t per_block = 0;  // elements per block
  std::uint32_t tile = 0;      // elements per UB tile
};
void cast_kernel(std::uint8_t* src, std::uint8_t* dst, const CastTiling& t);

/// Rows of `len` contiguous elements (the last axis), `rows` of them.
struct RowTiling {
  Dt dt = Dt::kF32;
  std::int64_t rows = 0, len = 0;
  std::int64_t per_block = 0;   // rows per block
  std::uint32_t tile_rows = 1;  // rows per UB tile (1 when chunked)
  std::uint32_t chunk = 0;      // columns per tile (== len when a row fits UB)
  std::uint32_t pitch = 0;      // padded UB row length in elements (chunk rounded to 32 bytes)
  // Normalisation parameters.
  float eps = 0;
  bool rms = false;  // RmsNorm (no mean) instead of LayerNorm
  bool has_weight = false, has_bias = false;
  // Softmax over a middle axis: x viewed as [outer, len, inner] with inner > 1; a unit is
  // (o, column chunk of `chunk` columns), tile_rows rows of the axis per tile; per_block units.
  std::int64_t outer = 0, inner = 1, units = 0;
};

/// y = softmax(x) over each row (max-subtracted, fp32 inside), or over the middle axis of
/// [outer, len, inner] column-wise (inner > 1: running max and sum vectors, no scalar work).
void softmax_kernel(std::uint8_t* x, std::uint8_t* y, const RowTiling& t);
/// LayerNorm / RmsNorm of each row: y = (x - mean) * rstd * w + b (mean = 0 for RMS).
/// w, b: fp32 rows of len (nullptr when absent); mean, rstd: fp32 per row (nullptr: not written).
void norm_kernel(std::uint8_t* x, const std::uint8_t* w, const std::uint8_t* b, std::uint8_t* y,
                 std::uint8_t* mean, std::uint8_t* rstd, const RowTiling& t);
/// AddRmsNorm: x = x1 + x2 (fp32; x_out = x in x1's type), then RmsNorm of x with gamma (fp32).
void add_rms_norm_kernel(std::uint8_t* x1, const std::uint8_t* x2, const std::uint8_t* gamma,
                         std::uint8_t* y, std::uint8_t* rstd, std::uint8_t* x_out,
                         const RowTiling& t);
/// Batch norm apply: row r (one (n, c) plane) y = x * scale[r] + shift[r] (scale, shift: fp32,
/// one value per row).
void affine_rows_kernel(std::uint8_t* x, const std::uint8_t* scale, const std::uint8_t* shift,
                        std::uint8_t* y, const RowTiling& t);

/// Batch norm statistics (one block): scale = w / sqrt(var + eps), shift = b - mean * scale,
/// invstd = 1 / sqrt(var + eps); fp32 per channel (w / b nullptr: 1 / 0; save_* nullptr: not
/// written); scale and shift are written `batch` times (one value per (n, c) row).
struct ChannelTiling {
  std::int64_t channels = 0;
  std::int64_t batch = 1;
  std::uint32_t tile = 0;  // channels per UB tile
  float eps = 0;
};
void bn_stats_kernel(const std::uint8_t* w, const std::uint8_t* b, const std::uint8_t* mean,
                     const std::uint8_t* var, std::uint8_t* scale, std::uint8_t* shift,
                     std::uint8_t* save_mean, std::uint8_t* save_invstd, const ChannelTiling& t);

/// y[o, i] = scale * reduce_{r < len} x[o, r, i] (sum, max or min), y fp32; x of type dt.
enum class ReduceKind : std::uint8_t { kSum, kMax, kMin };
struct ReduceTiling {
  Dt dt = Dt::kF32;
  ReduceKind kind = ReduceKind::kSum;
  float scale = 1;
  std::int64_t outer = 0, len = 0, inner = 1;
  std::int64_t units = 0, per_block = 0;  // work units (see reduce_kernel) and units per block
  // inner == 1: a unit is a row; tile_rows rows of `chunk` columns per tile.
  // inner > 1: a unit is (o, column chunk of `chunk` columns); tile_rows rows of x per tile.
  std::uint32_t tile_rows = 1, chunk = 0, pitch = 0;
};
void reduce_kernel(std::uint8_t* x, std::uint8_t* y, const ReduceTiling& t);

}  // namespace npusim::aclnn::norm
