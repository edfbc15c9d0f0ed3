// SPDX-License-Identifier: Apache-2.0
// Kernel-side building blocks of the norm family's Ascend C kernels (norm_kernels.cpp,
// reduce_kernels.cpp; included by kernel sources only, after kernel_operator.h): row ranges per
// block, DataCopyPad row copies between GM and 32-byte-padded UB rows, fp32 broadcasts, and
// RowBase, the input / output tile pipeline (TQue double buffers, FLOAT16 / BFLOAT16 cast to fp32
// after the copy-in and back before the copy-out).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "runtime/aclnn/norm_kernels.h"

namespace npusim::aclnn::norm::tiles {

using namespace AscendC;

template <class T>
constexpr bool kIsF32 = std::is_same_v<T, float>;

constexpr std::uint32_t kStatAlign = 8;  // fp32 per 32 bytes

inline std::uint32_t round_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }
inline std::int64_t min64(std::int64_t a, std::int64_t b) { return a < b ? a : b; }

struct Range {
  std::int64_t begin, end;
};
inline Range my_range(std::int64_t total, std::int64_t per_block) {
  const std::int64_t b = GetBlockIdx() * per_block;
  return {min64(b, total), min64(b + per_block, total)};
}

// `rows` rows of n elements, gm_pitch elements apart in GM, ub_pitch elements apart in UB.
// With `pad`, each UB row's padding (up to the next 32 bytes) is filled with -infinity.
template <class T>
inline void copy_in(const LocalTensor<T>& dst, const GlobalTensor<T>& src, std::uint32_t rows,
                    std::uint32_t n, std::int64_t gm_pitch, std::uint32_t ub_pitch, int pad = 0) {
  const auto bytes = static_cast<std::uint32_t>(n * sizeof(T));
  const std::uint32_t ub_gap =
      (ub_pitch * static_cast<std::uint32_t>(sizeof(T)) - round_up(bytes, 32)) / 32;
  DataCopyExtParams p(
      static_cast<std::uint16_t>(rows), bytes,
      static_cast<std::uint32_t>((gm_pitch - n) * static_cast<std::int64_t>(sizeof(T))), ub_gap, 0);
  const std::uint32_t right = round_up(bytes, 32) / static_cast<std::uint32_t>(sizeof(T)) - n;
  if (pad != 0 && right > 0) {
    DataCopyPad(
        dst, src, p,
        DataCopyPadExtParams<T>(true, 0, static_cast<std::uint8_t>(right),
                                static_cast<T>(pad < 0 ? -__builtin_inff() : __builtin_inff())));
  } else {
    DataCopyPad(dst, src, p, DataCopyPadExtParams<T>());
  }
}

// [k, 1] -> [k, pitch] and [1, pitch] -> [k, pitch] broadcasts of fp32 UB data.
inline void broadcast_rows(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                           std::uint32_t k, std::uint32_t pitch) {
  const std::uint32_t dst_shape[2] = {k, pitch}, src_shape[2] = {k, 1};
  Broadcast<float, 2, 1>(dst, src, dst_shape, src_shape);
}
inline void broadcast_row(const LocalTensor<float>& dst, const LocalTensor<float>& src,
                          std::uint32_t k, std::uint32_t pitch) {
  const std::uint32_t dst_shape[2] = {k, pitch}, src_shape[2] = {1, pitch};
  Broadcast<float, 2, 0>(dst, src, dst_shape, src_shape);
}

template <class T>
inline void copy_out(const GlobalTensor<T>& dst, const LocalTensor<T>& src, std::uint32_t rows,
                     std::uint32_t n, std::int64_t gm_pitch, std::uint32_t ub_pitch) {
  const auto bytes = static_cast<std::uint32_t>(n * sizeof(T));
  const std::uint32_t ub_gap =
      (ub_pitch * static_cast<std::uint32_t>(sizeof(T)) - round_up(bytes, 32)) / 32;
  DataCopyExtParams p(
      static_cast<std::uint16_t>(rows), bytes, ub_gap,
      static_cast<std::uint32_t>((gm_pitch - n) * static_cast<std::int64_t>(sizeof(T))), 0);
  DataCopyPad(dst, src, p);
}

// Input tiles of T seen as fp32 (cast up unless T is float) and output tiles of T.
template <class T>
class RowBase {
 protected:
  struct Tile {
    LocalTensor<T> in, out;
    LocalTensor<float> x, y;  // x: the input as fp32; y: where the result is built
    bool has_out = false;
    bool in_held = false;
  };

  void InitIo(std::uint8_t* x, std::uint8_t* y, std::uint32_t tile_elems) {
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
    if (y != nullptr) {
      y_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y));
      pipe_.InitBuffer(out_, 2, tile_elems * sizeof(T));
    }
    pipe_.InitBuffer(in_, 2, tile_elems * sizeof(T));
    if constexpr (!kIsF32<T>) pipe_.InitBuffer(work_, tile_elems * sizeof(float));
  }

  // Loads k rows of n elements at element `at` (rows gm_pitch apart) into a tile of pitch P.
  Tile Begin(std::int64_t at, std::uint32_t k, std::uint32_t n, std::int64_t gm_pitch,
             std::uint32_t pitch, bool out, int pad = 0) {
    Tile t;
    LocalTensor<T> in = in_.template AllocTensor<T>();
    copy_in(in, x_[static_cast<std::uint64_t>(at)], k, n, gm_pitch, pitch, pad);
    in_.EnQue(in);
    t.in = in_.template DeQue<T>();
    t.has_out = out;
    if (out) t.out = out_.template AllocTensor<T>();
    if constexpr (kIsF32<T>) {
      t.x = t.in;
      t.y = out ? t.out : t.in;
      t.in_held = true;
    } else {
      LocalTensor<float> w = work_.template Get<float>();
      Cast(w, t.in, RoundMode::CAST_NONE, k * pitch);
      in_.FreeTensor(t.in);
      t.x = w;
      t.y = w;
    }
    return t;
  }

  // Stores the tile's y (k rows of n elements) at element `at` of the output, then frees it.
  void End(Tile& t, std::int64_t at, std::uint32_t k, std::uint32_t n, std::int64_t gm_pitch,
           std::uint32_t pitch) {
    if (t.has_out) {
      if constexpr (!kIsF32<T>) Cast(t.out, t.y, RoundMode::CAST_RINT, k * pitch);
      out_.EnQue(t.out);
      LocalTensor<T> o = out_.template DeQue<T>();
      copy_out(y_[static_cast<std::uint64_t>(at)], o, k, n, gm_pitch, pitch);
      out_.FreeTensor(o);
    }
    if (t.in_held) in_.FreeTensor(t.in);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, 2> in_;
  TQue<TPosition::VECOUT, 2> out_;
  TBuf<TPosition::VECCALC> work_;
  GlobalTensor<T> x_, y_;
};

template <template <class> class Op, class... Args>
void dispatch(Dt dt, Args&&... args) {
  switch (dt) {
    case Dt::kF32:
      Op<float>().Run(args...);
      break;
    case Dt::kF16:
      Op<half>().Run(args...);
      break;
    case Dt::kBf16:
      Op<bfloat16_t>().Run(args...);
      break;
  }
}

}  // namespace npusim::aclnn::norm::tiles
