// SPDX-License-Identifier: Apache-2.0
// Ascend C kernels of the trace memo tests (trace_memo_test.cpp), launched through the `<<<>>>`
// seam; each counts its body runs in g_memo_probe_runs.
#include "tests/runtime/core/memo_kernels.h"

#include "kernel_operator.h"

int g_memo_probe_runs = 0;

namespace {

constexpr uint32_t kTile = 256;

struct Padded {
  uint8_t tag;  // 3 padding bytes follow
  uint32_t tiles;
};

__aicore__ void probe_tiles(GM_ADDR x, uint32_t tiles) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  AscendC::LocalTensor<float> t = buf.Get<float>();
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + AscendC::GetBlockIdx() * tiles * kTile,
                    tiles * kTile);
  for (uint32_t i = 0; i < tiles; ++i) {
    AscendC::DataCopy(t, g[i * kTile], kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Adds(t, t, 1.0f, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(g[i * kTile], t, kTile);
    AscendC::PipeBarrier<PIPE_ALL>();
  }
}

__global__ __aicore__ void memo_probe(GM_ADDR x, uint32_t tiles) {
  ++g_memo_probe_runs;
  probe_tiles(x, tiles);
  AscendC::printf("probe %d %d\n", static_cast<int32_t>(AscendC::GetBlockIdx()),
                  static_cast<int32_t>(tiles));
}

__global__ __aicore__ void memo_padded(GM_ADDR x, Padded p) {
  ++g_memo_probe_runs;
  probe_tiles(x, p.tiles);
}

__global__ __aicore__ void memo_fail(GM_ADDR x, uint32_t fail_block) {
  ++g_memo_probe_runs;
  probe_tiles(x, 1);
  if (AscendC::GetBlockIdx() == fail_block) asm("trap");
}

}  // namespace

int32_t MemoProbeDo(uint32_t block_dim, void* stream, float* x, uint32_t tiles) {
  return npusim::ascendc::launch(memo_probe, "memo_probe", block_dim, nullptr, stream,
                                reinterpret_cast<GM_ADDR>(x), tiles);
}

int32_t MemoPaddedDo(uint32_t block_dim, void* stream, float* x, uint8_t tag) {
  return npusim::ascendc::launch(memo_padded, "memo_padded", block_dim, nullptr, stream,
                                reinterpret_cast<GM_ADDR>(x), Padded{tag, 2});
}

int32_t MemoFailDo(uint32_t block_dim, void* stream, float* x, uint32_t fail_block) {
  return npusim::ascendc::launch(memo_fail, "memo_fail", block_dim, nullptr, stream,
                                reinterpret_cast<GM_ADDR>(x), fail_block);
}
