// SPDX-License-Identifier: Apache-2.0
// Host-side planning shared by the norm family (norm.cpp, reduce.cpp): element types, UB tiling
// of rows, workspace layout and the fp32 conversion launches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/aclnn/norm_kernels.h"
#include "runtime/aclnn/op_api.h"

namespace npusim::aclnn::norm {

inline Dt dt_of(int dtype) {
  return dtype == ACL_FLOAT16 ? Dt::kF16 : dtype == ACL_BF16 ? Dt::kBf16 : Dt::kF32;
}
inline std::uint32_t dt_size(Dt d) { return d == Dt::kF32 ? 4u : 2u; }

inline std::int64_t product(const std::vector<std::int64_t>& d, std::size_t from, std::size_t to) {
  std::int64_t n = 1;
  for (std::size_t i = from; i < to && i < d.size(); ++i) n *= d[i];
  return n;
}

inline std::uint64_t round_up64(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

/// Workspace carving (512-byte aligned pieces).
class Workspace {
 public:
  std::uint64_t take(std::uint64_t bytes) {
    const std::uint64_t at = size_;
    size_ = round_up64(size_ + bytes, 512);
    return at;
  }
  std::uint64_t size() const { return size_; }

 private:
  std::uint64_t size_ = 0;
};

/// What a row kernel keeps in UB besides its in / out tiles.
struct RowNeeds {
  std::uint32_t f32_rows = 0;          // fp32 buffers one padded row long, always
  std::uint32_t chunk_f32_rows = 0;    // more of them when rows are chunked
  bool has_out = true;                 // double-buffered output tiles of the input type
  std::uint32_t per_row_bytes = 0;     // per-row statistics
  std::uint32_t f32_tile_bufs = 0;     // fp32 buffers as large as a tile (whole-tile ops; rows fit)
  std::uint32_t extra_elem_bytes = 0;  // more bytes per tile element (both modes)
};

constexpr std::uint64_t kUbReserve = 4096;  // scratch and small buffers
constexpr std::uint32_t kMaxTileRows = 1024;

/// Rows of `len` elements split over the vector cores; as many rows per tile as fit UB, or
/// column chunks when one row does not.
inline RowTiling plan_rows(const Plan& p, Dt dt, std::int64_t rows, std::int64_t len,
                           const RowNeeds& n) {
  RowTiling t;
  t.dt = dt;
  t.rows = rows;
  t.len = len;
  const Split s = split_even(rows, p.vector_cores(), 1);
  t.per_block = s.per_block;
  const std::uint64_t ub = p.ub_bytes() > 2 * kUbReserve ? p.ub_bytes() - kUbReserve : kUbReserve;
  const std::uint32_t sz = dt_size(dt), align = 32 / sz;
  const std::uint64_t elem =
      2ull * sz + (n.has_out ? 2ull * sz : 0) + (sz == 4 ? 0 : 4) + n.extra_elem_bytes;
  const std::uint64_t pitch = round_up64(static_cast<std::uint64_t>(len), align);
  const std::uint64_t fixed = pitch * 4 * n.f32_rows;
  const std::uint64_t per_row = pitch * (elem + 4ull * n.f32_tile_bufs) + n.per_row_bytes;
  if (fixed + per_row <= ub) {
    std::uint64_t k = (ub - fixed) / per_row;
    k = std::min<std::uint64_t>(
        {k, static_cast<std::uint64_t>(std::max<std::int64_t>(s.per_block, 1)), kMaxTileRows});
    t.tile_rows = static_cast<std::uint32_t>(std::max<std::uint64_t>(k, 1));
    t.chunk = static_cast<std::uint32_t>(len);
    t.pitch = static_cast<std::uint32_t>(pitch);
    return t;
  }
  const std::uint64_t per_elem = elem + 4ull * (n.f32_rows + n.chunk_f32_rows);
  std::uint64_t c = (ub - n.per_row_bytes) / per_elem / 64 * 64;
  // A chunk shorter than the row: the kernels take chunk >= len for "the row fits" (and then
  // allocate the whole-tile buffers the budget above did not count here).
  c = std::min<std::uint64_t>(c, (static_cast<std::uint64_t>(len) - 1) / 64 * 64);
  c = std::max<std::uint64_t>(c, 64);
  t.tile_rows = 1;
  t.chunk = static_cast<std::uint32_t>(c);
  t.pitch = static_cast<std::uint32_t>(c);
  return t;
}

/// Column chunks of a tiling over a middle axis (t.outer x t.len x t.inner; plan_columns and the
/// column-wise reductions): chunks of at most max_chunk columns (a multiple of 64 that fits UB at
/// `elem` bytes per element and row), then as many rows per tile as fit UB besides
/// reserved(t) bytes (t with chunk and pitch set); fills chunk, pitch, tile_rows, units, per_block.
template <class Tiling, class Reserved>
void plan_column_chunks(const Plan& p, Tiling& t, std::uint64_t ub, std::uint64_t elem,
                        std::uint32_t align, std::uint64_t max_chunk, Reserved reserved) {
  const std::uint64_t fit = std::max<std::uint64_t>(ub / (12 + 4 * elem) / 64 * 64, 64);
  t.chunk = static_cast<std::uint32_t>(
      std::min<std::uint64_t>({static_cast<std::uint64_t>(t.inner), max_chunk, fit}));
  t.pitch = static_cast<std::uint32_t>(round_up64(t.chunk, align));
  const std::uint64_t res = reserved(t);
  const std::uint64_t k = ub > res ? (ub - res) / (t.pitch * elem) : 1;
  t.tile_rows = static_cast<std::uint32_t>(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>({k, static_cast<std::uint64_t>(t.len), kMaxTileRows})));
  t.units = t.outer * ((t.inner + t.chunk - 1) / t.chunk);
  t.per_block = split_even(t.units, p.vector_cores(), 1).per_block;
}

/// Softmax over the middle axis of [outer, len, inner] (inner > 1): units of (o, column chunk)
/// over the vector cores; two fp32 vectors of a chunk (running max and sum) plus at least four
/// rows of in / out tiles fit UB.
inline RowTiling plan_columns(const Plan& p, Dt dt, std::int64_t outer, std::int64_t len,
                              std::int64_t inner) {
  RowTiling t;
  t.dt = dt;
  t.rows = outer * len;
  t.len = len;
  t.outer = outer;
  t.inner = inner;
  const std::uint64_t ub = p.ub_bytes() > 2 * kUbReserve ? p.ub_bytes() - kUbReserve : kUbReserve;
  const std::uint32_t sz = dt_size(dt), align = 32 / sz;
  const std::uint64_t elem = 4ull * sz + (sz == 4 ? 0 : 4) + 4;  // in, out, fp32 copy, broadcast
  plan_column_chunks(p, t, ub, elem, align, 2048, [](const RowTiling& r) {
    return 3ull * r.pitch * 4;  // running max, running sum, tile partial
  });
  return t;
}

/// Where a kernel finds an fp32 parameter: the input itself, or its fp32 copy in the workspace.
struct F32Source {
  int input = -1;  // index into Addrs::in (-1: absent)
  bool in_workspace = false;
  std::uint64_t offset = 0;  // in the workspace
  const std::uint8_t* resolve(const Addrs& a) const {
    if (input < 0) return nullptr;
    return in_workspace ? a.workspace + offset : a.in[static_cast<std::size_t>(input)];
  }
};

/// A launch converting `count` elements between fp32 and fp16 / bf16.
inline CastTiling plan_cast(const Plan& p, Dt src, Dt dst, std::int64_t count) {
  CastTiling t;
  t.src = src;
  t.dst = dst;
  t.count = count;
  const Split s = split_even(count, p.vector_cores(), 256);
  t.per_block = s.per_block;
  t.tile = static_cast<std::uint32_t>(std::min<std::uint64_t>(
      round_up64(static_cast<std::uint64_t>(std::max<std::int64_t>(s.per_block, 1)), 16), 8192));
  return t;
}

inline std::uint32_t cast_blocks(const CastTiling& t) {
  return static_cast<std::uint32_t>(std::max<std::int64_t>(
      (t.count + t.per_block - 1) / std::max<std::int64_t>(t.per_block, 1), 1));
}

inline std::uint32_t row_blocks(std::int64_t rows, std::int64_t per_block) {
  return static_cast<std::uint32_t>(
      std::max<std::int64_t>((rows + per_block - 1) / std::max<std::int64_t>(per_block, 1), 1));
}

/// Makes input `index` (`count` elements of `tensor`) available as fp32: the input itself when
/// it is FLOAT, else a Cast launch into the workspace.
inline F32Source f32_param(Plan& p, Workspace& ws, const aclTensor* tensor, int index) {
  F32Source s;
  if (tensor == nullptr) return s;
  s.input = index;
  if (tensor->dtype == ACL_FLOAT) return s;
  s.in_workspace = true;
  s.offset = ws.take(static_cast<std::uint64_t>(tensor->numel()) * 4);
  const CastTiling t = plan_cast(p, dt_of(tensor->dtype), Dt::kF32, tensor->numel());
  const std::uint64_t off = s.offset;
  p.launch("Cast", reinterpret_cast<const void*>(&cast_kernel), cast_blocks(t), Core::kVector,
           [t, index, off](const Addrs& a) {
             cast_kernel(a.in[static_cast<std::size_t>(index)], a.workspace + off, t);
           });
  return s;
}

/// Converts `count` fp32 values at workspace `offset` into output `index` of type `dtype`.
inline void cast_out(Plan& p, std::uint64_t offset, int dtype, std::int64_t count, int index) {
  const CastTiling t = plan_cast(p, Dt::kF32, dt_of(dtype), count);
  p.launch("Cast", reinterpret_cast<const void*>(&cast_kernel), cast_blocks(t), Core::kVector,
           [t, index, offset](const Addrs& a) {
             cast_kernel(a.workspace + offset, a.out[static_cast<std::size_t>(index)], t);
           });
}

}  // namespace npusim::aclnn::norm
