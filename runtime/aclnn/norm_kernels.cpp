// SPDX-License-Identifier: Apache-2.0
// Ascend C kernels of softmax, the norms and batch norm (see norm_kernels.h), written against the
// twin (kernel_operator.h): DataCopyPad tiles in and out through TQue buffers (double-buffered),
// fp32 vector math in UB. A tile of whole rows is computed with whole-tile instructions: row
// statistics by the high-level Sum / ReduceMax<AR> (column statistics by ReduceMax / ReduceSum
// <RA>), broadcast back over the tile with Broadcast (npusim/ascendc/norm_ops.h). Only a row
// longer than UB, walked in chunks, reads its statistics back with the scalar unit (GetValue).
#include "runtime/aclnn/norm_kernels.h"

#include "runtime/aclnn/norm_tiles.h"

namespace npusim::aclnn::norm {
namespace {

using namespace AscendC;
using namespace tiles;

// ---------------------------------------------------------------------------------------------
// Softmax over rows.
template <class T>
class SoftmaxOp : public RowBase<T> {
  using B = RowBase<T>;

 public:
  void Run(std::uint8_t* x, std::uint8_t* y, const RowTiling& t) {
    t_ = t;
    k8_ = round_up(t.tile_rows, kStatAlign);
    B::InitIo(x, y, t.tile_rows * t.pitch);
    B::pipe_.InitBuffer(max_, k8_ * sizeof(float));
    B::pipe_.InitBuffer(sum_, k8_ * sizeof(float));
    B::pipe_.InitBuffer(scratch_, 32 * sizeof(float));
    if (t.inner > 1 || t.chunk >= t.len)
      B::pipe_.InitBuffer(bc_, t.tile_rows * t.pitch * sizeof(float));
    if (t.inner > 1) B::pipe_.InitBuffer(part_, t.pitch * sizeof(float));
    if (t.inner > 1) {
      B::pipe_.InitBuffer(acc_, t.pitch * sizeof(float));
      B::pipe_.InitBuffer(acc2_, t.pitch * sizeof(float));
      const Range rg = my_range(t.units, t.per_block);
      for (std::int64_t u = rg.begin; u < rg.end; ++u) Columns(u);
      return;
    }
    const bool fits = t.chunk >= t.len;
    if (!fits) B::pipe_.InitBuffer(acc_, t.pitch * sizeof(float));
    const Range rg = my_range(t.rows, t.per_block);
    for (std::int64_t r = rg.begin; r < rg.end; r += t.tile_rows) {
      const auto k = static_cast<std::uint32_t>(min64(t.tile_rows, rg.end - r));
      if (fits) {
        Fits(r, k);
      } else {
        Long(r);
      }
    }
  }

 private:
  void Fits(std::int64_t r, std::uint32_t k) {
    const auto len = static_cast<std::uint32_t>(t_.len);
    const std::uint32_t p = t_.pitch;
    // Whole-tile ops: the row padding is -inf, so it takes part in neither max nor sum.
    typename B::Tile tl = B::Begin(r * t_.len, k, len, t_.len, p, true, -1);
    LocalTensor<float> mx = max_.Get<float>(), sm = sum_.Get<float>(), bc = bc_.Get<float>();
    LocalTensor<std::uint8_t> tmp = scratch_.Get<std::uint8_t>();
    const std::uint32_t shape[2] = {k, p};
    ReduceMax<float, Pattern::Reduce::AR>(mx, tl.x, tmp, shape, false);
    broadcast_rows(bc, mx, k, p);
    Sub(tl.y, tl.x, bc, k * p);
    Exp(tl.y, tl.y, k * p);
    Sum(sm, tl.y, tmp, SumParams{k, p, len});
    broadcast_rows(bc, sm, k, p);
    Div(tl.y, tl.y, bc, k * p);
    B::End(tl, r * t_.len, k, len, t_.len, p);
  }

  void Long(std::int64_t r) {
    const std::uint32_t c = t_.chunk, p = t_.pitch;
    LocalTensor<float> mx = max_.Get<float>(), sm = sum_.Get<float>(), sc = scratch_.Get<float>();
    LocalTensor<float> acc = acc_.Get<float>();
    const std::int64_t base = r * t_.len;
    for (std::int64_t c0 = 0; c0 < t_.len; c0 += c) {  // pass 1: running element-wise max
      const auto n = static_cast<std::uint32_t>(min64(c, t_.len - c0));
      typename B::Tile tl = B::Begin(base + c0, 1, n, t_.len, p, false);
      if (c0 == 0) {
        Adds(acc, tl.x, 0.0f, n);
      } else {
        Max(acc, acc, tl.x, n);
      }
      B::End(tl, 0, 1, n, t_.len, p);
    }
    ReduceMax(mx, acc, sc, c);
    const float m = mx.GetValue(0);
    for (std::int64_t c0 = 0; c0 < t_.len; c0 += c) {  // pass 2: sum of exp(x - max)
      const auto n = static_cast<std::uint32_t>(min64(c, t_.len - c0));
      typename B::Tile tl = B::Begin(base + c0, 1, n, t_.len, p, false);
      Adds(tl.y, tl.x, -m, n);
      Exp(tl.y, tl.y, n);
      if (c0 == 0) {
        Adds(acc, tl.y, 0.0f, n);
      } else {
        Add(acc, acc, tl.y, n);
      }
      B::End(tl, 0, 1, n, t_.len, p);
    }
    ReduceSum(sm, acc, sc, c);
    const float inv = 1.0f / sm.GetValue(0);
    for (std::int64_t c0 = 0; c0 < t_.len; c0 += c) {  // pass 3: the output
      const auto n = static_cast<std::uint32_t>(min64(c, t_.len - c0));
      typename B::Tile tl = B::Begin(base + c0, 1, n, t_.len, p, true);
      Adds(tl.y, tl.x, -m, n);
      Exp(tl.y, tl.y, n);
      Muls(tl.y, tl.y, inv, n);
      B::End(tl, base + c0, 1, n, t_.len, p);
    }
  }

  // Unit u = (o, column chunk) of the [outer, len, inner] view: element-wise running max and
  // sum over the axis' rows, then the output; three passes over the rows.
  void Columns(std::int64_t u) {
    const std::int64_t chunks = (t_.inner + t_.chunk - 1) / t_.chunk;
    const std::int64_t o = u / chunks;
    const std::int64_t c0 = (u % chunks) * t_.chunk;
    const auto n = static_cast<std::uint32_t>(min64(t_.chunk, t_.inner - c0));
    const std::uint32_t p = t_.pitch;
    const std::int64_t base = o * t_.len * t_.inner + c0;
    LocalTensor<float> mx = acc_.Get<float>(), sm = acc2_.Get<float>();
    LocalTensor<float> bc = bc_.Get<float>(), part = part_.Get<float>();
    LocalTensor<std::uint8_t> tmp = scratch_.Get<std::uint8_t>();
    for (int pass = 0; pass < 3; ++pass) {
      for (std::int64_t r0 = 0; r0 < t_.len; r0 += t_.tile_rows) {
        const auto k = static_cast<std::uint32_t>(min64(t_.tile_rows, t_.len - r0));
        const std::int64_t at = base + r0 * t_.inner;
        const std::uint32_t shape[2] = {k, p};  // every column of the tile (padding included)
        typename B::Tile tl = B::Begin(at, k, n, t_.inner, p, pass == 2);
        if (pass == 0) {  // column max of the tile, folded into the running max
          ReduceMax<float, Pattern::Reduce::RA>(r0 == 0 ? mx : part, tl.x, tmp, shape, false);
          if (r0 != 0) Max(mx, mx, part, p);
        } else {
          broadcast_row(bc, mx, k, p);
          Sub(tl.y, tl.x, bc, k * p);
          Exp(tl.y, tl.y, k * p);
          if (pass == 1) {  // column sums of exp(x - max)
            ReduceSum<float, Pattern::Reduce::RA>(r0 == 0 ? sm : part, tl.y, tmp, shape, false);
            if (r0 != 0) Add(sm, sm, part, p);
          } else {
            broadcast_row(bc, sm, k, p);
            Div(tl.y, tl.y, bc, k * p);
          }
        }
        B::End(tl, at, k, n, t_.inner, p);
      }
    }
  }

  RowTiling t_;
  std::uint32_t k8_ = 8;
  TBuf<TPosition::VECCALC> max_, sum_, scratch_, acc_, acc2_, bc_, part_;
};

// ---------------------------------------------------------------------------------------------
// LayerNorm / RmsNorm over rows.
template <class T>
class NormOp : public RowBase<T> {
  using B = RowBase<T>;

 public:
  void Run(std::uint8_t* x, const std::uint8_t* w, const std::uint8_t* b, std::uint8_t* y,
           std::uint8_t* mean, std::uint8_t* rstd, const RowTiling& t,
           const std::uint8_t* x2 = nullptr, std::uint8_t* x_out = nullptr) {
    t_ = t;
    k8_ = round_up(t.tile_rows, kStatAlign);
    inv_len_ = 1.0f / static_cast<float>(t.len);
    fits_ = t.chunk >= t.len;
    B::InitIo(x, y, t.tile_rows * t.pitch);
    if (x2 != nullptr) {  // AddRmsNorm: x = x1 + x2 (fp32), written to x_out
      add_ = true;
      x2_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<std::uint8_t*>(x2)));
      x_out_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x_out));
      const std::uint32_t elems = t.tile_rows * t.pitch;
      B::pipe_.InitBuffer(in2_, 2, elems * sizeof(T));
      B::pipe_.InitBuffer(xo_, 2, elems * sizeof(T));
      if constexpr (!kIsF32<T>) B::pipe_.InitBuffer(work2_, elems * sizeof(float));
    }
    B::pipe_.InitBuffer(sum_, k8_ * sizeof(float));
    B::pipe_.InitBuffer(sq_sum_, k8_ * sizeof(float));
    B::pipe_.InitBuffer(ones_, k8_ * sizeof(float));
    B::pipe_.InitBuffer(scratch_, 32 * sizeof(float));
    B::pipe_.InitBuffer(stats_, 2, 2 * k8_ * sizeof(float));
    if (fits_) {
      B::pipe_.InitBuffer(bc_, t.tile_rows * t.pitch * sizeof(float));
    } else {
      B::pipe_.InitBuffer(acc_, t.pitch * sizeof(float));
    }
    has_w_ = w != nullptr && t.has_weight;
    has_b_ = b != nullptr && t.has_bias;
    // Fits: the weight / bias row is loaded once after tile_rows rows and broadcast over them.
    const std::uint32_t param_rows = fits_ ? t.tile_rows + 1 : 1;
    if (has_w_) {
      w_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(const_cast<std::uint8_t*>(w)));
      B::pipe_.InitBuffer(wq_, 1, param_rows * t.pitch * sizeof(float));
    }
    if (has_b_) {
      b_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(const_cast<std::uint8_t*>(b)));
      B::pipe_.InitBuffer(bq_, 1, param_rows * t.pitch * sizeof(float));
    }
    mean_ = mean != nullptr;
    rstd_ = rstd != nullptr;
    if (mean_) mean_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mean));
    if (rstd_) rstd_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(rstd));
    const Range rg = my_range(t.rows, t.per_block);
    if (rg.begin >= rg.end) return;
    if (fits_) {  // the weight / bias rows, broadcast to a whole tile, stay in UB
      if (has_w_) w_ = LoadTile(wq_, w_gm_);
      if (has_b_) b_ = LoadTile(bq_, b_gm_);
    }
    for (std::int64_t r = rg.begin; r < rg.end; r += t.tile_rows) {
      const auto k = static_cast<std::uint32_t>(min64(t.tile_rows, rg.end - r));
      if (fits_) {
        Fits(r, k);
      } else {
        Long(r);
      }
    }
    if (fits_ && has_w_) wq_.FreeTensor(w_);
    if (fits_ && has_b_) bq_.FreeTensor(b_);
  }

 private:
  LocalTensor<float> LoadParam(TQue<TPosition::VECIN, 1>& q, const GlobalTensor<float>& g,
                               std::int64_t at, std::uint32_t n) {
    LocalTensor<float> v = q.AllocTensor<float>();
    copy_in(v, g[static_cast<std::uint64_t>(at)], 1, n, n, t_.pitch);
    q.EnQue(v);
    return q.DeQue<float>();
  }

  // B::Begin, then (AddRmsNorm) x += x2, stored to x_out when `store_x`.
  typename B::Tile Load(std::int64_t at, std::uint32_t k, std::uint32_t n, std::uint32_t p,
                        bool out, bool store_x) {
    typename B::Tile tl = B::Begin(at, k, n, t_.len, p, out);
    if (!add_) return tl;
    LocalTensor<T> in2 = in2_.template AllocTensor<T>();
    copy_in(in2, x2_[static_cast<std::uint64_t>(at)], k, n, t_.len, p);
    in2_.EnQue(in2);
    in2 = in2_.template DeQue<T>();
    if constexpr (kIsF32<T>) {
      Add(tl.x, tl.x, in2, k * p);
    } else {
      LocalTensor<float> w2 = work2_.template Get<float>();
      Cast(w2, in2, RoundMode::CAST_NONE, k * p);
      Add(tl.x, tl.x, w2, k * p);
    }
    in2_.FreeTensor(in2);
    if (store_x) {
      LocalTensor<T> o = xo_.template AllocTensor<T>();
      if constexpr (kIsF32<T>) {
        Adds(o, tl.x, 0.0f, k * p);
      } else {
        Cast(o, tl.x, RoundMode::CAST_RINT, k * p);
      }
      xo_.EnQue(o);
      o = xo_.template DeQue<T>();
      copy_out(x_out_[static_cast<std::uint64_t>(at)], o, k, n, t_.len, p);
      xo_.FreeTensor(o);
    }
    return tl;
  }

  LocalTensor<float> LoadTile(TQue<TPosition::VECIN, 1>& q, const GlobalTensor<float>& g) {
    LocalTensor<float> v = q.AllocTensor<float>();
    const std::uint32_t last = t_.tile_rows * t_.pitch;
    copy_in(v[last], g, 1, static_cast<std::uint32_t>(t_.len), t_.len, t_.pitch);
    q.EnQue(v);
    v = q.DeQue<float>();
    broadcast_row(v, v[last], t_.tile_rows, t_.pitch);
    return v;
  }

  // rstd[0..k) = 1 / sqrt(sq_sum / len + eps); mean[0..k) = sum / len.
  LocalTensor<float> Stats(std::uint32_t k) {
    LocalTensor<float> st = stats_.AllocTensor<float>();
    Rstd(st[k8_], k);
    if (!t_.rms) Muls(st, sum_.Get<float>(), inv_len_, k);
    return st;
  }
  void Rstd(const LocalTensor<float>& rs, std::uint32_t k) {
    LocalTensor<float> ones = ones_.Get<float>();
    Muls(rs, sq_sum_.Get<float>(), inv_len_, k);
    Adds(rs, rs, t_.eps, k);
    Sqrt(rs, rs, k);
    Duplicate(ones, 1.0f, k);
    Div(rs, ones, rs, k);
  }

  void StoreStats(LocalTensor<float>& st, std::int64_t r, std::uint32_t k) {
    stats_.EnQue(st);
    LocalTensor<float> s = stats_.DeQue<float>();
    if (mean_) copy_out(mean_gm_[static_cast<std::uint64_t>(r)], s, 1, k, k, k8_);
    if (rstd_) copy_out(rstd_gm_[static_cast<std::uint64_t>(r)], s[k8_], 1, k, k, k8_);
    stats_.FreeTensor(s);
  }

  void Fits(std::int64_t r, std::uint32_t k) {
    const auto len = static_cast<std::uint32_t>(t_.len);
    const std::uint32_t p = t_.pitch;
    // Whole-tile ops; row statistics broadcast over the rows (no scalar work per row).
    typename B::Tile tl = Load(r * t_.len, k, len, p, true, true);
    LocalTensor<float> sum = sum_.Get<float>(), sq_sum = sq_sum_.Get<float>();
    LocalTensor<float> bc = bc_.Get<float>();
    LocalTensor<std::uint8_t> tmp = scratch_.Get<std::uint8_t>();
    const SumParams rows{k, p, len};
    const std::uint32_t n = k * p;
    if (!t_.rms) {
      Sum(sum, tl.x, tmp, rows);
      Muls(sum, sum, inv_len_, k);  // the mean
      broadcast_rows(bc, sum, k, p);
      Sub(tl.y, tl.x, bc, n);
      Mul(bc, tl.y, tl.y, n);
    } else {
      Mul(bc, tl.x, tl.x, n);
    }
    Sum(sq_sum, bc, tmp, rows);
    LocalTensor<float> st = stats_.AllocTensor<float>();
    if (!t_.rms) Adds(st, sum, 0.0f, k);
    Rstd(st[k8_], k);
    broadcast_rows(bc, st[k8_], k, p);
    Mul(tl.y, t_.rms ? tl.x : tl.y, bc, n);
    if (has_w_) Mul(tl.y, tl.y, w_, n);
    if (has_b_) Add(tl.y, tl.y, b_, n);
    B::End(tl, r * t_.len, k, len, t_.len, p);
    StoreStats(st, r, k);
  }

  void Long(std::int64_t r) {
    const std::uint32_t c = t_.chunk, p = t_.pitch;
    LocalTensor<float> sum = sum_.Get<float>(), sq_sum = sq_sum_.Get<float>();
    LocalTensor<float> sc = scratch_.Get<float>(), acc = acc_.Get<float>();
    const std::int64_t base = r * t_.len;
    float m = 0;
    if (!t_.rms) {  // pass 1: the mean
      for (std::int64_t c0 = 0; c0 < t_.len; c0 += c) {
        const auto n = static_cast<std::uint32_t>(min64(c, t_.len - c0));
        typename B::Tile tl = Load(base + c0, 1, n, p, false, false);
        if (c0 == 0) {
          Adds(acc, tl.x, 0.0f, n);
        } else {
          Add(acc, acc, tl.x, n);
        }
        B::End(tl, 0, 1, n, t_.len, p);
      }
      ReduceSum(sum, acc, sc, c);
      m = sum.GetValue(0) * inv_len_;
    }
    for (std::int64_t c0 = 0; c0 < t_.len; c0 += c) {  // pass 2: sum of squares
      const auto n = static_cast<std::uint32_t>(min64(c, t_.len - c0));
      typename B::Tile tl = Load(base + c0, 1, n, p, false, false);
      if (!t_.rms) {
        Adds(tl.y, tl.x, -m, n);
        Mul(tl.y, tl.y, tl.y, n);
      } else {
        Mul(tl.y, tl.x, tl.x, n);
      }
      if (c0 == 0) {
        Adds(acc, tl.y, 0.0f, n);
      } else {
        Add(acc, acc, tl.y, n);
      }
      B::End(tl, 0, 1, n, t_.len, p);
    }
    ReduceSum(sq_sum, acc, sc, c);
    LocalTensor<float> st = Stats(1);
    const float rs = st.GetValue(k8_);
    for (std::int64_t c0 = 0; c0 < t_.len; c0 += c) {  // pass 3: the output
      const auto n = static_cast<std::uint32_t>(min64(c, t_.len - c0));
      typename B::Tile tl = Load(base + c0, 1, n, p, true, true);
      if (!t_.rms) {
        Adds(tl.y, tl.x, -m, n);
        Muls(tl.y, tl.y, rs, n);
      } else {
        Muls(tl.y, tl.x, rs, n);
      }
      if (has_w_) {
        LocalTensor<float> w = LoadParam(wq_, w_gm_, c0, n);
        Mul(tl.y, tl.y, w, n);
        wq_.FreeTensor(w);
      }
      if (has_b_) {
        LocalTensor<float> bb = LoadParam(bq_, b_gm_, c0, n);
        Add(tl.y, tl.y, bb, n);
        bq_.FreeTensor(bb);
      }
      B::End(tl, base + c0, 1, n, t_.len, p);
    }
    StoreStats(st, r, 1);
  }

  RowTiling t_;
  std::uint32_t k8_ = 8;
  float inv_len_ = 1;
  bool fits_ = true, has_w_ = false, has_b_ = false, mean_ = false, rstd_ = false, add_ = false;
  TQue<TPosition::VECIN, 2> in2_;
  TQue<TPosition::VECOUT, 2> xo_;
  TBuf<TPosition::VECCALC> work2_;
  GlobalTensor<T> x2_, x_out_;
  TBuf<TPosition::VECCALC> sum_, sq_sum_, ones_, scratch_, bc_, acc_;
  TQue<TPosition::VECIN, 1> wq_, bq_;
  TQue<TPosition::VECOUT, 2> stats_;
  LocalTensor<float> w_, b_;
  GlobalTensor<float> w_gm_, b_gm_, mean_gm_, rstd_gm_;
};

// ---------------------------------------------------------------------------------------------
// Per-row affine map y = x * scale[c] + shift[c] (batch norm inference).
template <class T>
class AffineRowsOp : public RowBase<T> {
  using B = RowBase<T>;

 public:
  void Run(std::uint8_t* x, const std::uint8_t* scale, const std::uint8_t* shift, std::uint8_t* y,
           const RowTiling& t) {
    B::InitIo(x, y, t.tile_rows * t.pitch);
    scale_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(const_cast<std::uint8_t*>(scale)));
    shift_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(const_cast<std::uint8_t*>(shift)));
    const Range rg = my_range(t.rows, t.per_block);
    const bool fits = t.chunk >= t.len;
    const std::uint32_t p = t.pitch, k8 = round_up(t.tile_rows, kStatAlign);
    if (fits) {
      B::pipe_.InitBuffer(bc_, t.tile_rows * p * sizeof(float));
      B::pipe_.InitBuffer(coef_, 2, 2 * k8 * sizeof(float));
    }
    // scale / shift hold one value per row (per (n, c) plane).
    for (std::int64_t r = rg.begin; r < rg.end; r += t.tile_rows) {
      const auto k = static_cast<std::uint32_t>(min64(t.tile_rows, rg.end - r));
      if (fits) {  // the rows' coefficients broadcast over the tile
        const auto len = static_cast<std::uint32_t>(t.len);
        typename B::Tile tl = B::Begin(r * t.len, k, len, t.len, p, true);
        LocalTensor<float> cf = coef_.AllocTensor<float>();
        copy_in(cf, scale_[static_cast<std::uint64_t>(r)], 1, k, k, k8);
        copy_in(cf[k8], shift_[static_cast<std::uint64_t>(r)], 1, k, k, k8);
        coef_.EnQue(cf);
        cf = coef_.DeQue<float>();
        LocalTensor<float> bc = bc_.Get<float>();
        broadcast_rows(bc, cf, k, p);
        Mul(tl.y, tl.x, bc, k * p);
        broadcast_rows(bc, cf[k8], k, p);
        Add(tl.y, tl.y, bc, k * p);
        coef_.FreeTensor(cf);
        B::End(tl, r * t.len, k, len, t.len, p);
        continue;
      }
      const float s = scale_.GetValue(static_cast<std::uint64_t>(r));
      const float h = shift_.GetValue(static_cast<std::uint64_t>(r));
      for (std::int64_t c0 = 0; c0 < t.len; c0 += t.chunk) {
        const auto n = static_cast<std::uint32_t>(min64(t.chunk, t.len - c0));
        typename B::Tile tl = B::Begin(r * t.len + c0, 1, n, t.len, p, true);
        Muls(tl.y, tl.x, s, n);
        Adds(tl.y, tl.y, h, n);
        B::End(tl, r * t.len + c0, 1, n, t.len, p);
      }
    }
  }

 private:
  GlobalTensor<float> scale_, shift_;
  TBuf<TPosition::VECCALC> bc_;
  TQue<TPosition::VECIN, 2> coef_;
};

}  // namespace

void softmax_kernel(std::uint8_t* x, std::uint8_t* y, const RowTiling& t) {
  dispatch<SoftmaxOp>(t.dt, x, y, t);
}

void norm_kernel(std::uint8_t* x, const std::uint8_t* w, const std::uint8_t* b, std::uint8_t* y,
                 std::uint8_t* mean, std::uint8_t* rstd, const RowTiling& t) {
  dispatch<NormOp>(t.dt, x, w, b, y, mean, rstd, t);
}

void add_rms_norm_kernel(std::uint8_t* x1, const std::uint8_t* x2, const std::uint8_t* gamma,
                         std::uint8_t* y, std::uint8_t* rstd, std::uint8_t* x_out,
                         const RowTiling& t) {
  dispatch<NormOp>(t.dt, x1, gamma, nullptr, y, nullptr, rstd, t, x2, x_out);
}

void affine_rows_kernel(std::uint8_t* x, const std::uint8_t* scale, const std::uint8_t* shift,
                        std::uint8_t* y, const RowTiling& t) {
  dispatch<AffineRowsOp>(t.dt, x, scale, shift, y, t);
}

void bn_stats_kernel(const std::uint8_t* w, const std::uint8_t* b, const std::uint8_t* mean,
                     const std::uint8_t* var, std::uint8_t* scale, std::uint8_t* shift,
                     std::uint8_t* save_mean, std::uint8_t* save_invstd, const ChannelTiling& t) {
  TPipe pipe;
  TQue<TPosition::VECIN, 4> in;
  TQue<TPosition::VECOUT, 4> out;
  TBuf<TPosition::VECCALC> ones_buf;
  pipe.InitBuffer(in, 4, t.tile * sizeof(float));
  pipe.InitBuffer(out, 4, t.tile * sizeof(float));
  pipe.InitBuffer(ones_buf, t.tile * sizeof(float));
  auto gm = [](const std::uint8_t* p) {
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(const_cast<std::uint8_t*>(p)));
    return g;
  };
  LocalTensor<float> ones = ones_buf.Get<float>();
  Duplicate(ones, 1.0f, static_cast<std::int32_t>(t.tile));
  for (std::int64_t c0 = 0; c0 < t.channels; c0 += t.tile) {
    const auto n = static_cast<std::uint32_t>(min64(t.tile, t.channels - c0));
    const auto at = static_cast<std::uint64_t>(c0);
    auto load = [&](const std::uint8_t* p) {
      LocalTensor<float> v = in.AllocTensor<float>();
      copy_in(v, gm(p)[at], 1, n, n, t.tile);
      in.EnQue(v);
      return in.DeQue<float>();
    };
    LocalTensor<float> m = load(mean), v = load(var);
    LocalTensor<float> inv = out.AllocTensor<float>(), sc = out.AllocTensor<float>();
    LocalTensor<float> sh = out.AllocTensor<float>(), sm = out.AllocTensor<float>();
    Adds(inv, v, t.eps, n);  // invstd = 1 / sqrt(var + eps)
    Sqrt(inv, inv, n);
    Div(inv, ones, inv, n);
    if (w != nullptr) {
      LocalTensor<float> wt = load(w);
      Mul(sc, wt, inv, n);
      in.FreeTensor(wt);
    } else {
      Adds(sc, inv, 0.0f, n);
    }
    Mul(sh, m, sc, n);  // shift = b - mean * scale
    if (b != nullptr) {
      LocalTensor<float> bt = load(b);
      Sub(sh, bt, sh, n);
      in.FreeTensor(bt);
    } else {
      Muls(sh, sh, -1.0f, n);
    }
    Adds(sm, m, 0.0f, n);
    in.FreeTensor(m);
    in.FreeTensor(v);
    // copies: scale / shift are written once per batch entry (one value per (n, c) plane).
    auto store = [&](LocalTensor<float>& t_ub, std::uint8_t* p, std::int64_t copies) {
      out.EnQue(t_ub);
      LocalTensor<float> o = out.DeQue<float>();
      for (std::int64_t i = 0; p != nullptr && i < copies; ++i)
        copy_out(gm(p)[static_cast<std::uint64_t>(i * t.channels) + at], o, 1, n, n, t.tile);
      out.FreeTensor(o);
    };
    store(sc, scale, t.batch);
    store(sh, shift, t.batch);
    store(sm, save_mean, 1);
    store(inv, save_invstd, 1);
  }
}

}  // namespace npusim::aclnn::norm
