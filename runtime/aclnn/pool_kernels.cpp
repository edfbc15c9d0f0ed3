// SPDX-License-Identifier: Apache-2.0
// Ascend C kernel of 2-D max / average pooling (see pool_kernels.h).
#include "runtime/aclnn/pool_kernels.h"

#include <cstdint>

#include "kernel_operator.h"

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

constexpr std::int32_t kBuffers = 2;

__aicore__ inline std::uint32_t round32(std::int64_t bytes) {
  return static_cast<std::uint32_t>((bytes + 31) / 32 * 32);
}

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
    if (t.adaptive) {
      taps_w_ = 1;
      for (std::int64_t ow = 0; ow < t.wo; ++ow) {
        const std::int64_t taps = axis_window(t, false, ow).taps;
        if (taps > taps_w_) taps_w_ = taps;
      }
    }
    const std::uint32_t band_out = static_cast<std::uint32_t>(t.band) * opitch_;
    pipe_.InitBuffer(in_q_, kBuffers, static_cast<std::uint32_t>(t.band_in) * pitch_ * es);
    pipe_.InitBuffer(out_q_, kBuffers, band_out * es);
    pipe_.InitBuffer(tmp_, opitch_ * es);
    pipe_.InitBuffer(coltab_, static_cast<std::uint32_t>(taps_w_) * opitch_ * 4);
    if (t.indices) {
      pipe_.InitBuffer(idx_q_, kBuffers, band_out * 4);
      pipe_.InitBuffer(idxf_, band_out * 4);
      pipe_.InitBuffer(cand_, opitch_ * 4);
      pipe_.InitBuffer(mask_, round32(opitch_ / 8));
      pipe_.InitBuffer(colidx_, static_cast<std::uint32_t>(taps_w_) * opitch_ * 4);
    }
    if (!t.max) {
      pipe_.InitBuffer(wrecip_, opitch_ * 4);
      if constexpr (!kFloat) {
        pipe_.InitBuffer(accf_, band_out * 4);
        pipe_.InitBuffer(tmpf_, opitch_ * 4);
      }
    }
    BuildTables();
  }

  __aicore__ void Process() {
    const PoolTiling& t = *t_;
    const std::int64_t first = AscendC::GetBlockIdx() * t.units_per_block;
    std::int64_t last = first + t.units_per_block;
    if (last > t.planes * t.bands) last = t.planes * t.bands;
    for (std::int64_t u = first; u < last; ++u) Unit(u / t.bands, u % t.bands);
  }

 private:
  static constexpr std::uint32_t es = sizeof(T);
  static constexpr bool kFloat = sizeof(T) == 4;

  // Column offset tables (per tap j: byte offset of input column, or of the pad element), the
  // column indices for max indices and the reciprocal column factors of averages.
  __aicore__ void BuildTables() {
    const PoolTiling& t = *t_;
    AscendC::LocalTensor<std::uint32_t> tab = coltab_.Get<std::uint32_t>();
    for (std::int64_t j = 0; j < taps_w_; ++j) {
      for (std::uint32_t ow = 0; ow < opitch_; ++ow) {
        std::int64_t iw = -1;
        if (ow < t.wo) {
          const AxisWindow a = axis_window(t, false, ow);
          if (j < a.taps) iw = a.start + j * (t.adaptive ? 1 : t.dw);
        }
        const bool valid = iw >= 0 && iw < t.w;
        const auto at = static_cast<std::uint32_t>(j) * opitch_ + ow;
        tab.SetValue(at, static_cast<std::uint32_t>((valid ? iw : t.w) * es));
        if (t.indices) colidx_.Get<float>().SetValue(at, valid ? static_cast<float>(iw) : 0.0f);
      }
    }
    if (!t.max) {
      AscendC::LocalTensor<float> wr = wrecip_.Get<float>();
      for (std::uint32_t ow = 0; ow < opitch_; ++ow) {
        wr.SetValue(ow, ow < t.wo ? 1.0f / static_cast<float>(axis_window(t, false, ow).factor)
                                  : 0.0f);
      }
    }
    AscendC::SetFlag<AscendC::HardEvent::S_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::S_V>(0);
  }

  __aicore__ void Unit(std::int64_t plane, std::int64_t b) {
    const PoolTiling& t = *t_;
    const std::int64_t oh0 = b * t.band;
    const std::int64_t nb = t.ho - oh0 < t.band ? t.ho - oh0 : t.band;
    // Input rows of the band, clipped to the plane.
    std::int64_t lo = t.h, hi = 0;
    for (std::int64_t oh = oh0; oh < oh0 + nb; ++oh) {
      const AxisWindow a = axis_window(t, true, oh);
      const std::int64_t step = t.adaptive ? 1 : t.dh;
      const std::int64_t first = a.start, end = a.start + (a.taps - 1) * step + 1;
      if (first < lo) lo = first;
      if (end > hi) hi = end;
    }
    if (lo < 0) lo = 0;
    if (hi > t.h) hi = t.h;
    const T pad = t.max ? T(-__builtin_inff()) : T(0.0f);
    AscendC::LocalTensor<T> x = in_q_.AllocTensor<T>();
    if (hi > lo) {
      AscendC::DataCopyPad(x, x_[(plane * t.h + lo) * t.w],
                           AscendC::DataCopyExtParams(static_cast<std::uint16_t>(hi - lo),
                                                      static_cast<std::uint32_t>(t.w * es), 0, 0,
                                                      0),
                           AscendC::DataCopyPadExtParams<T>(true, 0, 1, pad));
    }
    in_q_.EnQue(x);
    x = in_q_.DeQue<T>();
    AscendC::LocalTensor<T> y = out_q_.AllocTensor<T>();
    AscendC::LocalTensor<std::int32_t> yi;
    if (t.indices) yi = idx_q_.AllocTensor<std::int32_t>();
    for (std::int64_t oh = oh0; oh < oh0 + nb; ++oh) {
      const auto row = static_cast<std::uint32_t>(oh - oh0) * opitch_;
      if (t.max) {
        MaxRow(x, y[row], oh, lo);
      } else {
        AvgRow(x, y[row], row, oh, lo);
      }
    }
    in_q_.FreeTensor(x);
    const auto n = static_cast<std::uint32_t>(nb) * opitch_;
    if (t.indices) {
      AscendC::Cast(yi, idxf_.Get<float>(), AscendC::RoundMode::CAST_RINT, n);
      idx_q_.EnQue(yi);
    }
    out_q_.EnQue(y);
    y = out_q_.DeQue<T>();
    const std::int64_t dst = (plane * t.ho + oh0) * t.wo;
    AscendC::DataCopyPad(y_[dst], y,
                         AscendC::DataCopyExtParams(static_cast<std::uint16_t>(nb),
                                                    static_cast<std::uint32_t>(t.wo * es),
                                                    (opitch_ * es - round32(t.wo * es)) / 32, 0,
                                                    0));
    out_q_.FreeTensor(y);
    if (t.indices) {
      yi = idx_q_.DeQue<std::int32_t>();
      AscendC::DataCopyPad(idx_[dst], yi,
                           AscendC::DataCopyExtParams(static_cast<std::uint16_t>(nb),
                                                      static_cast<std::uint32_t>(t.wo * 4),
                                                      (opitch_ * 4 - round32(t.wo * 4)) / 32, 0,
                                                      0));
      idx_q_.FreeTensor(yi);
    }
  }

  __aicore__ void MaxRow(const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<T>& acc,
                         std::int64_t oh, std::int64_t lo) {
    const PoolTiling& t = *t_;
    const auto n = static_cast<std::int32_t>(opitch_);
    const std::uint32_t row = static_cast<std::uint32_t>(oh - (oh / t.band) * t.band) * opitch_;
    AscendC::Duplicate(acc, T(-__builtin_inff()), n);
    AscendC::LocalTensor<float> idx;
    if (t.indices) {
      idx = idxf_.Get<float>()[row];
      AscendC::Duplicate(idx, 0.0f, n);
    }
    AscendC::LocalTensor<T> tmp = tmp_.Get<T>();
    AscendC::LocalTensor<std::uint32_t> tab = coltab_.Get<std::uint32_t>();
    const AxisWindow a = axis_window(t, true, oh);
    for (std::int64_t i = 0; i < a.taps; ++i) {
      const std::int64_t ih = a.start + i * t.dh;
      if (ih < 0 || ih >= t.h) continue;
      const auto base = static_cast<std::uint32_t>((ih - lo) * pitch_ * es);
      for (std::int64_t j = 0; j < taps_w_; ++j) {
        const auto col = static_cast<std::uint32_t>(j) * opitch_;
        AscendC::Gather(tmp, x, tab[col], base, opitch_);
        if (t.indices) {
          AscendC::LocalTensor<std::uint8_t> mask = mask_.Get<std::uint8_t>();
          AscendC::LocalTensor<float> cand = cand_.Get<float>();
          AscendC::Compare(mask, tmp, acc, AscendC::CMPMODE::GT, opitch_);
          AscendC::Adds(cand, colidx_.Get<float>()[col], static_cast<float>(ih * t.w), n);
          AscendC::Select(idx, mask, cand, idx, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE,
                          opitch_);
        }
        AscendC::Max(acc, acc, tmp, n);
      }
    }
  }

  __aicore__ void AvgRow(const AscendC::LocalTensor<T>& x, const AscendC::LocalTensor<T>& out,
                         std::uint32_t row, std::int64_t oh, std::int64_t lo) {
    const PoolTiling& t = *t_;
    const auto n = static_cast<std::int32_t>(opitch_);
    AscendC::LocalTensor<float> acc;
    if constexpr (kFloat) {
      acc = out;
    } else {
      acc = accf_.Get<float>()[row];
    }
    AscendC::Duplicate(acc, 0.0f, n);
    AscendC::LocalTensor<T> tmp = tmp_.Get<T>();
    AscendC::LocalTensor<std::uint32_t> tab = coltab_.Get<std::uint32_t>();
    const AxisWindow a = axis_window(t, true, oh);
    for (std::int64_t i = 0; i < a.taps; ++i) {
      const std::int64_t ih = a.start + i * (t.adaptive ? 1 : t.dh);
      if (ih < 0 || ih >= t.h) continue;
      const auto base = static_cast<std::uint32_t>((ih - lo) * pitch_ * es);
      for (std::int64_t j = 0; j < taps_w_; ++j) {
        AscendC::Gather(tmp, x, tab[static_cast<std::uint32_t>(j) * opitch_], base, opitch_);
        if constexpr (kFloat) {
          AscendC::Add(acc, acc, tmp, n);
        } else {
          AscendC::LocalTensor<float> tf = tmpf_.Get<float>();
          AscendC::Cast(tf, tmp, AscendC::RoundMode::CAST_NONE, opitch_);
          AscendC::Add(acc, acc, tf, n);
        }
      }
    }
    if (t.divisor > 0) {
      AscendC::Muls(acc, acc, 1.0f / static_cast<float>(t.divisor), n);
    } else {
      AscendC::Muls(acc, acc, 1.0f / static_cast<float>(a.factor), n);
      AscendC::Mul(acc, acc, wrecip_.Get<float>(), n);
    }
    if constexpr (!kFloat) AscendC::Cast(out, acc, AscendC::RoundMode::CAST_RINT, opitch_);
  }

  const PoolTiling* t_ = nullptr;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBuffers> in_q_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kBuffers> out_q_, idx_q_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> tmp_, tmpf_, accf_, coltab_, colidx_, wrecip_,
      idxf_, cand_, mask_;
  AscendC::GlobalTensor<T> x_, y_;
  AscendC::GlobalTensor<std::int32_t> idx_;
  std::uint32_t pitch_ = 0, opitch_ = 0;
  std::int64_t taps_w_ = 1;
};

template <class T>
__aicore__ void run_pool(std::uint8_t* x, std::uint8_t* y, std::uint8_t* idx,
                         const PoolTiling& t) {
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
