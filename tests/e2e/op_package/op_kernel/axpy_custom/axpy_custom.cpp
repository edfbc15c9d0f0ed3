// SPDX-License-Identifier: Apache-2.0
// AxpyCustom's kernel: z = x + alpha * y over this block's perBlock elements, 256 at a time.
#include "axpy_tiling.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void axpy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                  GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(AxpyTiling);
  GET_TILING_DATA(t, tiling);
  constexpr uint32_t kTile = 256;
  const uint32_t base = t.perBlock * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<DTYPE_X> xg, yg;
  AscendC::GlobalTensor<DTYPE_Z> zg;
  xg.SetGlobalBuffer((__gm__ DTYPE_X*)x + base, t.perBlock);
  yg.SetGlobalBuffer((__gm__ DTYPE_Y*)y + base, t.perBlock);
  zg.SetGlobalBuffer((__gm__ DTYPE_Z*)z + base, t.perBlock);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by;
  pipe.InitBuffer(bx, kTile * sizeof(float));
  pipe.InitBuffer(by, kTile * sizeof(float));
  AscendC::LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>();
  for (uint32_t off = 0; off < t.perBlock; off += kTile) {
    AscendC::DataCopy(lx, xg[off], kTile);
    AscendC::DataCopy(ly, yg[off], kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Axpy(lx, ly, t.alpha, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zg[off], lx, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}
