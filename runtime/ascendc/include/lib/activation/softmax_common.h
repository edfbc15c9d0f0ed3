// SPDX-License-Identifier: Apache-2.0
// What the twin's SoftMax-family APIs share (softmax.h, log_softmax.h, softmax_flash.h,
// softmax_flash_v3.h, softmax_grad.h): their shape and configuration types, and the row-wise
// building blocks they are made of.
//
// A call works on an [m, k] source (SoftMaxShapeInfo: srcM rows of srcK elements, srcK a
// multiple of 32 bytes; the first oriSrcK of each row are reduced, all srcK are computed) in
// passes of rows. Each pass keeps float intermediates in the temporary buffer (the caller's
// sharedTmpBuffer or the framework's free UB, npusim/ascendc/high_level_tmp.h): `rows` float
// row buffers of r x k elements, then arrays of r floats (each padded to 32 bytes); the
// temporary size functions of tiling/activation/softmax_tiling.h count the same bytes (maximum:
// one pass over all rows, minimum: a pass of min(m, 8) rows).
// The per-row max and sum tensors hold each row's value repeated over 32 bytes ([m, 8] float,
// [m, 16] half).
//
// Timing: every step is one instruction on the vector pipe: row reductions are the norm
// operators' ReduceMax / ReduceSum (npusim/ascendc/norm_ops.h, one instruction over r x k
// elements), spreading a per-row value over its row or its 32-byte block is their Broadcast
// (a Duplicate over the filled elements), element-wise steps are the basic ops of vector_ops.h
// and half sources and results are converted with Cast.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/softmax_tiling.h"
#include "npusim/ascendc/high_level_tmp.h"
#include "npusim/ascendc/norm_ops.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

struct SoftMaxShapeInfo {
  std::uint32_t srcM = 0;
  std::uint32_t srcK = 0;
  std::uint32_t oriSrcM = 0;
  std::uint32_t oriSrcK = 0;
};

/// SoftmaxFlashV3's shape and its running-mean parameters.
struct SoftMaxParams {
  std::uint32_t srcM = 0;
  std::uint32_t srcK = 0;
  std::uint32_t oriSrcM = 0;
  std::uint32_t oriSrcK = 0;
  std::uint32_t loopCnt = 1;
  std::uint32_t splitMeanCnt = 8;
  float alpha = 0.0f;
};

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };

struct SoftmaxConfig {
  bool isCheckTiling = true;
  std::uint32_t oriSrcM = 0;
  std::uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

}  // namespace AscendC

namespace npusim::ascendc {

/// Float row buffers of SoftMax, LogSoftMax and SoftmaxFlashV2: the exponentials, plus the
/// source in float when it is half.
template <class T>
constexpr std::uint32_t kSoftmaxFloatRows = std::is_same_v<T, float> ? 1 : 2;
constexpr std::uint32_t kStatArrays = 4;

/// The rows of a call: m rows of k elements (the pitch), the first `valid` of each reduced.
struct SoftmaxRows {
  std::uint32_t m = 0;
  std::uint32_t k = 0;
  std::uint32_t valid = 0;
};

template <class T>
SoftmaxRows softmax_rows(const char* api, std::uint32_t src_m, std::uint32_t src_k,
                         std::uint32_t ori_k) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, Half>,
                "the SoftMax family supports half and float");
  if (src_m == 0 || src_k == 0) {
    fail(api, "needs the shape of its source (SoftMaxShapeInfo srcM %u, srcK %u)", src_m, src_k);
  }
  if (src_k * sizeof(T) % 32 != 0) {
    fail(api, "srcK %u is not a multiple of 32 bytes", src_k);
  }
  const std::uint32_t valid = ori_k == 0 || ori_k > src_k ? src_k : ori_k;
  return {src_m, src_k, valid};
}

template <class T>
SoftmaxRows softmax_rows(const char* api, const AscendC::SoftMaxShapeInfo& s) {
  return softmax_rows<T>(api, s.srcM, s.srcK, s.oriSrcK);
}

/// Fails `api` for the NZ data format, which the twin's SoftMax family does not implement.
inline void softmax_nd_only(const char* api, bool nz) {
  if (nz) fail(api, "the NZ data format is not implemented by the twin (ND only)");
}

inline std::uint32_t align8(std::uint32_t n) { return (n + 7) / 8 * 8; }

/// Temporary bytes of a pass of r rows: `rows` float row buffers of r x k and `stats` arrays of
/// r floats, each padded to 32 bytes (tiling/activation/softmax_tiling.h computes the same).
inline std::uint64_t softmax_pass_bytes(std::uint32_t r, std::uint32_t k, std::uint32_t rows,
                                        std::uint32_t stats) {
  return std::uint64_t{r} * k * 4 * rows + std::uint64_t{stats} * align8(r) * 4;
}

/// One pass's view of the temporary buffer: float row buffers of r x k, then r-float arrays.
class SoftmaxScratch {
 public:
  SoftmaxScratch(const HighLevelTmp& tmp, std::uint32_t r, std::uint32_t k, std::uint32_t rows)
      : tmp_(tmp), r_(r), k_(k), rows_(rows) {}
  /// Row buffer i (an empty tensor beyond the pass's row buffers: a float source needs none).
  AscendC::LocalTensor<float> row_buf(std::uint32_t i) const {
    return i < rows_ ? tmp_.as<float>(i * r_ * k_) : AscendC::LocalTensor<float>();
  }
  AscendC::LocalTensor<float> stat(std::uint32_t i) const {
    return tmp_.as<float>(rows_ * r_ * k_ + i * align8(r_));
  }

 private:
  const HighLevelTmp& tmp_;
  std::uint32_t r_, k_, rows_;
};

/// Rows per pass with `tmp_bytes` of temporary space (all m when they fit); fails `api` naming
/// `tiling` when not even one row fits.
inline std::uint32_t softmax_pass_rows(const char* api, const char* tiling,
                                       std::uint32_t tmp_bytes, std::uint32_t k,
                                       std::uint32_t rows, std::uint32_t stats, std::uint32_t m) {
  std::uint32_t r = static_cast<std::uint32_t>(tmp_bytes / (std::uint64_t{k} * 4 * rows + stats * 4));
  if (r > m) r = m;
  while (r > 0 && softmax_pass_bytes(r, k, rows, stats) > tmp_bytes) --r;
  if (r == 0) {
    fail(api, "sharedTmpBuffer of %u bytes is below the minimum of %llu bytes (%s)", tmp_bytes,
         static_cast<unsigned long long>(softmax_pass_bytes(1, k, rows, stats)), tiling);
  }
  return r;
}

/// The framework's temporary space for m rows (at least min(m, `min_rows`) of them).
inline std::uint32_t softmax_min_rows(std::uint32_t m, std::uint32_t min_rows = 8) {
  return m < min_rows ? m : min_rows;
}

/// Runs `pass(row0, r, scratch)` over the m rows in passes that fit the temporary buffer.
template <class Pass>
void softmax_passes(const char* api, const char* tiling, const HighLevelTmp& tmp,
                    const SoftmaxRows& rows, std::uint32_t float_rows, std::uint32_t stats,
                    Pass&& pass) {
  const std::uint32_t per =
      softmax_pass_rows(api, tiling, tmp.bytes(), rows.k, float_rows, stats, rows.m);
  for (std::uint32_t row0 = 0; row0 < rows.m; row0 += per) {
    const std::uint32_t r = rows.m - row0 < per ? rows.m - row0 : per;
    pass(row0, r, SoftmaxScratch(tmp, r, rows.k, float_rows));
  }
}

/// The framework form: UB above the TPipe's buffers for every row, at least min_rows of them.
template <class Pass>
void softmax_framework(const char* api, const char* tiling, const SoftmaxRows& rows,
                       std::uint32_t float_rows, std::uint32_t stats, std::uint32_t min_rows,
                       Pass&& pass) {
  const auto bytes = [&](std::uint32_t r) {
    return static_cast<std::uint32_t>((softmax_pass_bytes(r, rows.k, float_rows, stats) + 31) / 32 * 32);
  };
  const HighLevelTmp tmp(api, tiling, bytes(rows.m), bytes(softmax_min_rows(rows.m, min_rows)));
  softmax_passes(api, tiling, tmp, rows, float_rows, stats, pass);
}

/// dst[i] = the max (kMax) or sum (kSum) of the first `valid` elements of row i of src (r rows
/// of pitch k): one ReduceMax / ReduceSum instruction.
template <Reduce2d kKind>
void row_reduce(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                std::uint32_t r, std::uint32_t valid, std::uint32_t k) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  reduce2d_body<float, kKind>(ctx, operand(dst), operand(src), -1, r, valid, k, true,
                              kKind == Reduce2d::kMax ? "ReduceMax" : "ReduceSum");
}

/// Row i of dst (r rows of n elements) filled with src[i]: one Broadcast instruction.
template <class U>
void spread(const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<U>& src,
            std::uint32_t r, std::uint32_t n) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  broadcast2d_body(ctx, operand(dst), operand(src), r, n, true);
}

/// Writes the r per-row values `v` (float) to the [r, 32 bytes] tensor `out` of S (through a
/// Cast into `half_tmp` when S is half).
template <class S>
void store_blocks(const AscendC::LocalTensor<S>& out, const AscendC::LocalTensor<float>& v,
                  const AscendC::LocalTensor<float>& half_tmp, std::uint32_t r) {
  if constexpr (std::is_same_v<S, float>) {
    spread(out, v, r, 8);
  } else {
    const auto h = half_tmp.ReinterpretCast<S>();
    AscendC::Cast(h, v, AscendC::RoundMode::CAST_RINT, r);
    spread(out, h, r, 16);
  }
}

/// Reads the per-row values of the [r, 32 bytes] tensor `in` of S into `v` (float): the first
/// element of each block (a ReduceMax over one column of the blocks).
template <class S>
void load_blocks(const AscendC::LocalTensor<float>& v, const AscendC::LocalTensor<S>& in,
                 const AscendC::LocalTensor<float>& half_tmp, std::uint32_t r) {
  auto& ctx = block();
  if constexpr (std::is_same_v<S, float>) {
    ScalarPause pause(ctx);
    reduce2d_body<float, Reduce2d::kMax>(ctx, operand(v), operand(in), -1, r, 1, 8, true,
                                         "ReduceMax");
  } else {
    const auto h = half_tmp.ReinterpretCast<S>();
    {
      ScalarPause pause(ctx);
      reduce2d_body<S, Reduce2d::kMax>(ctx, operand(h), operand(in), -1, r, 1, 16, true,
                                       "ReduceMax");
    }
    AscendC::Cast(v, h, AscendC::RoundMode::CAST_NONE, r);
  }
}

/// The source rows in float: src itself, or converted into `buf` when T is half.
template <class T>
AscendC::LocalTensor<float> float_rows(const AscendC::LocalTensor<T>& src,
                                       const AscendC::LocalTensor<float>& buf, std::uint32_t n) {
  if constexpr (std::is_same_v<T, float>) {
    return src;
  } else {
    AscendC::Cast(buf, src, AscendC::RoundMode::CAST_NONE, n);
    return buf;
  }
}

/// Stores float results `v` into dst (a Cast when T is half; nothing when they are dst already).
template <class T>
void store_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<float>& v,
                std::uint32_t n) {
  if constexpr (std::is_same_v<T, float>) {
    if (v.twin_data() != dst.twin_data()) AscendC::Adds(dst, v, 0.0f, static_cast<std::int32_t>(n));
  } else {
    AscendC::Cast(dst, v, AscendC::RoundMode::CAST_RINT, n);
  }
}

/// Whether an optional output tensor was given.
template <class U>
bool given(const AscendC::LocalTensor<U>& t) {
  return t.twin_data() != nullptr;
}

}  // namespace npusim::ascendc
