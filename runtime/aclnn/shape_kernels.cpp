// SPDX-License-Identifier: Apache-2.0
// Ascend C kernels of the shape family: Permute, Embedding, RotaryPositionEmbedding (see
// shape_kernels.h for the tiling each one follows).
#include "runtime/aclnn/shape_kernels.h"

#include <cstdint>

#include "kernel_operator.h"
#include "runtime/aclnn/kernel_common.h"

namespace npusim::aclnn::kernels {
namespace {

// ---------------------------------------------------------------------------------- Permute

template <class T>
class Permute {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR y, const PermuteTiling& t) {
    t_ = &t;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y));
    in_pitch_ = round32(t.tile_cols * es) / es;
    pipe_.InitBuffer(in_q_, kBuffers, static_cast<std::uint32_t>(t.tile_rows * in_pitch_ * es));
    if (!t.transpose) return;
    out_pitch_ = round32(t.tile_rows * es) / es;
    const std::uint32_t n = static_cast<std::uint32_t>(t.tile_cols * out_pitch_);
    pipe_.InitBuffer(out_q_, kBuffers, n * es);
    pipe_.InitBuffer(table_, n * 4);
    // Offset table of the in-UB transpose: out[c][r] = in[r][c]. Row 0 by the scalar unit, row c
    // = row 0 + c elements by the vector unit (padding entries point at element c of row 0).
    AscendC::LocalTensor<std::uint32_t> tab = table_.Get<std::uint32_t>();
    for (std::uint32_t r = 0; r < out_pitch_; ++r) {
      tab.SetValue(r, r < t.tile_rows ? r * in_pitch_ * es : 0u);
    }
    AscendC::SetFlag<AscendC::HardEvent::S_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(0);
    for (std::uint32_t c = 1; c < t.tile_cols; c *= 2) {  // rows [c, 2c) = rows [0, c) + c
      const auto cnt = t.tile_cols - c < c ? static_cast<std::uint32_t>(t.tile_cols - c) : c;
      AscendC::Adds(tab[c * out_pitch_], tab, c * es, static_cast<std::int32_t>(cnt * out_pitch_));
    }
  }

  __aicore__ void Process() {
    const PermuteTiling& t = *t_;
    const std::int64_t first = AscendC::GetBlockIdx() * t.tiles_per_block;
    std::int64_t last = first + t.tiles_per_block;
    if (last > t.total_tiles) last = t.total_tiles;
    for (std::int64_t i = first; i < last; ++i) Tile(i);
  }

 private:
  static constexpr std::uint32_t es = sizeof(T);

  __aicore__ void Tile(std::int64_t i) {
    const PermuteTiling& t = *t_;
    const std::int64_t tc = i % t.tiles_c;
    std::int64_t b = i / t.tiles_c;
    const std::int64_t tr = b % t.tiles_r;
    b /= t.tiles_r;
    std::int64_t in_off = 0, out_off = 0;
    for (std::int32_t k = t.batch_rank - 1; k >= 0; --k) {
      const std::int64_t v = b % t.batch_dims[k];
      b /= t.batch_dims[k];
      in_off += v * t.batch_in_stride[k];
      out_off += v * t.batch_out_stride[k];
    }
    const std::int64_t r0 = tr * t.tile_rows, c0 = tc * t.tile_cols;
    const std::int64_t nr = t.rows - r0 < t.tile_rows ? t.rows - r0 : t.tile_rows;
    const std::int64_t nc = t.cols - c0 < t.tile_cols ? t.cols - c0 : t.tile_cols;

    AscendC::LocalTensor<T> a = in_q_.AllocTensor<T>();
    AscendC::DataCopyExtParams in(static_cast<std::uint16_t>(nr),
                                  static_cast<std::uint32_t>(nc * es),
                                  static_cast<std::uint32_t>((t.in_row_stride - nc) * es),
                                  (in_pitch_ * es - round32(nc * es)) / 32, 0);
    AscendC::DataCopyPad(a, x_[in_off + r0 * t.in_row_stride + c0], in,
                         AscendC::DataCopyPadExtParams<T>(false, 0, 0, T()));
    in_q_.EnQue(a);
    a = in_q_.DeQue<T>();
    if (!t.transpose) {
      AscendC::DataCopyExtParams out(static_cast<std::uint16_t>(nr),
                                     static_cast<std::uint32_t>(nc * es),
                                     (in_pitch_ * es - round32(nc * es)) / 32,
                                     static_cast<std::uint32_t>((t.out_row_stride - nc) * es), 0);
      AscendC::DataCopyPad(y_[out_off + r0 * t.out_row_stride + c0], a, out);
      in_q_.FreeTensor(a);
      return;
    }
    AscendC::LocalTensor<T> o = out_q_.AllocTensor<T>();
    AscendC::LocalTensor<std::uint32_t> tab = table_.Get<std::uint32_t>();
    AscendC::Gather(o, a, tab, 0u, static_cast<std::uint32_t>(nc * out_pitch_));
    in_q_.FreeTensor(a);
    out_q_.EnQue(o);
    o = out_q_.DeQue<T>();
    AscendC::DataCopyExtParams out(static_cast<std::uint16_t>(nc),
                                   static_cast<std::uint32_t>(nr * es),
                                   (out_pitch_ * es - round32(nr * es)) / 32,
                                   static_cast<std::uint32_t>((t.out_col_stride - nr) * es), 0);
    AscendC::DataCopyPad(y_[out_off + r0 + c0 * t.out_col_stride], o, out);
    out_q_.FreeTensor(o);
  }

  const PermuteTiling* t_ = nullptr;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBuffers> in_q_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kBuffers> out_q_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> table_;
  AscendC::GlobalTensor<T> x_, y_;
  std::uint32_t in_pitch_ = 0, out_pitch_ = 0;
};

template <class T>
__aicore__ void run_permute(std::uint8_t* x, std::uint8_t* y, const PermuteTiling& t) {
  Permute<T> op;
  op.Init(x, y, t);
  op.Process();
}

// -------------------------------------------------------------------------------- Embedding

constexpr std::uint32_t kIndexChunk = 1024;

class Embedding {
 public:
  __aicore__ void Init(GM_ADDR w, GM_ADDR idx, GM_ADDR out, const EmbeddingTiling& t) {
    t_ = &t;
    w_.SetGlobalBuffer(reinterpret_cast<__gm__ std::uint8_t*>(w));
    idx_.SetGlobalBuffer(reinterpret_cast<__gm__ std::uint8_t*>(idx));
    out_.SetGlobalBuffer(reinterpret_cast<__gm__ std::uint8_t*>(out));
    pitch_ = round32(t.tile_dim * t.elem);
    pipe_.InitBuffer(rows_q_, kBuffers, static_cast<std::uint32_t>(t.group * pitch_));
    pipe_.InitBuffer(idx_buf_, kIndexChunk * 8);
  }

  __aicore__ void Process() {
    const EmbeddingTiling& t = *t_;
    const std::int64_t first = AscendC::GetBlockIdx() * t.per_block;
    std::int64_t last = first + t.per_block;
    if (last > t.count) last = t.count;
    for (std::int64_t s = first; s < last; s += kIndexChunk) {
      const std::int64_t n = last - s < kIndexChunk ? last - s : kIndexChunk;
      AscendC::LocalTensor<std::uint8_t> ib = idx_buf_.Get<std::uint8_t>();
      AscendC::DataCopyPad(
          ib, idx_[s * t.index_elem],
          AscendC::DataCopyExtParams(1, static_cast<std::uint32_t>(n * t.index_elem), 0, 0, 0),
          AscendC::DataCopyPadExtParams<std::uint8_t>(false, 0, 0, 0));
      for (std::int64_t d0 = 0; d0 < t.dim; d0 += t.tile_dim) {
        const std::int64_t nd = t.dim - d0 < t.tile_dim ? t.dim - d0 : t.tile_dim;
        for (std::int64_t g0 = 0; g0 < n; g0 += t.group) {
          const std::int64_t ng = n - g0 < t.group ? n - g0 : t.group;
          Group(ib, s, g0, ng, d0, nd);
        }
      }
    }
  }

 private:
  __aicore__ std::int64_t Index(const AscendC::LocalTensor<std::uint8_t>& ib, std::int64_t k) {
    if (t_->index_elem == 8) {
      return ib.ReinterpretCast<std::int64_t>().GetValue(static_cast<std::uint32_t>(k));
    }
    return ib.ReinterpretCast<std::int32_t>().GetValue(static_cast<std::uint32_t>(k));
  }

  __aicore__ void Group(const AscendC::LocalTensor<std::uint8_t>& ib, std::int64_t s,
                        std::int64_t g0, std::int64_t ng, std::int64_t d0, std::int64_t nd) {
    const EmbeddingTiling& t = *t_;
    const auto row_bytes = static_cast<std::uint32_t>(nd * t.elem);
    AscendC::LocalTensor<std::uint8_t> buf = rows_q_.AllocTensor<std::uint8_t>();
    for (std::int64_t k = 0; k < ng; ++k) {
      std::int64_t v = Index(ib, g0 + k);
      // Timing-only mode (no element math) may leave the indices undefined: read row 0 there.
      if ((v < 0 || v >= t.num) && !npusim::ascendc::block().functional) v = 0;
      if (v < 0 || v >= t.num) {
        AscendC::printf("aclnnEmbedding: index %lld at position %lld is outside [0, %lld)\n",
                        static_cast<long long>(v), static_cast<long long>(s + g0 + k),
                        static_cast<long long>(t.num));
        asm("trap");
      }
      AscendC::DataCopyPad(buf[static_cast<std::uint32_t>(k * pitch_)],
                           w_[(v * t.dim + d0) * t.elem],
                           AscendC::DataCopyExtParams(1, row_bytes, 0, 0, 0),
                           AscendC::DataCopyPadExtParams<std::uint8_t>(false, 0, 0, 0));
    }
    rows_q_.EnQue(buf);
    buf = rows_q_.DeQue<std::uint8_t>();
    AscendC::DataCopyPad(
        out_[((s + g0) * t.dim + d0) * t.elem], buf,
        AscendC::DataCopyExtParams(static_cast<std::uint16_t>(ng), row_bytes,
                                   (pitch_ - round32(row_bytes)) / 32,
                                   static_cast<std::uint32_t>((t.dim - nd) * t.elem), 0));
    rows_q_.FreeTensor(buf);
  }

  const EmbeddingTiling* t_ = nullptr;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBuffers> rows_q_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> idx_buf_;
  AscendC::GlobalTensor<std::uint8_t> w_, idx_, out_;
  std::uint32_t pitch_ = 0;
};

// ------------------------------------------------------------------- RotaryPositionEmbedding

template <class T>
class Rope {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR c, GM_ADDR s, GM_ADDR y, const RopeTiling& t) {
    t_ = &t;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
    c_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(c));
    s_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(s));
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y));
    pitch_ = static_cast<std::uint32_t>((t.d + 15) / 16 * 16);  // 32-byte rows for T and float
    const std::uint32_t n = static_cast<std::uint32_t>(t.tile_rows) * pitch_;
    pipe_.InitBuffer(x_q_, kBuffers, n * sizeof(T));
    pipe_.InitBuffer(c_q_, kBuffers, n * sizeof(T));
    pipe_.InitBuffer(s_q_, kBuffers, n * sizeof(T));
    pipe_.InitBuffer(y_q_, kBuffers, n * sizeof(T));
    pipe_.InitBuffer(rot_, n * 4);
    pipe_.InitBuffer(sign_, n * 4);
    pipe_.InitBuffer(table_, n * 4);
    if constexpr (!kFloat) {
      pipe_.InitBuffer(xf_, n * 4);
      pipe_.InitBuffer(cf_, n * 4);
      pipe_.InitBuffer(sf_, n * 4);
    }
    // Row 0 of the rotation (gather offsets, signs) by the scalar unit; the other rows by the
    // vector unit.
    AscendC::LocalTensor<std::uint32_t> tab = table_.Get<std::uint32_t>();
    AscendC::LocalTensor<float> sign = sign_.Get<float>();
    const auto d = static_cast<std::uint32_t>(t.d);
    for (std::uint32_t j = 0; j < pitch_; ++j) {
      std::uint32_t src = j;
      float sg = 0.0f;
      if (j < d && t.mode == 0) {
        src = j < d / 2 ? j + d / 2 : j - d / 2;
        sg = j < d / 2 ? -1.0f : 1.0f;
      } else if (j < d) {
        src = j % 2 == 0 ? j + 1 : j - 1;
        sg = j % 2 == 0 ? -1.0f : 1.0f;
      }
      tab.SetValue(j, src * 4u);
      sign.SetValue(j, sg);
    }
    AscendC::SetFlag<AscendC::HardEvent::S_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(0);
    for (std::uint32_t r = 1; r < t.tile_rows; r *= 2) {  // rows [r, 2r) from rows [0, r)
      const auto cnt = t.tile_rows - r < r ? static_cast<std::uint32_t>(t.tile_rows - r) : r;
      const auto n = static_cast<std::int32_t>(cnt * pitch_);
      AscendC::Adds(tab[r * pitch_], tab, r * pitch_ * 4u, n);
      AscendC::Adds(sign[r * pitch_], sign, 0.0f, n);
    }
  }

  __aicore__ void Process() {
    const RopeTiling& t = *t_;
    const std::int64_t first = AscendC::GetBlockIdx() * t.per_block;
    std::int64_t last = first + t.per_block;
    if (last > t.rows) last = t.rows;
    for (std::int64_t r0 = first; r0 < last; r0 += t.tile_rows) {
      const std::int64_t nr = last - r0 < t.tile_rows ? last - r0 : t.tile_rows;
      Tile(r0, nr);
    }
  }

 private:
  static constexpr bool kFloat = sizeof(T) == 4;

  __aicore__ std::int64_t CosRow(std::int64_t r) const {
    return row_offset(r, t_->lead_rank, t_->lead_dims, t_->cs_stride);
  }

  __aicore__ AscendC::DataCopyExtParams RowsIn(std::int64_t rows) const {
    const auto bytes = static_cast<std::uint32_t>(t_->d * sizeof(T));
    return AscendC::DataCopyExtParams(
        static_cast<std::uint16_t>(rows), bytes, 0,
        (pitch_ * static_cast<std::uint32_t>(sizeof(T)) - round32(bytes)) / 32, 0);
  }

  __aicore__ void Tile(std::int64_t r0, std::int64_t nr) {
    const RopeTiling& t = *t_;
    const AscendC::DataCopyPadExtParams<T> nopad(false, 0, 0, T());
    AscendC::LocalTensor<T> x = x_q_.AllocTensor<T>();
    AscendC::DataCopyPad(x, x_[r0 * t.d], RowsIn(nr), nopad);
    x_q_.EnQue(x);
    AscendC::LocalTensor<T> c = c_q_.AllocTensor<T>();
    AscendC::LocalTensor<T> s = s_q_.AllocTensor<T>();
    for (std::int64_t k = 0; k < nr;) {  // runs of consecutive cos/sin rows, one copy each
      const std::int64_t row = CosRow(r0 + k);
      // Consecutive x rows along the innermost leading dimension take consecutive cos rows
      // when cos is not broadcast there: the run lasts until that dimension wraps.
      std::int64_t run = 1;
      if (t.lead_rank > 0 && t.cs_stride[t.lead_rank - 1] == 1) {
        const std::int64_t inner = t.lead_dims[t.lead_rank - 1];
        run = inner - (r0 + k) % inner;
        if (run > nr - k) run = nr - k;
      }
      const auto at = static_cast<std::uint32_t>(k) * pitch_;
      AscendC::DataCopyPad(c[at], c_[row * t.d], RowsIn(run), nopad);
      AscendC::DataCopyPad(s[at], s_[row * t.d], RowsIn(run), nopad);
      k += run;
    }
    c_q_.EnQue(c);
    s_q_.EnQue(s);

    x = x_q_.DeQue<T>();
    c = c_q_.DeQue<T>();
    s = s_q_.DeQue<T>();
    const auto n = static_cast<std::int32_t>(nr * pitch_);
    AscendC::LocalTensor<float> rot = rot_.Get<float>();
    AscendC::LocalTensor<T> y = y_q_.AllocTensor<T>();
    if constexpr (kFloat) {
      Compute(x, c, s, y, rot, n);
    } else {
      AscendC::LocalTensor<float> xf = xf_.Get<float>(), cf = cf_.Get<float>(),
                                  sf = sf_.Get<float>();
      AscendC::Cast(xf, x, AscendC::RoundMode::CAST_NONE, static_cast<std::uint32_t>(n));
      AscendC::Cast(cf, c, AscendC::RoundMode::CAST_NONE, static_cast<std::uint32_t>(n));
      AscendC::Cast(sf, s, AscendC::RoundMode::CAST_NONE, static_cast<std::uint32_t>(n));
      Compute(xf, cf, sf, xf, rot, n);
      AscendC::Cast(y, xf, AscendC::RoundMode::CAST_RINT, static_cast<std::uint32_t>(n));
    }
    x_q_.FreeTensor(x);
    c_q_.FreeTensor(c);
    s_q_.FreeTensor(s);
    y_q_.EnQue(y);
    y = y_q_.DeQue<T>();
    const auto bytes = static_cast<std::uint32_t>(t.d * sizeof(T));
    AscendC::DataCopyPad(
        y_[r0 * t.d], y,
        AscendC::DataCopyExtParams(
            static_cast<std::uint16_t>(nr), bytes,
            (pitch_ * static_cast<std::uint32_t>(sizeof(T)) - round32(bytes)) / 32, 0, 0));
    y_q_.FreeTensor(y);
  }

  // out = x * cos + (sign * x[rotated]) * sin, all float, n elements (rows at pitch_).
  __aicore__ void Compute(const AscendC::LocalTensor<float>& x,
                          const AscendC::LocalTensor<float>& c,
                          const AscendC::LocalTensor<float>& s,
                          const AscendC::LocalTensor<float>& out,
                          const AscendC::LocalTensor<float>& rot, std::int32_t n) {
    AscendC::LocalTensor<std::uint32_t> tab = table_.Get<std::uint32_t>();
    AscendC::LocalTensor<float> sign = sign_.Get<float>();
    AscendC::Gather(rot, x, tab, 0u, static_cast<std::uint32_t>(n));
    AscendC::Mul(rot, rot, sign, n);
    AscendC::Mul(rot, rot, s, n);
    AscendC::Mul(out, x, c, n);
    AscendC::Add(out, out, rot, n);
  }

  const RopeTiling* t_ = nullptr;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBuffers> x_q_, c_q_, s_q_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kBuffers> y_q_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> rot_, sign_, table_, xf_, cf_, sf_;
  AscendC::GlobalTensor<T> x_, c_, s_, y_;
  std::uint32_t pitch_ = 0;
};

template <class T>
__aicore__ void run_rope(std::uint8_t* x, std::uint8_t* c, std::uint8_t* s, std::uint8_t* y,
                         const RopeTiling& t) {
  Rope<T> op;
  op.Init(x, c, s, y, t);
  op.Process();
}

}  // namespace

void permute_kernel_1(std::uint8_t* x, std::uint8_t* y, const PermuteTiling& t) {
  run_permute<std::uint8_t>(x, y, t);
}
void permute_kernel_2(std::uint8_t* x, std::uint8_t* y, const PermuteTiling& t) {
  run_permute<std::uint16_t>(x, y, t);
}
void permute_kernel_4(std::uint8_t* x, std::uint8_t* y, const PermuteTiling& t) {
  run_permute<std::uint32_t>(x, y, t);
}
void permute_kernel_8(std::uint8_t* x, std::uint8_t* y, const PermuteTiling& t) {
  run_permute<std::uint64_t>(x, y, t);
}

void embedding_kernel(std::uint8_t* weight, std::uint8_t* indices, std::uint8_t* out,
                      const EmbeddingTiling& t) {
  Embedding op;
  op.Init(weight, indices, out, t);
  op.Process();
}

void rope_kernel(std::uint8_t* x, std::uint8_t* cos, std::uint8_t* sin, std::uint8_t* out,
                 const RopeTiling& t) {
  if (t.dtype == 1) {
    run_rope<half>(x, cos, sin, out, t);
  } else if (t.dtype == 2) {
    run_rope<bfloat16_t>(x, cos, sin, out, t);
  } else {
    run_rope<float>(x, cos, sin, out, t);
  }
}

void apply_rope_kernel(std::uint8_t* q, std::uint8_t* k, std::uint8_t* cos, std::uint8_t* sin,
                       const RopeTiling& tq, const RopeTiling& tk) {
  rope_kernel(q, cos, sin, q, tq);
  rope_kernel(k, cos, sin, k, tk);
}

}  // namespace npusim::aclnn::kernels
