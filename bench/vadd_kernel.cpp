// SPDX-License-Identifier: Apache-2.0
// Benchmark kernel: z = x + y on float, the usual Ascend C vector pipeline (CopyIn → Compute →
// CopyOut) with double-buffered queues. Each block handles `len` elements in `tiles` tiles, so a
// block replays 4 pipe instructions per tile (MTE2 ×2, V, MTE3).
#include "kernel_operator.h"

namespace {

constexpr int32_t kBufferNum = 2;

class VAdd {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t len, uint32_t tiles) {
    len_ = len;
    tiles_ = tiles;
    tile_len_ = len / tiles;
    const uint64_t offset = static_cast<uint64_t>(len) * AscendC::GetBlockIdx();
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + offset, len);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + offset, len);
    z_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + offset, len);
    pipe_.InitBuffer(in_x_, kBufferNum, tile_len_ * sizeof(float));
    pipe_.InitBuffer(in_y_, kBufferNum, tile_len_ * sizeof(float));
    pipe_.InitBuffer(out_z_, kBufferNum, tile_len_ * sizeof(float));
  }

  __aicore__ void Process() {
    for (uint32_t i = 0; i < tiles_; ++i) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ void CopyIn(uint32_t i) {
    AscendC::LocalTensor<float> x = in_x_.AllocTensor<float>();
    AscendC::LocalTensor<float> y = in_y_.AllocTensor<float>();
    AscendC::DataCopy(x, x_[i * tile_len_], tile_len_);
    AscendC::DataCopy(y, y_[i * tile_len_], tile_len_);
    in_x_.EnQue(x);
    in_y_.EnQue(y);
  }

  __aicore__ void Compute() {
    AscendC::LocalTensor<float> x = in_x_.DeQue<float>();
    AscendC::LocalTensor<float> y = in_y_.DeQue<float>();
    AscendC::LocalTensor<float> z = out_z_.AllocTensor<float>();
    AscendC::Add(z, x, y, tile_len_);
    out_z_.EnQue(z);
    in_x_.FreeTensor(x);
    in_y_.FreeTensor(y);
  }

  __aicore__ void CopyOut(uint32_t i) {
    AscendC::LocalTensor<float> z = out_z_.DeQue<float>();
    AscendC::DataCopy(z_[i * tile_len_], z, tile_len_);
    out_z_.FreeTensor(z);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBufferNum> in_x_, in_y_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kBufferNum> out_z_;
  AscendC::GlobalTensor<float> x_, y_, z_;
  uint32_t len_ = 0, tiles_ = 0, tile_len_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void bench_vadd(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t len,
                                                 uint32_t tiles) {
  VAdd op;
  op.Init(x, y, z, len, tiles);
  op.Process();
}

int32_t bench_vadd_do(uint32_t block_dim, void* stream, void* x, void* y, void* z, uint32_t len,
                      uint32_t tiles) {
  return bench_vadd<<<block_dim, nullptr, stream>>>(static_cast<GM_ADDR>(x), static_cast<GM_ADDR>(y),
                                                    static_cast<GM_ADDR>(z), len, tiles);
}
