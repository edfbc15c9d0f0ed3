// SPDX-License-Identifier: Apache-2.0
// A kernel in a .cpp source that the project marks LANGUAGE ASC: out[i] = start + i (int32).
#include "kernel_operator.h"
#include "vadd.h"

__global__ __aicore__ void iota_kernel(GM_ADDR out, int32_t start, uint32_t tiles) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, kTileElems * sizeof(int32_t));
  AscendC::GlobalTensor<int32_t> gm;
  const uint32_t per_block = tiles / AscendC::GetBlockNum();
  const uint64_t first = static_cast<uint64_t>(AscendC::GetBlockIdx()) * per_block * kTileElems;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out) + first, per_block * kTileElems);
  for (uint32_t t = 0; t < per_block; ++t) {
    AscendC::LocalTensor<int32_t> v = q.AllocTensor<int32_t>();
    for (uint32_t i = 0; i < kTileElems; ++i) {
      v.SetValue(i, start + static_cast<int32_t>(first + t * kTileElems + i));
    }
    q.EnQue(v);
    v = q.DeQue<int32_t>();
    AscendC::DataCopy(gm[t * kTileElems], v, kTileElems);
    q.FreeTensor(v);
  }
}

aclError LaunchIota(uint32_t blocks, aclrtStream stream, void* out, int32_t start, uint32_t tiles) {
  return iota_kernel<<<blocks, nullptr, stream>>>(static_cast<uint8_t*>(out), start, tiles);
}
