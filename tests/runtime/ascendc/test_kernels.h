// SPDX-License-Identifier: Apache-2.0
// Ascend C kernels written for the twin's tests: a tiled vector add (TQue depth/buffers as a
// template parameter), a row softmax and a tiled fp16 matmul through the cube path.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernel_operator.h"

namespace test_kernels {

using namespace AscendC;

/// The set-up of the small kernels that stage GM `src` through one UB buffer of `bytes` (`ub`)
/// into GM `dst`: the pipe, the buffer and both global tensors.
template <class T>
struct StagedCopy {
  StagedCopy(GM_ADDR src, GM_ADDR dst, std::uint32_t bytes) {
    pipe.InitBuffer(buf, bytes);
    gs.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src));
    gd.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst));
    ub = buf.Get<T>();
  }
  TPipe pipe;
  TBuf<> buf;
  GlobalTensor<T> gs, gd;
  LocalTensor<T> ub;
};

/// c = a + b. Each block takes total/GetBlockNum() elements and streams them through UB in tiles
/// of `tile` elements; kBuffers buffers per queue (2 = double buffering).
template <class T, std::int32_t kBuffers>
class TiledAdd {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, std::uint32_t total,
                              std::uint32_t tile) {
    const std::uint32_t share = total / static_cast<std::uint32_t>(GetBlockNum());
    const std::uint64_t first = static_cast<std::uint64_t>(share) * GetBlockIdx();
    a_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a) + first, share);
    b_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b) + first, share);
    c_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(c) + first, share);
    tile_ = tile;
    tiles_ = share / tile;
    pipe_.InitBuffer(a_in_, kBuffers, tile * sizeof(T));
    pipe_.InitBuffer(b_in_, kBuffers, tile * sizeof(T));
    pipe_.InitBuffer(c_out_, kBuffers, tile * sizeof(T));
  }

  __aicore__ inline void Run() {
    for (std::uint32_t t = 0; t < tiles_; ++t) {
      Load(t);
      Sum();
      Store(t);
    }
  }

 private:
  __aicore__ inline void Load(std::uint32_t t) {
    LocalTensor<T> x = a_in_.template AllocTensor<T>();
    LocalTensor<T> y = b_in_.template AllocTensor<T>();
    DataCopy(x, a_gm_[t * tile_], tile_);
    DataCopy(y, b_gm_[t * tile_], tile_);
    a_in_.EnQue(x);
    b_in_.EnQue(y);
  }
  __aicore__ inline void Sum() {
    LocalTensor<T> x = a_in_.template DeQue<T>();
    LocalTensor<T> y = b_in_.template DeQue<T>();
    LocalTensor<T> z = c_out_.template AllocTensor<T>();
    Add(z, x, y, tile_);
    c_out_.EnQue(z);
    a_in_.FreeTensor(x);
    b_in_.FreeTensor(y);
  }
  __aicore__ inline void Store(std::uint32_t t) {
    LocalTensor<T> z = c_out_.template DeQue<T>();
    DataCopy(c_gm_[t * tile_], z, tile_);
    c_out_.FreeTensor(z);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, kBuffers> a_in_;
  TQue<TPosition::VECIN, kBuffers> b_in_;
  TQue<TPosition::VECOUT, kBuffers> c_out_;
  GlobalTensor<T> a_gm_, b_gm_, c_gm_;
  std::uint32_t tile_ = 0;
  std::uint32_t tiles_ = 0;
};

template <class T, std::int32_t kBuffers>
__global__ __aicore__ void tiled_add(GM_ADDR a, GM_ADDR b, GM_ADDR c, std::uint32_t total,
                                     std::uint32_t tile) {
  TiledAdd<T, kBuffers> op;
  op.Init(a, b, c, total, tile);
  op.Run();
}

/// y = softmax(x) along rows of `cols` floats; rows are split evenly over the blocks (the last
/// blocks may get fewer or none).
class RowSoftmax {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, std::uint32_t rows, std::uint32_t cols) {
    const std::uint32_t per = (rows + GetBlockNum() - 1) / GetBlockNum();
    begin_ = std::min<std::uint32_t>(rows, per * static_cast<std::uint32_t>(GetBlockIdx()));
    end_ = std::min<std::uint32_t>(rows, begin_ + per);
    cols_ = cols;
    x_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    y_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    pipe_.InitBuffer(in_, 2, cols * sizeof(float));
    pipe_.InitBuffer(out_, 2, cols * sizeof(float));
    pipe_.InitBuffer(bcast_, cols * sizeof(float));
    pipe_.InitBuffer(work_, cols * sizeof(float));
    pipe_.InitBuffer(scalar_, 32);
  }

  __aicore__ inline void Run() {
    for (std::uint32_t r = begin_; r < end_; ++r) {
      LocalTensor<float> x = in_.AllocTensor<float>();
      DataCopy(x, x_gm_[static_cast<std::uint64_t>(r) * cols_], cols_);
      in_.EnQue(x);
      Compute();
      LocalTensor<float> y = out_.DeQue<float>();
      DataCopy(y_gm_[static_cast<std::uint64_t>(r) * cols_], y, cols_);
      out_.FreeTensor(y);
    }
  }

 private:
  __aicore__ inline void Compute() {
    LocalTensor<float> x = in_.DeQue<float>();
    LocalTensor<float> y = out_.AllocTensor<float>();
    LocalTensor<float> b = bcast_.Get<float>();
    LocalTensor<float> w = work_.Get<float>();
    LocalTensor<float> s = scalar_.Get<float>();
    const auto n = static_cast<std::int32_t>(cols_);
    ReduceMax(s, x, w, n);
    const float max = s.GetValue(0);
    Duplicate(b, max, n);
    Sub(y, x, b, n);
    Exp(y, y, n);
    ReduceSum(s, y, w, n);
    const float sum = s.GetValue(0);
    Duplicate(b, sum, n);
    Div(y, y, b, n);
    out_.EnQue(y);
    in_.FreeTensor(x);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, 2> in_;
  TQue<TPosition::VECOUT, 2> out_;
  TBuf<TPosition::VECCALC> bcast_, work_, scalar_;
  GlobalTensor<float> x_gm_, y_gm_;
  std::uint32_t begin_ = 0, end_ = 0, cols_ = 0;
};

__global__ __aicore__ inline void row_softmax(GM_ADDR x, GM_ADDR y, std::uint32_t rows,
                                              std::uint32_t cols) {
  RowSoftmax op;
  op.Init(x, y, rows, cols);
  op.Run();
}

/// C (M x N, row-major, OutT = float or half) = A (M x K) * B (K x N), both half row-major.
/// Block b computes the 32 x 32 tile (b / (N/32), b % (N/32)) and walks K in steps of 64:
/// GM -(ND2NZ)-> L1 -(LoadData)-> L0A/L0B -(Mmad, fp32 accumulate)-> L0C -(Fixpipe)-> GM.
template <class OutT>
class TiledMatmul {
 public:
  static constexpr std::uint32_t kBaseM = 32, kBaseN = 32, kBaseK = 64;
  static constexpr std::uint32_t kM1 = kBaseM / 16, kN1 = kBaseN / 16, kK1 = kBaseK / 16;

  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, std::uint32_t m, std::uint32_t n,
                              std::uint32_t k) {
    n_ = n;
    k_ = k;
    const std::uint32_t tm = static_cast<std::uint32_t>(GetBlockIdx()) / (n / kBaseN);
    const std::uint32_t tn = static_cast<std::uint32_t>(GetBlockIdx()) % (n / kBaseN);
    a_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) +
                          static_cast<std::uint64_t>(tm) * kBaseM * k);
    b_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + tn * kBaseN);
    c_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ OutT*>(c) +
                          static_cast<std::uint64_t>(tm) * kBaseM * n + tn * kBaseN);
    (void)m;
    pipe_.InitBuffer(a1_, 2, kBaseM * kBaseK * sizeof(half));
    pipe_.InitBuffer(b1_, 2, kBaseK * kBaseN * sizeof(half));
    pipe_.InitBuffer(a2_, 1, kBaseM * kBaseK * sizeof(half));
    pipe_.InitBuffer(b2_, 1, kBaseK * kBaseN * sizeof(half));
    pipe_.InitBuffer(c1_, 1, kBaseM * kBaseN * sizeof(float));
  }

  __aicore__ inline void Run() {
    LocalTensor<float> acc = c1_.AllocTensor<float>();
    for (std::uint32_t step = 0; step < k_ / kBaseK; ++step) {
      CopyIn(step);
      Split();
      Compute(acc, step == 0);
    }
    c1_.EnQue(acc);
    CopyOut();
  }

 private:
  __aicore__ inline void CopyIn(std::uint32_t step) {
    LocalTensor<half> a1 = a1_.AllocTensor<half>();
    LocalTensor<half> b1 = b1_.AllocTensor<half>();
    DataCopy(a1, a_gm_[step * kBaseK], Nd2NzParams(1, kBaseM, kBaseK, 0, k_, kBaseM, 1, 0));
    DataCopy(b1, b_gm_[static_cast<std::uint64_t>(step) * kBaseK * n_],
             Nd2NzParams(1, kBaseK, kBaseN, 0, n_, kBaseK, 1, 0));
    a1_.EnQue(a1);
    b1_.EnQue(b1);
  }
  __aicore__ inline void Split() {
    LocalTensor<half> a1 = a1_.DeQue<half>();
    LocalTensor<half> a2 = a2_.AllocTensor<half>();
    for (std::uint32_t i = 0; i < kM1; ++i) {  // NZ -> zZ: one row of fractals per call
      LoadData(a2[i * kK1 * 256], a1, LoadData2DParams(i, kK1, kM1, 0, 0, false, 0));
    }
    a2_.EnQue(a2);
    a1_.FreeTensor(a1);
    LocalTensor<half> b1 = b1_.DeQue<half>();
    LocalTensor<half> b2 = b2_.AllocTensor<half>();
    for (std::uint32_t i = 0; i < kK1; ++i) {  // NZ -> nZ: transpose each fractal
      LoadData(b2[i * kN1 * 256], b1, LoadData2DParams(i, kN1, kK1, 0, 0, true, 0));
    }
    b2_.EnQue(b2);
    b1_.FreeTensor(b1);
  }
  __aicore__ inline void Compute(const LocalTensor<float>& acc, bool first) {
    LocalTensor<half> a2 = a2_.DeQue<half>();
    LocalTensor<half> b2 = b2_.DeQue<half>();
    MmadParams p;
    p.m = kBaseM;
    p.n = kBaseN;
    p.k = kBaseK;
    p.cmatrixInitVal = first;
    Mmad(acc, a2, b2, p);
    a2_.FreeTensor(a2);
    b2_.FreeTensor(b2);
  }
  __aicore__ inline void CopyOut() {
    LocalTensor<float> acc = c1_.DeQue<float>();
    FixpipeParamsV220 p(kBaseN, kBaseM, kBaseM, n_, false);
    if (std::is_same_v<OutT, half>) p.quantPre = QuantMode_t::F322F16;
    Fixpipe(c_gm_, acc, p);
    c1_.FreeTensor(acc);
  }

  TPipe pipe_;
  TQue<TPosition::A1, 2> a1_;
  TQue<TPosition::B1, 2> b1_;
  TQue<TPosition::A2, 1> a2_;
  TQue<TPosition::B2, 1> b2_;
  TQue<TPosition::CO1, 1> c1_;
  GlobalTensor<half> a_gm_, b_gm_;
  GlobalTensor<OutT> c_gm_;
  std::uint32_t n_ = 0, k_ = 0;
};

template <class OutT>
__global__ __aicore__ void tiled_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, std::uint32_t m,
                                        std::uint32_t n, std::uint32_t k) {
  TiledMatmul<OutT> op;
  op.Init(a, b, c, m, n, k);
  op.Run();
}

}  // namespace test_kernels
