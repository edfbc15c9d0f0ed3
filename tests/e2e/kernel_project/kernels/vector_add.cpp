// SPDX-License-Identifier: Apache-2.0
// c = a + b on float and fp16, through the Ascend C vector pipeline: per tile, MTE2 copies a and
// b into UB (VECIN queues), V adds, MTE3 copies c out (VECOUT queue). kBuffers buffers per queue:
// 2 = double buffering (the copy of tile t+1 overlaps the add of tile t), 1 = none.
// Tiles are spread over the blocks as evenly as whole tiles allow.
#include "kernel_operator.h"
#include "e2e_kernels.h"  // relative to this file: the toolchain must keep that working

namespace {

template <class T, int32_t kBuffers>
class VectorAdd {
 public:
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t tiles) {
    const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
    const uint32_t idx = static_cast<uint32_t>(AscendC::GetBlockIdx());
    const uint32_t first = tiles * idx / blocks;
    count_ = tiles * (idx + 1) / blocks - first;
    const uint64_t offset = static_cast<uint64_t>(first) * kVaddTile;
    a_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a) + offset, count_ * kVaddTile);
    b_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b) + offset, count_ * kVaddTile);
    c_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(c) + offset, count_ * kVaddTile);
    pipe_.InitBuffer(a_in_, kBuffers, kVaddTile * sizeof(T));
    pipe_.InitBuffer(b_in_, kBuffers, kVaddTile * sizeof(T));
    pipe_.InitBuffer(c_out_, kBuffers, kVaddTile * sizeof(T));
  }

  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < count_; ++t) {
      CopyIn(t);
      Compute();
      CopyOut(t);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t t) {
    AscendC::LocalTensor<T> a = a_in_.template AllocTensor<T>();
    AscendC::LocalTensor<T> b = b_in_.template AllocTensor<T>();
    AscendC::DataCopy(a, a_gm_[t * kVaddTile], kVaddTile);
    AscendC::DataCopy(b, b_gm_[t * kVaddTile], kVaddTile);
    a_in_.EnQue(a);
    b_in_.EnQue(b);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<T> a = a_in_.template DeQue<T>();
    AscendC::LocalTensor<T> b = b_in_.template DeQue<T>();
    AscendC::LocalTensor<T> c = c_out_.template AllocTensor<T>();
    AscendC::Add(c, a, b, kVaddTile);
    c_out_.EnQue(c);
    a_in_.FreeTensor(a);
    b_in_.FreeTensor(b);
  }
  __aicore__ inline void CopyOut(uint32_t t) {
    AscendC::LocalTensor<T> c = c_out_.template DeQue<T>();
    AscendC::DataCopy(c_gm_[t * kVaddTile], c, kVaddTile);
    c_out_.FreeTensor(c);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBuffers> a_in_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBuffers> b_in_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kBuffers> c_out_;
  AscendC::GlobalTensor<T> a_gm_, b_gm_, c_gm_;
  uint32_t count_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void vadd_float(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t tiles) {
  VectorAdd<float, 2> op;
  op.Init(a, b, c, tiles);
  op.Process();
}

extern "C" __global__ __aicore__ void vadd_float_single(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                        uint32_t tiles) {
  VectorAdd<float, 1> op;
  op.Init(a, b, c, tiles);
  op.Process();
}

extern "C" __global__ __aicore__ void vadd_half(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t tiles) {
  VectorAdd<half, 2> op;
  op.Init(a, b, c, tiles);
  op.Process();
}

int32_t VaddFloatDo(uint32_t blockDim, void* stream, float* a, float* b, float* c, uint32_t tiles) {
  return vadd_float<<<blockDim, nullptr, stream>>>(reinterpret_cast<GM_ADDR>(a),
                                                   reinterpret_cast<GM_ADDR>(b),
                                                   reinterpret_cast<GM_ADDR>(c), tiles);
}

int32_t VaddFloatSingleBufferDo(uint32_t blockDim, void* stream, float* a, float* b, float* c,
                                uint32_t tiles) {
  return vadd_float_single<<<blockDim, nullptr, stream>>>(
      reinterpret_cast<GM_ADDR>(a), reinterpret_cast<GM_ADDR>(b), reinterpret_cast<GM_ADDR>(c),
      tiles);
}

int32_t VaddHalfDo(uint32_t blockDim, void* stream, uint16_t* a, uint16_t* b, uint16_t* c,
                   uint32_t tiles) {
  return vadd_half<<<blockDim, nullptr, stream>>>(reinterpret_cast<GM_ADDR>(a),
                                                  reinterpret_cast<GM_ADDR>(b),
                                                  reinterpret_cast<GM_ADDR>(c), tiles);
}
