// SPDX-License-Identifier: Apache-2.0
// Ascend C kernels of the reductions (reduce.cpp) and the element type conversions of the norm
// family: rows of the last axis reduced by Sum / ReduceMax / ReduceMin<AR> on whole tiles (rows
// longer than UB in chunks), other axes column-wise by ReduceSum / ReduceMax / ReduceMin<RA>
// folded into a running result; see norm_kernels.h.
#include "runtime/aclnn/norm_tiles.h"

namespace npusim::aclnn::norm {
namespace {

using namespace AscendC;
using namespace tiles;

// ---------------------------------------------------------------------------------------------
// Reductions: y[o, i] = scale * reduce_r x[o, r, i].
template <class T>
class ReduceOp : public RowBase<T> {
  using B = RowBase<T>;

 public:
  void Run(std::uint8_t* x, std::uint8_t* y, const ReduceTiling& t) {
    t_ = t;
    B::InitIo(x, nullptr, t.tile_rows * t.pitch);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    B::pipe_.InitBuffer(scratch_, 32 * sizeof(float));
    const std::uint32_t res = t.inner == 1 ? round_up(t.tile_rows, kStatAlign) : t.pitch;
    B::pipe_.InitBuffer(res_, 2, res * sizeof(float));
    if (t.inner == 1 && t.chunk < t.len) B::pipe_.InitBuffer(acc_, t.pitch * sizeof(float));
    if (t.inner > 1) B::pipe_.InitBuffer(part_, t.pitch * sizeof(float));
    const Range rg = my_range(t.units, t.per_block);
    if (t.inner == 1) {
      for (std::int64_t r = rg.begin; r < rg.end; r += t.tile_rows) {
        const auto k = static_cast<std::uint32_t>(min64(t.tile_rows, rg.end - r));
        Rows(r, k);
      }
    } else {
      for (std::int64_t u = rg.begin; u < rg.end; ++u) Columns(u);
    }
  }

 private:
  void Combine(const LocalTensor<float>& acc, const LocalTensor<float>& x, std::uint32_t n) {
    switch (t_.kind) {
      case ReduceKind::kMax:
        Max(acc, acc, x, n);
        break;
      case ReduceKind::kMin:
        Min(acc, acc, x, n);
        break;
      case ReduceKind::kSum:
        Add(acc, acc, x, n);
        break;
    }
  }
  void Whole(const LocalTensor<float>& dst, const LocalTensor<float>& x, std::uint32_t n) {
    const auto count = static_cast<std::int32_t>(n);
    switch (t_.kind) {
      case ReduceKind::kMax:
        ReduceMax(dst, x, scratch_.Get<float>(), count);
        break;
      case ReduceKind::kMin:
        ReduceMin(dst, x, scratch_.Get<float>(), count);
        break;
      case ReduceKind::kSum:
        ReduceSum(dst, x, scratch_.Get<float>(), count);
        break;
    }
  }
  void Store(LocalTensor<float>& res, std::int64_t at, std::uint32_t n) {
    if (t_.scale != 1.0f) Muls(res, res, t_.scale, n);
    res_.EnQue(res);
    LocalTensor<float> o = res_.DeQue<float>();
    copy_out(y_[static_cast<std::uint64_t>(at)], o, 1, n, n, round_up(n, kStatAlign));
    res_.FreeTensor(o);
  }

  // Rows r..r+k of the [outer, len] view (inner == 1).
  void Rows(std::int64_t r, std::uint32_t k) {
    const std::uint32_t p = t_.pitch, c = t_.chunk;
    LocalTensor<float> res = res_.AllocTensor<float>();
    if (c >= t_.len) {
      const auto len = static_cast<std::uint32_t>(t_.len);
      // Max / min: the row padding is -inf / +inf, so whole padded rows are reduced.
      const int pad = t_.kind == ReduceKind::kMax ? -1 : t_.kind == ReduceKind::kMin ? 1 : 0;
      typename B::Tile tl = B::Begin(r * t_.len, k, len, t_.len, p, false, pad);
      LocalTensor<std::uint8_t> tmp = scratch_.Get<std::uint8_t>();
      const std::uint32_t shape[2] = {k, p};
      switch (t_.kind) {
        case ReduceKind::kMax:
          ReduceMax<float, Pattern::Reduce::AR>(res, tl.x, tmp, shape, false);
          break;
        case ReduceKind::kMin:
          ReduceMin<float, Pattern::Reduce::AR>(res, tl.x, tmp, shape, false);
          break;
        case ReduceKind::kSum:
          Sum(res, tl.x, tmp, SumParams{k, p, len});
          break;
      }
      B::End(tl, 0, k, len, t_.len, p);
    } else {
      LocalTensor<float> acc = acc_.Get<float>();
      for (std::int64_t c0 = 0; c0 < t_.len; c0 += c) {
        const auto n = static_cast<std::uint32_t>(min64(c, t_.len - c0));
        typename B::Tile tl = B::Begin(r * t_.len + c0, 1, n, t_.len, p, false);
        if (c0 == 0) {
          Adds(acc, tl.x, 0.0f, n);
        } else {
          Combine(acc, tl.x, n);
        }
        B::End(tl, 0, 1, n, t_.len, p);
      }
      Whole(res, acc, c);
    }
    Store(res, r, k);
  }

  // Unit u = (o, column chunk): the running result stays in one output tile.
  void Columns(std::int64_t u) {
    const std::int64_t chunks = (t_.inner + t_.chunk - 1) / t_.chunk;
    const std::int64_t o = u / chunks;
    const std::int64_t c0 = (u % chunks) * t_.chunk;
    const auto n = static_cast<std::uint32_t>(min64(t_.chunk, t_.inner - c0));
    const std::uint32_t p = t_.pitch;
    LocalTensor<float> acc = res_.AllocTensor<float>();
    for (std::int64_t r0 = 0; r0 < t_.len; r0 += t_.tile_rows) {
      const auto k = static_cast<std::uint32_t>(min64(t_.tile_rows, t_.len - r0));
      const std::int64_t at = (o * t_.len + r0) * t_.inner + c0;
      typename B::Tile tl = B::Begin(at, k, n, t_.inner, p, false);
      // Column reduction of the tile (every column of the pitch: they are independent), folded
      // into the running result.
      LocalTensor<std::uint8_t> tmp = scratch_.Get<std::uint8_t>();
      LocalTensor<float> dst = r0 == 0 ? acc : part_.Get<float>();
      const std::uint32_t shape[2] = {k, p};
      switch (t_.kind) {
        case ReduceKind::kMax:
          ReduceMax<float, Pattern::Reduce::RA>(dst, tl.x, tmp, shape, false);
          break;
        case ReduceKind::kMin:
          ReduceMin<float, Pattern::Reduce::RA>(dst, tl.x, tmp, shape, false);
          break;
        case ReduceKind::kSum:
          ReduceSum<float, Pattern::Reduce::RA>(dst, tl.x, tmp, shape, false);
          break;
      }
      if (r0 != 0) Combine(acc, dst, p);
      B::End(tl, 0, k, n, t_.inner, p);
    }
    Store(acc, o * t_.inner + c0, n);
  }

  ReduceTiling t_;
  TBuf<TPosition::VECCALC> scratch_, acc_, part_;
  TQue<TPosition::VECOUT, 2> res_;
  GlobalTensor<float> y_;
};

// ---------------------------------------------------------------------------------------------
template <class S, class D>
void cast_run(std::uint8_t* src, std::uint8_t* dst, const CastTiling& t) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> in;
  TQue<TPosition::VECOUT, 2> out;
  pipe.InitBuffer(in, 2, t.tile * sizeof(S));
  pipe.InitBuffer(out, 2, t.tile * sizeof(D));
  GlobalTensor<S> s;
  GlobalTensor<D> d;
  s.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(src));
  d.SetGlobalBuffer(reinterpret_cast<__gm__ D*>(dst));
  const Range rg = my_range(t.count, t.per_block);
  for (std::int64_t i = rg.begin; i < rg.end; i += t.tile) {
    const auto n = static_cast<std::uint32_t>(min64(t.tile, rg.end - i));
    LocalTensor<S> a = in.AllocTensor<S>();
    copy_in(a, s[static_cast<std::uint64_t>(i)], 1, n, n, t.tile);
    in.EnQue(a);
    a = in.DeQue<S>();
    LocalTensor<D> b = out.AllocTensor<D>();
    Cast(b, a, kIsF32<D> ? RoundMode::CAST_NONE : RoundMode::CAST_RINT, n);
    in.FreeTensor(a);
    out.EnQue(b);
    b = out.DeQue<D>();
    copy_out(d[static_cast<std::uint64_t>(i)], b, 1, n, n, t.tile);
    out.FreeTensor(b);
  }
}

}  // namespace

void cast_kernel(std::uint8_t* src, std::uint8_t* dst, const CastTiling& t) {
  if (t.src == Dt::kF32 && t.dst == Dt::kF16) cast_run<float, half>(src, dst, t);
  if (t.src == Dt::kF32 && t.dst == Dt::kBf16) cast_run<float, bfloat16_t>(src, dst, t);
  if (t.src == Dt::kF16 && t.dst == Dt::kF32) cast_run<half, float>(src, dst, t);
  if (t.src == Dt::kBf16 && t.dst == Dt::kF32) cast_run<bfloat16_t, float>(src, dst, t);
}

void reduce_kernel(std::uint8_t* x, std::uint8_t* y, const ReduceTiling& t) {
  dispatch<ReduceOp>(t.dt, x, y, t);
}

}  // namespace npusim::aclnn::norm
