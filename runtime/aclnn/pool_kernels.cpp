// SPDX-License-Identifier: Apache-2.0
// Ascend C kernel of 2-D max / average pooling (see pool_kernels.h).
#include "runtime/aclnn/pool_kernels.h"

#include <cstdint>

#include "kernel_operator.h"
#include "runtime/aclnn/kernel_common.h"

namespace npusim::aclnn::kernels {

AxisWindow axis_window(const PoolTiling& t, bool rows, std::int64_t o) {
  const std::int64_t in = rows ? t.h : t.w, out = rows ? t.ho : t.wo;
  AxisWindow a;
  if (t.adaptive) {
    a.start = o * in / out;
    const std::int64_t end = ((o + 1) * in + out - 1) / out;
    a.taps = end - a.start;
    a.factor = a.taps;
    return a;
  }
  const std::int64_t k = rows ? t.kh : t.kw, s = rows ? t.sh : t.sw, p = rows ? t.ph : t.pw;
  a.start = o * s - p;
  a.taps = k;
  std::int64_t end = a.start + k;
  if (end > in + p) end = in + p;
  const std::int64_t padded = end - a.start;
  const std::int64_t lo = a.start < 0 ? 0 : a.start;
  const std::int64_t hi = end > in ? in : end;
  a.factor = t.count_include_pad ? padded : hi - lo;
  if (a.factor < 1) a.factor = 1;
  return a;
}

namespace {

template <class T>
class Pool {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR y, GM_ADDR idx, const PoolTiling& t) {
    t_ = &t;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x));
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y));
    if (t.indices) idx_.SetGlobalBuffer(reinterpret_cast<__gm__ std::int32_t*>(idx));
    pitch_ = round32((t.w + 1) * es) / es;
    opitch_ = static_cast<std::uint32_t>((t.wo + 15) / 16 * 16);
    taps_w_ = t.kw;
    if (t.rowwise) {
      taps_w_ = 1;
      for (std::int64_t ow = 0; ow < t.wo; ++ow) {
        const std::int64_t taps = axis_window(t, false, ow).taps;
        if (taps > taps_w_) taps_w_ = taps;
      }
    }
    const std::uint32_t band_out = static_cast<std::uint32_t>(t.band) * opitch_;
    tab_n_ = t.rowwise ? opitch_ : band_out;  // elements per tap table
    pipe_.InitBuffer(in_q_, kBuffers, static_cast<std::uint32_t>(t.band_in) * pitch_ * es);
    pipe_.InitBuffer(out_q_, kBuffers, band_out * es);
    pipe_.InitBuffer(tmp_buf_, tab_n_ * es);
    pipe_.InitBuffer(coltab_buf_, static_cast<std::uint32_t>(taps_w_) * tab_n_ * 4);
    tmp_ = tmp_buf_.Get<T>();
    coltab_ = coltab_buf_.Get<std::uint32_t>();
    if (t.indices) {
      pipe_.InitBuffer(idx_q_, kBuffers, band_out * 4);
      pipe_.InitBuffer(idxf_buf_, band_out * 4);
      pipe_.InitBuffer(cand_buf_, band_out * 4);
      pipe_.InitBuffer(mask_buf_, round32(band_out / 8));
      pipe_.InitBuffer(candtab_buf_, static_cast<std::uint32_t>(taps_w_) * tab_n_ * 4);
      idxf_ = idxf_buf_.Get<float>();
      cand_ = cand_buf_.Get<float>();
      mask_ = mask_buf_.Get<std::uint8_t>();
      candtab_ = candtab_buf_.Get<float>();
    }
    if (!t.max) {
      pipe_.InitBuffer(wrecip_buf_, tab_n_ * 4);
      wrecip_ = wrecip_buf_.Get<float>();
      if constexpr (!kFloat) {
        pipe_.InitBuffer(accf_buf_, band_out * 4);
        pipe_.InitBuffer(tmpf_buf_, tab_n_ * 4);
        accf_ = accf_buf_.Get<float>();
        tmpf_ = tmpf_buf_.Get<float>();
      }
    }
    BuildTables();
  }

  __aicore__ void Process() {
    const PoolTiling& t = *t_;
    const std::int64_t first = AscendC::GetBlockIdx() * t.units_per_block;
    std::int64_t last = first + t.units_per_block;
    if (last > t.units) last = t.units;
    for (std::int64_t u = first; u < last; ++u) {
      if (t.rowwise) {
        UnitRowwise(u / t.bands, u % t.bands);
      } else {
        UnitBand(u);
      }
    }
  }

 private:
  static constexpr std::uint32_t es = sizeof(T);
  static constexpr bool kFloat = sizeof(T) == 4;

  // Per tap j: byte offsets of the input columns of every output element of a band (or of one
  // row), the pad element for columns outside the plane; the candidate indices (r * sh * W + iw)
  // for max indices; the reciprocal column factors of averages. Row 0 by the scalar unit, the
  // other rows by the vector unit (+ r * sh rows).
  __aicore__ void BuildTables() {
    const PoolTiling& t = *t_;
    const std::int64_t step = t.rowwise ? 1 : t.dw;
    for (std::uint32_t ow = 0; ow < opitch_; ++ow) {
      AxisWindow a;
      if (ow < t.wo) a = axis_window(t, false, ow);
      for (std::int64_t j = 0; j < taps_w_; ++j) {
        const std::int64_t iw = j < a.taps ? a.start + j * step : -1;
        const bool valid = iw >= 0 && iw < t.w;
        coltab_.SetValue(static_cast<std::uint32_t>(j) * tab_n_ + ow,
                         static_cast<std::uint32_t>((valid ? iw : t.w) * es));
      }
      if (!t.max) wrecip_.SetValue(ow, ow < t.wo ? 1.0f / static_cast<float>(a.factor) : 0.0f);
    }
    AscendC::SetFlag<AscendC::HardEvent::S_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(0);
    if (t.indices) {  // candidate columns = byte offsets / element size (W for the pad element)
      for (std::int64_t j = 0; j < taps_w_; ++j) {
        const auto at = static_cast<std::uint32_t>(j) * tab_n_;
        AscendC::Cast(candtab_[at], coltab_[at].template ReinterpretCast<std::int32_t>(),
                      AscendC::RoundMode::CAST_NONE, opitch_);
        AscendC::Muls(candtab_[at], candtab_[at], 1.0f / static_cast<float>(es),
                      static_cast<std::int32_t>(opitch_));
      }
    }
    if (t.rowwise) return;
    // Rows [r, r + cnt) = rows [0, cnt) shifted by r rows: log2(band) steps per table.
    for (std::uint32_t r = 1; r < t.band; r *= 2) {
      const std::uint32_t cnt = t.band - r < r ? static_cast<std::uint32_t>(t.band - r) : r;
      const auto n = static_cast<std::int32_t>(cnt * opitch_);
      for (std::int64_t j = 0; j < taps_w_; ++j) {
        const auto base = static_cast<std::uint32_t>(j) * tab_n_;
        const auto at = base + r * opitch_;
        AscendC::Adds(coltab_[at], coltab_[base],
                      static_cast<std::uint32_t>(r * t.sh * pitch_ * es), n);
        if (t.indices) {
          AscendC::Adds(candtab_[at], candtab_[base], static_cast<float>(r * t.sh * t.w), n);
        }
      }
      if (!t.max) AscendC::Adds(wrecip_[r * opitch_], wrecip_, 0.0f, n);
    }
  }

  // One band of output rows: flat (across planes) or inside one plane with padding rows.
  // (Not split into functions: the twin charges scalar time per basic block run, and every
  // split tried changed the kernel's blocks, so its simulated time.)
  __aicore__ void UnitBand(std::int64_t u) {
    const PoolTiling& t = *t_;
    std::int64_t nb, top, src_row, dst, oh0 = 0;
    if (t.flat) {
      const std::int64_t q0 = u * t.band, total = t.planes * t.ho;
      nb = total - q0 < t.band ? total - q0 : t.band;
      top = 0;
      src_row = q0 * t.sh;
      dst = q0 * t.wo;
    } else {
      const std::int64_t plane = u / t.bands;
      oh0 = (u % t.bands) * t.band;
      nb = t.ho - oh0 < t.band ? t.ho - oh0 : t.band;
      top = oh0 * t.sh - t.ph;
      src_row = plane * t.h + (top < 0 ? 0 : top);
      dst = (plane * t.ho + oh0) * t.wo;
    }
    const std::int64_t rows = (nb - 1) * t.sh + (t.kh - 1) * t.dh + 1;
    const std::int64_t lead = top < 0 ? -top : 0;  // padding rows above the plane
    std::int64_t valid = rows - lead;
    if (!t.flat && top + rows > t.h) valid = t.h - (top + lead);
    const T pad = t.max ? T(-__builtin_inff()) : T(0.0f);
    AscendC::LocalTensor<T> x = in_q_.AllocTensor<T>();
    if (lead > 0) AscendC::Duplicate(x, pad, static_cast<std::int32_t>(lead * pitch_));
    if (lead + valid < rows) {
      AscendC::Duplicate(x[static_cast<std::uint32_t>((lead + valid) * pitch_)], pad,
                         static_cast<std::int32_t>((rows - lead - valid) * pitch_));
    }
    if (valid > 0) {
      AscendC::DataCopyPad(
          x[static_cast<std::uint32_t>(lead * pitch_)], x_[src_row * t.w],
          AscendC::DataCopyExtParams(static_cast<std::uint16_t>(valid),
                                     static_cast<std::uint32_t>(t.w * es), 0, 0, 0),
          AscendC::DataCopyPadExtParams<T>(true, 0, 1, pad));
    }
    in_q_.EnQue(x);
    x = in_q_.DeQue<T>();
    AscendC::LocalTensor<T> y = out_q_.AllocTensor<T>();
    const auto n = static_cast<std::uint32_t>(nb) * opitch_;
    const auto ni = static_cast<std::int32_t>(n);
    AscendC::LocalTensor<float> acc;
    if (t.max) {
      AscendC::Duplicate(y, T(-__builtin_inff()), ni);
      if (t.indices) AscendC::Duplicate(idxf_, 0.0f, ni);
    } else {
      if constexpr (kFloat) acc = y;
      else acc = accf_;
      AscendC::Duplicate(acc, 0.0f, ni);
    }
    for (std::int64_t i = 0; i < t.kh; ++i) {
      const auto base = static_cast<std::uint32_t>(i * t.dh * pitch_ * es);
      for (std::int64_t j = 0; j < t.kw; ++j) {
        const auto col = static_cast<std::uint32_t>(j) * tab_n_;
        AscendC::Gather(tmp_, x, coltab_[col], base, n);
        if (t.max) {
          if (t.indices) {
            AscendC::Compare(mask_, tmp_, y, AscendC::CMPMODE::GT, n);
            AscendC::Adds(cand_, candtab_[col], static_cast<float>((top + i * t.dh) * t.w), ni);
            AscendC::Select(idxf_, mask_, cand_, idxf_, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE,
                            n);
          }
          AscendC::Max(y, y, tmp_, ni);
        } else if constexpr (kFloat) {
          AscendC::Add(acc, acc, tmp_, ni);
        } else {
          AscendC::Cast(tmpf_, tmp_, AscendC::RoundMode::CAST_NONE, n);
          AscendC::Add(acc, acc, tmpf_, ni);
        }
      }
    }
    in_q_.FreeTensor(x);
    if (!t.max) Scale(acc, y, oh0, nb);
    if (t.indices) {
      AscendC::LocalTensor<std::int32_t> yi = idx_q_.AllocTensor<std::int32_t>();
      AscendC::Cast(yi, idxf_, AscendC::RoundMode::CAST_RINT, n);
      idx_q_.EnQue(yi);
    }
    Out(y, dst, nb);
  }

  // Average: divide by the divisor (separable row x column factors), store as T.
  __aicore__ void Scale(const AscendC::LocalTensor<float>& acc, const AscendC::LocalTensor<T>& y,
                        std::int64_t oh0, std::int64_t nb) {
    const PoolTiling& t = *t_;
    const auto n = static_cast<std::int32_t>(nb * opitch_);
    if (t.divisor > 0) {
      AscendC::Muls(acc, acc, 1.0f / static_cast<float>(t.divisor), n);
    } else {
      // Row factors: one Muls when the band's rows share theirs (always when flat), else per row.
      const std::int64_t f0 = t.flat ? t.kh : axis_window(t, true, oh0).factor;
      bool same = true;
      for (std::int64_t r = 1; r < nb && !t.flat; ++r)
        same = same && axis_window(t, true, oh0 + r).factor == f0;
      if (same) {
        AscendC::Muls(acc, acc, 1.0f / static_cast<float>(f0), n);
      } else {
        for (std::int64_t r = 0; r < nb; ++r) {
          AscendC::Muls(acc[static_cast<std::uint32_t>(r) * opitch_],
                        acc[static_cast<std::uint32_t>(r) * opitch_],
                        1.0f / static_cast<float>(axis_window(t, true, oh0 + r).factor),
                        static_cast<std::int32_t>(opitch_));
        }
      }
      AscendC::Mul(acc, acc, wrecip_, n);
    }
    if constexpr (!kFloat) {
      AscendC::Cast(y, acc, AscendC::RoundMode::CAST_RINT, static_cast<std::uint32_t>(n));
    }
  }

  // Output rows (and indices) back to GM.
  __aicore__ void Out(AscendC::LocalTensor<T> y, std::int64_t dst, std::int64_t nb) {
    const PoolTiling& t = *t_;
    out_q_.EnQue(y);
    y = out_q_.DeQue<T>();
    AscendC::DataCopyPad(y_[dst], y,
                         AscendC::DataCopyExtParams(
                             static_cast<std::uint16_t>(nb), static_cast<std::uint32_t>(t.wo * es),
                             (opitch_ * es - round32(t.wo * es)) / 32, 0, 0));
    out_q_.FreeTensor(y);
    if (t.indices) {
      AscendC::LocalTensor<std::int32_t> yi = idx_q_.DeQue<std::int32_t>();
      AscendC::DataCopyPad(idx_[dst], yi,
                           AscendC::DataCopyExtParams(
                               static_cast<std::uint16_t>(nb), static_cast<std::uint32_t>(t.wo * 4),
                               (opitch_ * 4 - round32(t.wo * 4)) / 32, 0, 0));
      idx_q_.FreeTensor(yi);
    }
  }

  // Adaptive average pooling with windows of varying size: one output row at a time.
  __aicore__ void UnitRowwise(std::int64_t plane, std::int64_t b) {
    const PoolTiling& t = *t_;
    const std::int64_t oh0 = b * t.band;
    const std::int64_t nb = t.ho - oh0 < t.band ? t.ho - oh0 : t.band;
    const std::int64_t lo = axis_window(t, true, oh0).start;
    const AxisWindow last = axis_window(t, true, oh0 + nb - 1);
    const std::int64_t hi = last.start + last.taps;
    AscendC::LocalTensor<T> x = in_q_.AllocTensor<T>();
    AscendC::DataCopyPad(x, x_[(plane * t.h + lo) * t.w],
                         AscendC::DataCopyExtParams(static_cast<std::uint16_t>(hi - lo),
                                                    static_cast<std::uint32_t>(t.w * es), 0, 0, 0),
                         AscendC::DataCopyPadExtParams<T>(true, 0, 1, T(0.0f)));
    in_q_.EnQue(x);
    x = in_q_.DeQue<T>();
    AscendC::LocalTensor<T> y = out_q_.AllocTensor<T>();
    const auto n = static_cast<std::int32_t>(opitch_);
    for (std::int64_t oh = oh0; oh < oh0 + nb; ++oh) {
      const auto row = static_cast<std::uint32_t>(oh - oh0) * opitch_;
      AscendC::LocalTensor<float> acc;
      if constexpr (kFloat) {
        acc = y[row];
      } else {
        acc = accf_[row];
      }
      AscendC::Duplicate(acc, 0.0f, n);
      const AxisWindow a = axis_window(t, true, oh);
      for (std::int64_t i = 0; i < a.taps; ++i) {
        const auto base = static_cast<std::uint32_t>((a.start + i - lo) * pitch_ * es);
        for (std::int64_t j = 0; j < taps_w_; ++j) {
          AscendC::Gather(tmp_, x, coltab_[static_cast<std::uint32_t>(j) * tab_n_], base, opitch_);
          if constexpr (kFloat) {
            AscendC::Add(acc, acc, tmp_, n);
          } else {
            AscendC::Cast(tmpf_, tmp_, AscendC::RoundMode::CAST_NONE, opitch_);
            AscendC::Add(acc, acc, tmpf_, n);
          }
        }
      }
      AscendC::Muls(acc, acc, 1.0f / static_cast<float>(a.factor), n);
      AscendC::Mul(acc, acc, wrecip_, n);
      if constexpr (!kFloat) AscendC::Cast(y[row], acc, AscendC::RoundMode::CAST_RINT, opitch_);
    }
    in_q_.FreeTensor(x);
    Out(y, (plane * t.ho + oh0) * t.wo, nb);
  }

  const PoolTiling* t_ = nullptr;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBuffers> in_q_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kBuffers> out_q_, idx_q_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmp_buf_, tmpf_buf_, accf_buf_, coltab_buf_,
      candtab_buf_, wrecip_buf_, idxf_buf_, cand_buf_, mask_buf_;
  AscendC::LocalTensor<T> tmp_;
  AscendC::LocalTensor<float> tmpf_, accf_, candtab_, wrecip_, idxf_, cand_;
  AscendC::LocalTensor<std::uint32_t> coltab_;
  AscendC::LocalTensor<std::uint8_t> mask_;
  AscendC::GlobalTensor<T> x_, y_;
  AscendC::GlobalTensor<std::int32_t> idx_;
  std::uint32_t pitch_ = 0, opitch_ = 0, tab_n_ = 0;
  std::int64_t taps_w_ = 1;
};

template <class T>
__aicore__ void run_pool(std::uint8_t* x, std::uint8_t* y, std::uint8_t* idx, const PoolTiling& t) {
  Pool<T> op;
  op.Init(x, y, idx, t);
  op.Process();
}

}  // namespace

void pool_kernel_f32(std::uint8_t* x, std::uint8_t* y, std::uint8_t* idx, const PoolTiling& t) {
  run_pool<float>(x, y, idx, t);
}
void pool_kernel_f16(std::uint8_t* x, std::uint8_t* y, std::uint8_t* idx, const PoolTiling& t) {
  run_pool<half>(x, y, idx, t);
}
void pool_kernel_bf16(std::uint8_t* x, std::uint8_t* y, std::uint8_t* idx, const PoolTiling& t) {
  run_pool<bfloat16_t>(x, y, idx, t);
}

}  // namespace npusim::aclnn::kernels
