/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's host tiling classes of the normalization APIs: optiling::LayerNormTiling,
 * LayerNormSeparateTiling, LayerNormGradTiling, LayerNormGradBetaTiling, RmsNormTiling,
 * DeepNormTiling, BEGIN_TILING_DATA_DEF classes generated from the device structures' field
 * lists (kernel_tiling/normalization_tiling.h), so TILING_DATA_FIELD_DEF_STRUCT nests them and
 * SaveToBuffer writes the device layout. npusim::tiling::norm::assign copies a device structure's
 * fields into its host class (the Get*TilingInfo functions compute the device structure first).
 */
#ifndef NPUSIM_TILING_NORMALIZATION_NORM_TILING_DATA_H_
#define NPUSIM_TILING_NORMALIZATION_NORM_TILING_DATA_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tensor_shape.h"
#include "tiling/tiling_data_def.h"

#define NPUSIM_NORM_TILING_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
#define NPUSIM_NORM_TILING_CLASS(cls, fields) \
  BEGIN_TILING_DATA_DEF(cls)                  \
  fields(NPUSIM_NORM_TILING_FIELD) END_TILING_DATA_DEF;

namespace optiling {
NPUSIM_NORM_TILING_CLASS(LayerNormTiling, NPUSIM_LAYERNORM_TILING_FIELDS)
NPUSIM_NORM_TILING_CLASS(LayerNormSeparateTiling, NPUSIM_LAYERNORM_SEPARATE_TILING_FIELDS)
NPUSIM_NORM_TILING_CLASS(LayerNormGradTiling, NPUSIM_LAYERNORM_GRAD_TILING_FIELDS)
NPUSIM_NORM_TILING_CLASS(LayerNormGradBetaTiling, NPUSIM_LAYERNORM_GRAD_BETA_TILING_FIELDS)
NPUSIM_NORM_TILING_CLASS(RmsNormTiling, NPUSIM_RMSNORM_TILING_FIELDS)
NPUSIM_NORM_TILING_CLASS(DeepNormTiling, NPUSIM_DEEPNORM_TILING_FIELDS)
}  // namespace optiling

#undef NPUSIM_NORM_TILING_CLASS
#undef NPUSIM_NORM_TILING_FIELD

namespace npusim::tiling::norm {

#define NPUSIM_NORM_COPY_FIELD(type, name) dst.set_##name(src.name);
#define NPUSIM_NORM_ASSIGN(cls, fields) \
  inline void assign(optiling::cls& dst, const ::cls& src) { fields(NPUSIM_NORM_COPY_FIELD) }
NPUSIM_NORM_ASSIGN(LayerNormTiling, NPUSIM_LAYERNORM_TILING_FIELDS)
NPUSIM_NORM_ASSIGN(LayerNormSeparateTiling, NPUSIM_LAYERNORM_SEPARATE_TILING_FIELDS)
NPUSIM_NORM_ASSIGN(LayerNormGradTiling, NPUSIM_LAYERNORM_GRAD_TILING_FIELDS)
NPUSIM_NORM_ASSIGN(LayerNormGradBetaTiling, NPUSIM_LAYERNORM_GRAD_BETA_TILING_FIELDS)
NPUSIM_NORM_ASSIGN(RmsNormTiling, NPUSIM_RMSNORM_TILING_FIELDS)
NPUSIM_NORM_ASSIGN(DeepNormTiling, NPUSIM_DEEPNORM_TILING_FIELDS)
#undef NPUSIM_NORM_ASSIGN
#undef NPUSIM_NORM_COPY_FIELD

/// The normalization APIs' shapes: rows of a pitch (H, or R rounded up to 8 floats) of which
/// `valid` elements count.
struct NormShape {
  uint32_t rows = 0;
  uint32_t pitch = 0;
  uint32_t valid = 0;
  uint32_t b = 0, s = 0;
};

inline uint32_t dim32(const ge::Shape& shape, size_t i) {
  const int64_t d = shape.GetDim(i);
  return d > 0 && d <= int64_t{0xFFFFFFFF} ? static_cast<uint32_t>(d) : 0u;
}

/// [B, S, H] (a fourth dimension, when given, is the original H).
inline NormShape bsh_shape(const ge::Shape& shape, const ge::Shape* origin = nullptr) {
  NormShape n;
  n.b = dim32(shape, 0);
  n.s = dim32(shape, 1);
  n.pitch = dim32(shape, 2);
  n.rows = n.b * n.s;
  n.valid = shape.GetDimNum() > 3 ? dim32(shape, 3) : n.pitch;
  if (origin != nullptr && origin->GetDimNum() > 2) n.valid = dim32(*origin, 2);
  if (n.valid == 0 || n.valid > n.pitch) n.valid = n.pitch;
  return n;
}

/// [A, R]: R padded to 8 floats.
inline NormShape ar_shape(const ge::Shape& shape) {
  NormShape n;
  n.rows = dim32(shape, 0);
  n.valid = dim32(shape, 1);
  n.pitch = (n.valid + 7) / 8 * 8;
  return n;
}

inline uint32_t align32(uint64_t bytes) { return static_cast<uint32_t>((bytes + 31) / 32 * 32); }

/// Rows a pass holds with `row_bytes` per row plus `fixed` bytes, at most `rows`.
inline uint32_t rows_fitting(uint32_t stack_bytes, uint32_t row_bytes, uint32_t fixed,
                             uint32_t rows) {
  if (row_bytes == 0 || stack_bytes <= fixed) return 0;
  const uint32_t fit = (stack_bytes - fixed) / row_bytes;
  return fit < rows ? fit : rows;
}

}  // namespace npusim::tiling::norm

#endif  // NPUSIM_TILING_NORMALIZATION_NORM_TILING_DATA_H_
