// SPDX-License-Identifier: Apache-2.0
// y = softmax(x) along rows of kSoftmaxCols fp16 values, computed in fp32 on the vector unit:
// Cast up, ReduceMax, Adds(-max), Exp, ReduceSum, Muls(1/sum), Cast down (round to nearest
// even). Rows are spread over the blocks; a block may get none. Input and output queues are
// double-buffered so the next row's copy-in overlaps this row's math.
#include "kernel_operator.h"
#include "e2e_kernels.h"

namespace {

class SoftmaxRows {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows) {
    const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
    const uint32_t idx = static_cast<uint32_t>(AscendC::GetBlockIdx());
    first_ = rows * idx / blocks;
    last_ = rows * (idx + 1) / blocks;
    x_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
    y_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
    pipe_.InitBuffer(in_, 2, kSoftmaxCols * sizeof(half));
    pipe_.InitBuffer(out_, 2, kSoftmaxCols * sizeof(half));
    pipe_.InitBuffer(row_, kSoftmaxCols * sizeof(float));
    pipe_.InitBuffer(work_, kSoftmaxCols * sizeof(float));
    pipe_.InitBuffer(scalar_, 32);
  }

  __aicore__ inline void Process() {
    for (uint32_t r = first_; r < last_; ++r) {
      AscendC::LocalTensor<half> x = in_.AllocTensor<half>();
      AscendC::DataCopy(x, x_gm_[static_cast<uint64_t>(r) * kSoftmaxCols], kSoftmaxCols);
      in_.EnQue(x);
      Compute();
      AscendC::LocalTensor<half> y = out_.DeQue<half>();
      AscendC::DataCopy(y_gm_[static_cast<uint64_t>(r) * kSoftmaxCols], y, kSoftmaxCols);
      out_.FreeTensor(y);
    }
  }

 private:
  __aicore__ inline void Compute() {
    const int32_t n = static_cast<int32_t>(kSoftmaxCols);
    AscendC::LocalTensor<half> x = in_.DeQue<half>();
    AscendC::LocalTensor<float> f = row_.Get<float>();
    AscendC::LocalTensor<float> w = work_.Get<float>();
    AscendC::LocalTensor<float> s = scalar_.Get<float>();
    AscendC::Cast(f, x, AscendC::RoundMode::CAST_NONE, kSoftmaxCols);
    in_.FreeTensor(x);
    AscendC::ReduceMax(s, f, w, n);
    const float max = s.GetValue(0);
    AscendC::Adds(f, f, -max, n);
    AscendC::Exp(f, f, n);
    AscendC::ReduceSum(s, f, w, n);
    const float sum = s.GetValue(0);
    AscendC::Muls(f, f, 1.0f / sum, n);
    AscendC::LocalTensor<half> y = out_.AllocTensor<half>();
    AscendC::Cast(y, f, AscendC::RoundMode::CAST_RINT, kSoftmaxCols);
    out_.EnQue(y);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> in_;
  AscendC::TQue<AscendC::TPosition::VECOUT, 2> out_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> row_, work_, scalar_;
  AscendC::GlobalTensor<half> x_gm_, y_gm_;
  uint32_t first_ = 0, last_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void softmax_half(GM_ADDR x, GM_ADDR y, uint32_t rows) {
  SoftmaxRows op;
  op.Init(x, y, rows);
  op.Process();
}

int32_t SoftmaxHalfDo(uint32_t blockDim, void* stream, uint16_t* x, uint16_t* y, uint32_t rows) {
  return softmax_half<<<blockDim, nullptr, stream>>>(reinterpret_cast<GM_ADDR>(x),
                                                     reinterpret_cast<GM_ADDR>(y), rows);
}
