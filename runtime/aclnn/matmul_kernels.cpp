// SPDX-License-Identifier: Apache-2.0
// The matmul cube kernel (see matmul_kernels.h for the tiling and the operand layouts).
#include "runtime/aclnn/matmul_kernels.h"

#include "kernel_operator.h"

namespace npusim::aclnn {
namespace {

using namespace AscendC;

inline std::uint32_t ceil16(std::uint32_t v) { return (v + 15u) / 16u * 16u; }
inline std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1u) / b; }
inline std::uint32_t min_u(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint32_t>(a < b ? a : b);
}

template <class T, class C>
class MatmulBlock {
 public:
  static constexpr std::uint32_t kC0 = 32 / sizeof(T);     // k elements per fractal row
  static constexpr std::uint32_t kFrac = 512 / sizeof(T);  // elements per fractal
  static constexpr bool kWide = sizeof(T) == 4;            // float: transposes by squares

  explicit MatmulBlock(const MatmulTiling& t) : t_(t), kL1_(t.baseK * t.stepK) {}

  void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR bias, GM_ADDR ones) {
    a_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a));
    b_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b));
    c_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(c));
    if (t_.bias) {
      bias_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(bias));
      ones_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(ones));
    }
    if (t_.aResident) {  // one buffer holding the whole k extent of an A panel
      pipe_.InitBuffer(a1_, 1, t_.baseM * ceil16(t_.k) * sizeof(T));
    } else {
      pipe_.InitBuffer(a1_, 2, t_.baseM * kL1_ * sizeof(T));
    }
    if (t_.bias) pipe_.InitBuffer(z1_, 1, t_.baseM * 32);
    pipe_.InitBuffer(b1_, 2, kL1_ * t_.baseN * sizeof(T));
    pipe_.InitBuffer(a2_, 2, t_.baseM * t_.baseK * sizeof(T));
    pipe_.InitBuffer(b2_, 2, t_.baseK * t_.baseN * sizeof(T));
    pipe_.InitBuffer(c1_, 1, t_.baseM * t_.baseN * sizeof(float));
  }

  // Block i computes the tiles [total * i / blocks, total * (i + 1) / blocks): neighbours along
  // n share their A panel, which stays in L1 across them when t_.aResident.
  void Process() {
    const std::uint64_t per_batch = static_cast<std::uint64_t>(t_.mTiles) * t_.nTiles;
    const std::uint64_t total = per_batch * t_.batch;
    const auto blocks = static_cast<std::uint64_t>(GetBlockNum());
    const auto idx = static_cast<std::uint64_t>(GetBlockIdx());
    const std::uint64_t end = total * (idx + 1) / blocks;
    std::uint64_t panel = ~0ull;
    LocalTensor<T> a_panel;
    for (std::uint64_t tile = total * idx / blocks; tile < end; ++tile) {
      Locate(tile / per_batch, tile % per_batch);
      if (t_.aResident && tile / t_.nTiles != panel) {
        if (panel != ~0ull) a1_.FreeTensor(a_panel);
        panel = tile / t_.nTiles;
        CopyA(0, t_.k);
        a_panel = a1_.DeQue<T>();
      }
      Tile(a_panel);
    }
    if (panel != ~0ull) a1_.FreeTensor(a_panel);
  }

 private:
  // The operands' offsets and the extent of tile `rest` of batch index `batch`.
  void Locate(std::uint64_t batch, std::uint64_t rest) {
    ao_ = bo_ = co_ = zo_ = 0;
    for (std::int32_t d = t_.batchDims - 1; d >= 0; --d) {
      const auto i =
          static_cast<std::int64_t>(batch % static_cast<std::uint64_t>(t_.batchShape[d]));
      batch /= static_cast<std::uint64_t>(t_.batchShape[d]);
      ao_ += i * t_.aBatchStride[d];
      bo_ += i * t_.bBatchStride[d];
      co_ += i * t_.cBatchStride[d];
      zo_ += i * t_.biasBatchStride[d];
    }
    m0_ = static_cast<std::uint32_t>(rest / t_.nTiles) * t_.baseM;
    n0_ = static_cast<std::uint32_t>(rest % t_.nTiles) * t_.baseN;
    mv_ = min_u(t_.baseM, t_.m - m0_);
    nv_ = min_u(t_.baseN, t_.n - n0_);
    m1_ = ceil16(mv_) / 16;
    n1_ = ceil16(nv_) / 16;
  }

  // One tile; a_panel: the resident A panel (t_.aResident) or unused.
  void Tile(const LocalTensor<T>& a_panel) {
    LocalTensor<float> acc = c1_.AllocTensor<float>();
    bool first = true;
    // The copies of L1 step i + 1 are issued before step i's L0 work (the second L1 buffer), so
    // MTE2 fetches the next step while the cube works on this one.
    auto copy_step = [&](std::uint32_t k0) {
      const std::uint32_t kv1 = min_u(kL1_, t_.k - k0);
      if (!t_.aResident) CopyA(k0, kv1);
      CopyB(k0, kv1);
    };
    copy_step(0);
    for (std::uint32_t k0 = 0; k0 < t_.k; k0 += kL1_) {
      const std::uint32_t kv1 = min_u(kL1_, t_.k - k0);
      if (k0 + kL1_ < t_.k) copy_step(k0 + kL1_);
      LocalTensor<T> a1 = t_.aResident ? a_panel : a1_.DeQue<T>();
      LocalTensor<T> b1 = b1_.DeQue<T>();
      // A's L1 tensor holds k [a_base, a_base + a_len).
      const std::uint32_t a_base = t_.aResident ? 0 : k0;
      const std::uint32_t a_len = t_.aResident ? t_.k : kv1;
      for (std::uint32_t s = 0; s * t_.baseK < kv1; ++s) {
        const std::uint32_t kv = min_u(t_.baseK, kv1 - s * t_.baseK);
        SplitA(a1, k0 + s * t_.baseK - a_base, kv, a_len);
        SplitB(b1, s, kv, kv1);
        Compute(acc, kv, first);
        first = false;
      }
      if (!t_.aResident) a1_.FreeTensor(a1);
      b1_.FreeTensor(b1);
    }
    if (t_.bias) AddBias(acc);
    c1_.EnQue(acc);
    acc = c1_.DeQue<float>();
    FixpipeParamsV220 fp(static_cast<std::uint16_t>(nv_), static_cast<std::uint16_t>(mv_),
                         static_cast<std::uint16_t>(m1_ * 16), static_cast<std::uint32_t>(t_.ldc),
                         false);
    if constexpr (std::is_same_v<C, half>) {
      fp.quantPre = QuantMode_t::F322F16;
    } else if constexpr (std::is_same_v<C, bfloat16_t>) {
      fp.quantPre = QuantMode_t::F322BF16;
    } else {
      fp.quantPre = QuantMode_t::NoQuant;
    }
    Fixpipe(c_[static_cast<std::uint64_t>(co_ + static_cast<std::int64_t>(m0_) * t_.ldc + n0_)],
            acc, fp);
    c1_.FreeTensor(acc);
  }

  // GM (rows x cols, row stride ld) -> L1 in NZ with c0_stride rows per column block: one
  // DataCopy ND2NZ, or one per row when ld is beyond the 16-bit srcDValue (rows land at
  // dst[r * C0] with the same column-block stride).
  void Nd2Nz(const LocalTensor<T>& dst, const GlobalTensor<T>& src, std::uint32_t rows,
             std::uint32_t cols, std::int64_t ld, std::uint32_t c0_stride) {
    const auto d = static_cast<std::uint16_t>(cols);
    const auto stride = static_cast<std::uint16_t>(c0_stride);
    if (ld <= 65535) {
      DataCopy(dst, src,
               Nd2NzParams(1, static_cast<std::uint16_t>(rows), d, 0,
                           static_cast<std::uint16_t>(ld), stride, 1, 0));
      return;
    }
    for (std::uint32_t r = 0; r < rows; ++r) {
      DataCopy(dst[r * kC0], src[static_cast<std::uint64_t>(r) * static_cast<std::uint64_t>(ld)],
               Nd2NzParams(1, 1, d, 0, d, stride, 1, 0));
    }
  }

  // GM (rows x cols, row stride ld) -> L1 as 16-row ND blocks one after another, each in NZ
  // with cols_al columns: the layout LoadDataWithTranspose's float squares need.
  void CopyChunks(const LocalTensor<T>& dst, const GlobalTensor<T>& src, std::uint32_t rows,
                  std::uint32_t cols, std::int64_t ld, std::uint32_t cols_al) {
    const std::uint32_t full = rows / 16, rem = rows % 16;
    if (full > 0 && 16 * ld <= 65535) {
      DataCopy(dst, src,
               Nd2NzParams(static_cast<std::uint16_t>(full), 16, static_cast<std::uint16_t>(cols),
                           static_cast<std::uint16_t>(16 * ld), static_cast<std::uint16_t>(ld), 16,
                           1, static_cast<std::uint16_t>(16 * cols_al)));
    } else {
      for (std::uint32_t q = 0; q < full; ++q) {
        Nd2Nz(dst[q * 16 * cols_al], src[static_cast<std::uint64_t>(q) * 16 * ld], 16, cols, ld,
              16);
      }
    }
    if (rem > 0) {
      Nd2Nz(dst[full * 16 * cols_al], src[static_cast<std::uint64_t>(full) * 16 * ld], rem, cols,
            ld, 16);
    }
  }

  void CopyA(std::uint32_t k0, std::uint32_t kv1) {
    LocalTensor<T> a1 = a1_.AllocTensor<T>();
    if (!t_.transA) {  // mv x kv1, k contiguous: NZ with m1*16 rows
      Nd2Nz(a1, a_[static_cast<std::uint64_t>(ao_ + static_cast<std::int64_t>(m0_) * t_.lda + k0)],
            mv_, kv1, t_.lda, m1_ * 16);
    } else {  // stored kv1 x mv, m contiguous
      const GlobalTensor<T> src =
          a_[static_cast<std::uint64_t>(ao_ + static_cast<std::int64_t>(k0) * t_.lda + m0_)];
      if constexpr (kWide) {
        CopyChunks(a1, src, kv1, mv_, t_.lda, m1_ * 16);
      } else {
        Nd2Nz(a1, src, kv1, mv_, t_.lda, ceil16(kv1));
      }
    }
    a1_.EnQue(a1);
  }

  void CopyB(std::uint32_t k0, std::uint32_t kv1) {
    LocalTensor<T> b1 = b1_.AllocTensor<T>();
    if (t_.transB) {  // stored nv x kv1, k contiguous: NZ with n1*16 rows
      Nd2Nz(b1, b_[static_cast<std::uint64_t>(bo_ + static_cast<std::int64_t>(n0_) * t_.ldb + k0)],
            nv_, kv1, t_.ldb, n1_ * 16);
    } else {  // kv1 x nv, n contiguous
      const GlobalTensor<T> src =
          b_[static_cast<std::uint64_t>(bo_ + static_cast<std::int64_t>(k0) * t_.ldb + n0_)];
      if constexpr (kWide) {
        CopyChunks(b1, src, kv1, nv_, t_.ldb, n1_ * 16);
      } else {
        Nd2Nz(b1, src, kv1, nv_, t_.ldb, ceil16(kv1));
      }
    }
    b1_.EnQue(b1);
  }

  // L1 -> L0A in the zZ layout Mmad wants: fractal (mb, kb) at mb * k1 + kb. a1 holds kv1 k
  // values; the step's kv start at k offset koff (a multiple of 16) in it.
  void SplitA(const LocalTensor<T>& a1, std::uint32_t koff, std::uint32_t kv, std::uint32_t kv1) {
    LocalTensor<T> a2 = a2_.AllocTensor<T>();
    const std::uint32_t k1 = ceil_div(kv, kC0);
    if (!t_.transA) {  // L1 fractal (mb, cb) at cb * m1 + mb
      const std::uint32_t cb0 = koff / kC0;
      for (std::uint32_t mb = 0; mb < m1_; ++mb) {
        LoadData(a2[mb * k1 * kFrac], a1,
                 LoadData2DParams(static_cast<std::uint16_t>(cb0 * m1_ + mb),
                                  static_cast<std::uint8_t>(k1), static_cast<std::uint16_t>(m1_), 0,
                                  0, false, 0));
      }
    } else if constexpr (kWide) {  // squares (q, mb) at q * m1 + mb; two fractals per square
      const std::uint32_t q0 = koff / 16;
      for (std::uint32_t mb = 0; mb < m1_; ++mb) {
        LoadDataWithTranspose(a2[mb * k1 * kFrac], a1,
                              LoadData2dTransposeParams(static_cast<std::uint16_t>(q0 * m1_ + mb),
                                                        static_cast<std::uint8_t>(ceil_div(kv, 16)),
                                                        static_cast<std::uint16_t>(m1_), 1, 0, 0));
      }
    } else {  // L1 fractal (kb, mb) at mb * (kv1/16 rounded up) + kb, transposed on the way
      const std::uint32_t kb1 = ceil16(kv1) / 16;
      for (std::uint32_t mb = 0; mb < m1_; ++mb) {
        LoadData(a2[mb * k1 * kFrac], a1,
                 LoadData2DParams(static_cast<std::uint16_t>(mb * kb1 + koff / 16),
                                  static_cast<std::uint8_t>(k1), 1, 0, 0, true, 0));
      }
    }
    a2_.EnQue(a2);
  }

  // L1 -> L0B in the nZ layout Mmad wants: fractal (kb, nb) at kb * n1 + nb.
  void SplitB(const LocalTensor<T>& b1, std::uint32_t s, std::uint32_t kv, std::uint32_t kv1) {
    LocalTensor<T> b2 = b2_.AllocTensor<T>();
    const std::uint32_t k1 = ceil_div(kv, kC0);
    if (t_.transB) {  // L1 fractal (nb, cb) at cb * n1 + nb: already in order
      const std::uint32_t cb0 = s * t_.baseK / kC0;
      if (k1 * n1_ <= 255) {
        LoadData(b2, b1,
                 LoadData2DParams(static_cast<std::uint16_t>(cb0 * n1_),
                                  static_cast<std::uint8_t>(k1 * n1_), 1, 0, 0, false, 0));
      } else {
        for (std::uint32_t kb = 0; kb < k1; ++kb) {
          LoadData(b2[kb * n1_ * kFrac], b1,
                   LoadData2DParams(static_cast<std::uint16_t>((cb0 + kb) * n1_),
                                    static_cast<std::uint8_t>(n1_), 1, 0, 0, false, 0));
        }
      }
    } else if constexpr (kWide) {  // squares (q, nb) at q * n1 + nb
      const std::uint32_t q0 = s * t_.baseK / 16;
      for (std::uint32_t q = 0; q < ceil_div(kv, 16); ++q) {
        LoadDataWithTranspose(b2[2 * q * n1_ * kFrac], b1,
                              LoadData2dTransposeParams(static_cast<std::uint16_t>((q0 + q) * n1_),
                                                        static_cast<std::uint8_t>(n1_), 1, 0,
                                                        static_cast<std::uint16_t>(n1_ - 1), 0));
      }
    } else {  // L1 fractal (kb, nb) at nb * (kv1/16 rounded up) + kb, transposed on the way
      const std::uint32_t kb1 = ceil16(kv1) / 16;
      for (std::uint32_t kb = 0; kb < k1; ++kb) {
        LoadData(b2[kb * n1_ * kFrac], b1,
                 LoadData2DParams(static_cast<std::uint16_t>(s * t_.baseK / 16 + kb),
                                  static_cast<std::uint8_t>(n1_), static_cast<std::uint16_t>(kb1),
                                  0, 0, true, 0));
      }
    }
    b2_.EnQue(b2);
  }

  void Compute(const LocalTensor<float>& acc, std::uint32_t kv, bool first) {
    LocalTensor<T> a2 = a2_.DeQue<T>();
    LocalTensor<T> b2 = b2_.DeQue<T>();
    MmadParams p;
    p.m = npusim::ascendc::zz_mmad_m(mv_);
    p.n = static_cast<std::uint16_t>(nv_);
    p.k = static_cast<std::uint16_t>(kv);
    p.cmatrixInitVal = first;
    Mmad(acc, a2, b2, p);
    a2_.FreeTensor(a2);
    b2_.FreeTensor(b2);
  }

  // acc += bias (mv x 1, zero-padded to one fractal column) * ones (1 x nv): one more k step.
  void AddBias(const LocalTensor<float>& acc) {
    LocalTensor<T> a1 = z1_.AllocTensor<T>();
    DataCopy(a1, bias_[static_cast<std::uint64_t>(zo_ + m0_)],
             Nd2NzParams(1, static_cast<std::uint16_t>(mv_), 1, 0, 1,
                         static_cast<std::uint16_t>(m1_ * 16), 1, 0));
    z1_.EnQue(a1);
    LocalTensor<T> b1 = b1_.AllocTensor<T>();
    DataCopy(b1, ones_,
             Nd2NzParams(1, static_cast<std::uint16_t>(nv_), 1, 0, 1,
                         static_cast<std::uint16_t>(n1_ * 16), 1, 0));
    b1_.EnQue(b1);
    a1 = z1_.DeQue<T>();
    b1 = b1_.DeQue<T>();
    LocalTensor<T> a2 = a2_.AllocTensor<T>();
    LoadData(a2, a1, LoadData2DParams(0, static_cast<std::uint8_t>(m1_), 1, 0, 0, false, 0));
    a2_.EnQue(a2);
    LocalTensor<T> b2 = b2_.AllocTensor<T>();
    LoadData(b2, b1, LoadData2DParams(0, static_cast<std::uint8_t>(n1_), 1, 0, 0, false, 0));
    b2_.EnQue(b2);
    z1_.FreeTensor(a1);
    b1_.FreeTensor(b1);
    Compute(acc, 1, false);
  }

  const MatmulTiling& t_;
  const std::uint32_t kL1_;
  std::uint32_t m0_ = 0, n0_ = 0, mv_ = 0, nv_ = 0, m1_ = 0, n1_ = 0;
  std::int64_t ao_ = 0, bo_ = 0, co_ = 0, zo_ = 0;
  TPipe pipe_;
  TQue<TPosition::A1, 2> a1_;
  TQue<TPosition::A1, 1> z1_;  // the bias column
  TQue<TPosition::B1, 2> b1_;
  TQue<TPosition::A2, 2> a2_;
  TQue<TPosition::B2, 2> b2_;
  TQue<TPosition::CO1, 1> c1_;
  GlobalTensor<T> a_, b_, bias_, ones_;
  GlobalTensor<C> c_;
};

template <class T, class C>
__global__ __aicore__ void matmul_typed(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR bias, GM_ADDR ones,
                                        const MatmulTiling& t) {
  MatmulBlock<T, C> op(t);
  op.Init(a, b, c, bias, ones);
  op.Process();
}

// The input conversion of FLOAT matmuls that compute in lower precision (CastTiling): D = half
// rounds to FLOAT16 (Cast, round to nearest even); D = float rounds to HFLOAT32 precision (11
// significant bits) in FLOAT, by Veltkamp's split: t = x * (2^13 + 1), x_hi = t - (t - x).
template <class D>
class ConvertInputs {
 public:
  explicit ConvertInputs(const CastTiling& t) : t_(t) {}

  void Process(GM_ADDR a, GM_ADDR a2, GM_ADDR b, GM_ADDR b2) {
    pipe_.InitBuffer(in_, 2, t_.chunk * sizeof(float));
    pipe_.InitBuffer(out_, 2, t_.chunk * sizeof(D));
    if constexpr (std::is_same_v<D, float>) pipe_.InitBuffer(tmp_, t_.chunk * sizeof(float));
    const std::uint64_t total = t_.countA + t_.countB;
    const auto blocks = static_cast<std::uint64_t>(GetBlockNum());
    const auto idx = static_cast<std::uint64_t>(GetBlockIdx());
    const std::uint64_t begin = total * idx / blocks, end = total * (idx + 1) / blocks;
    if (begin < t_.countA) Range(a, a2, begin, end < t_.countA ? end : t_.countA);
    if (end > t_.countA) {
      Range(b, b2, (begin > t_.countA ? begin : t_.countA) - t_.countA, end - t_.countA);
    }
  }

 private:
  void Range(GM_ADDR src, GM_ADDR dst, std::uint64_t begin, std::uint64_t end) {
    GlobalTensor<float> s;
    GlobalTensor<D> d;
    s.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src));
    d.SetGlobalBuffer(reinterpret_cast<__gm__ D*>(dst));
    for (std::uint64_t i = begin; i < end; i += t_.chunk) {
      const std::uint32_t n = min_u(t_.chunk, end - i);
      LocalTensor<float> x = in_.AllocTensor<float>();
      DataCopyPad(x, s[i], DataCopyExtParams(1, n * 4u, 0, 0, 0));
      in_.EnQue(x);
      x = in_.DeQue<float>();
      LocalTensor<D> y = out_.AllocTensor<D>();
      if constexpr (std::is_same_v<D, float>) {
        LocalTensor<float> t = tmp_.Get<float>();
        const auto count = static_cast<std::int32_t>(n);
        Muls(t, x, 8193.0f, count);  // 2^13 + 1
        Sub(x, t, x, count);
        Sub(y, t, x, count);
      } else {
        Cast(y, x, RoundMode::CAST_RINT, n);
      }
      in_.FreeTensor(x);
      out_.EnQue(y);
      y = out_.DeQue<D>();
      DataCopyPad(d[i], y,
                  DataCopyExtParams(1, n * static_cast<std::uint32_t>(sizeof(D)), 0, 0, 0));
      out_.FreeTensor(y);
    }
  }

  const CastTiling& t_;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> in_;
  TQue<TPosition::VECOUT, 2> out_;
  TBuf<TPosition::VECCALC> tmp_;
};

template <class D>
__global__ __aicore__ void convert_inputs(GM_ADDR a, GM_ADDR a2, GM_ADDR b, GM_ADDR b2,
                                          const CastTiling& t) {
  ConvertInputs<D> op(t);
  op.Process(a, a2, b, b2);
}

}  // namespace

void convert_inputs_kernel(std::uint8_t* a, std::uint8_t* a2, std::uint8_t* b, std::uint8_t* b2,
                           const CastTiling& t) {
  if (t.hf32) {
    convert_inputs<float>(a, a2, b, b2, t);
  } else {
    convert_inputs<half>(a, a2, b, b2, t);
  }
}

const void* convert_inputs_kernel_identity(bool hf32) {
  return hf32 ? reinterpret_cast<const void*>(&convert_inputs<float>)
              : reinterpret_cast<const void*>(&convert_inputs<half>);
}

void matmul_kernel(MmType in, MmType out, std::uint8_t* a, std::uint8_t* b, std::uint8_t* c,
                   std::uint8_t* bias, std::uint8_t* ones, const MatmulTiling& t) {
  if (in == MmType::kHalf) {
    if (out == MmType::kFloat) {
      matmul_typed<half, float>(a, b, c, bias, ones, t);
    } else {
      matmul_typed<half, half>(a, b, c, bias, ones, t);
    }
  } else if (in == MmType::kBf16) {
    if (out == MmType::kFloat) {
      matmul_typed<bfloat16_t, float>(a, b, c, bias, ones, t);
    } else {
      matmul_typed<bfloat16_t, bfloat16_t>(a, b, c, bias, ones, t);
    }
  } else {
    matmul_typed<float, float>(a, b, c, bias, ones, t);
  }
}

const void* matmul_kernel_identity(MmType in, MmType out) {
  if (in == MmType::kHalf) {
    return out == MmType::kFloat ? reinterpret_cast<const void*>(&matmul_typed<half, float>)
                                 : reinterpret_cast<const void*>(&matmul_typed<half, half>);
  }
  if (in == MmType::kBf16) {
    return out == MmType::kFloat
               ? reinterpret_cast<const void*>(&matmul_typed<bfloat16_t, float>)
               : reinterpret_cast<const void*>(&matmul_typed<bfloat16_t, bfloat16_t>);
  }
  return reinterpret_cast<const void*>(&matmul_typed<float, float>);
}

}  // namespace npusim::aclnn
