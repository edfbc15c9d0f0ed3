// SPDX-License-Identifier: Apache-2.0
// Mixed-kernel Matmul of matmul_api_test.cpp (lib/matmul_intf.h without ASCENDC_CUBE_ONLY): the
// AIVs drive the Matmul, the AIC serves it (npusim/ascendc/matmul_mix.h). Each AIV of a
// __mix__(1, 2) launch takes half of M; C goes to GM (GetTensorC) or, with `via_ub`, to UB
// through the workspace and then to GM by the AIV's own DataCopy.
#include "matmul_api_kernels.h"

#include "lib/matmul_intf.h"

namespace matmul_api_kernels {

void matmul_mix(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR c, GM_ADDR tiling_gm) {
  using namespace matmul;
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::VECIN, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  const std::uint64_t m0 = GetBlockIdx() * static_cast<std::uint64_t>(tiling.singleCoreM);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc, gws;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  gws.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws));
  gws = gws[m0 * tiling.N];
  mm.SetWorkspace(gws);
  mm.SetTensorA(ga[m0 * tiling.Ka]);
  mm.SetTensorB(gb);
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, tiling.baseM * tiling.baseN * sizeof(float));
  int blk = 0;
  const int m_iter = (tiling.singleCoreM + tiling.baseM - 1) / tiling.baseM;
  while (mm.Iterate()) {
    LocalTensor<float> ub = q.AllocTensor<float>();
    mm.GetTensorC(ub, 0, true);
    q.EnQue(ub);
    ub = q.DeQue<float>();
    const std::uint64_t row = m0 + static_cast<std::uint64_t>(blk % m_iter) * tiling.baseM;
    const std::uint64_t col = static_cast<std::uint64_t>(blk / m_iter) * tiling.baseN;
    DataCopy(gc[row * tiling.N + col], ub,
             DataCopyParams(static_cast<std::uint16_t>(tiling.baseM),
                            static_cast<std::uint16_t>(tiling.baseN * sizeof(float) / 32), 0,
                            static_cast<std::uint16_t>((tiling.N - tiling.baseN) * sizeof(float) /
                                                       32)));
    q.FreeTensor(ub);
    ++blk;
  }
  mm.End();
}

}  // namespace matmul_api_kernels
