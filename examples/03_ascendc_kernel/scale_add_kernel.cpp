// SPDX-License-Identifier: Apache-2.0
// An Ascend C kernel: z = alpha * x + y on float vectors.
//
// Each block (one AI vector core) takes an equal share of the tiles. Per tile the three stages
// of the vector pipeline run on different pipes: MTE2 copies x and y from global memory into the
// core's unified buffer (UB), the vector unit computes, MTE3 copies z back. The queues hold two
// buffers each (double buffering), so the copy-in of tile t+1 overlaps the compute of tile t;
// npusim replays each block's pipe instructions with those dependencies to time the kernel.
#include "kernel_operator.h"
#include "scale_add.h"

namespace {

constexpr int32_t kBuffers = 2;  // 2 = double buffering; 1 = no overlap between the stages

class ScaleAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha, uint32_t tiles) {
    const uint32_t per_block = tiles / AscendC::GetBlockNum();  // the host makes it exact
    const uint64_t first = static_cast<uint64_t>(AscendC::GetBlockIdx()) * per_block * kTile;
    tiles_ = per_block;
    alpha_ = alpha;
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + first, per_block * kTile);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + first, per_block * kTile);
    z_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + first, per_block * kTile);
    pipe_.InitBuffer(x_in_, kBuffers, kTile * sizeof(float));
    pipe_.InitBuffer(y_in_, kBuffers, kTile * sizeof(float));
    pipe_.InitBuffer(z_out_, kBuffers, kTile * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < tiles_; ++t) {
      CopyIn(t);
      Compute();
      CopyOut(t);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t t) {  // MTE2: global memory -> UB
    AscendC::LocalTensor<float> x = x_in_.AllocTensor<float>();
    AscendC::LocalTensor<float> y = y_in_.AllocTensor<float>();
    AscendC::DataCopy(x, x_[t * kTile], kTile);
    AscendC::DataCopy(y, y_[t * kTile], kTile);
    x_in_.EnQue(x);  // hands the tile to Compute (and orders it after the copy)
    y_in_.EnQue(y);
  }

  __aicore__ inline void Compute() {  // V: z = alpha * x + y
    AscendC::LocalTensor<float> x = x_in_.DeQue<float>();
    AscendC::LocalTensor<float> y = y_in_.DeQue<float>();
    AscendC::LocalTensor<float> z = z_out_.AllocTensor<float>();
    AscendC::Muls(z, x, alpha_, kTile);
    AscendC::Add(z, z, y, kTile);
    z_out_.EnQue(z);
    x_in_.FreeTensor(x);  // the buffers go back to CopyIn
    y_in_.FreeTensor(y);
  }

  __aicore__ inline void CopyOut(uint32_t t) {  // MTE3: UB -> global memory
    AscendC::LocalTensor<float> z = z_out_.DeQue<float>();
    AscendC::DataCopy(z_[t * kTile], z, kTile);
    z_out_.FreeTensor(z);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, kBuffers> x_in_, y_in_;
  AscendC::TQue<AscendC::TPosition::VECOUT, kBuffers> z_out_;
  AscendC::GlobalTensor<float> x_, y_, z_;
  float alpha_ = 0;
  uint32_t tiles_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha,
                                                uint32_t tiles) {
  ScaleAdd op;
  op.Init(x, y, z, alpha, tiles);
  op.Process();
}

// The host calls this launcher; the <<<blocks, l2ctrl, stream>>> launch is valid only in a
// kernel source, which the toolchain compiles for the simulated cores.
int32_t ScaleAddLaunch(uint32_t blocks, void* stream, float* x, float* y, float* z, float alpha,
                       uint32_t tiles) {
  return scale_add<<<blocks, nullptr, stream>>>(reinterpret_cast<GM_ADDR>(x),
                                                reinterpret_cast<GM_ADDR>(y),
                                                reinterpret_cast<GM_ADDR>(z), alpha, tiles);
}
