// SPDX-License-Identifier: Apache-2.0
// Kernels of matmul_api_test.cpp: the Matmul high-level API (lib/matmul_intf.h) in cube kernels,
// built with -fsanitize-coverage=trace-pc as the toolchain builds kernel sources.
#include "matmul_api_kernels.h"

#include "lib/matmul_intf.h"

namespace matmul_api_kernels {

namespace {

template <class Out, bool kTransA, bool kTransB>
void run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  using namespace matmul;
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half, kTransA>,
         MatmulType<TPosition::GM, CubeFormat::ND, half, kTransB>,
         MatmulType<TPosition::GM, CubeFormat::ND, Out>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  // The example's split: block b takes M part b % mParts and N part b / mParts.
  const int m_parts = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int mi = static_cast<int>(GetBlockIdx()) % m_parts;
  const int ni = static_cast<int>(GetBlockIdx()) / m_parts;
  GlobalTensor<half> ga, gb;
  GlobalTensor<Out> gc;
  GlobalTensor<float> gbias;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ Out*>(c));
  gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  const std::uint64_t m0 = static_cast<std::uint64_t>(mi) * tiling.singleCoreM;
  const std::uint64_t n0 = static_cast<std::uint64_t>(ni) * tiling.singleCoreN;
  mm.SetTensorA(ga[kTransA ? m0 : m0 * tiling.Ka], kTransA);
  mm.SetTensorB(gb[kTransB ? n0 * tiling.Kb : n0], kTransB);
  if (tiling.isBias) mm.SetBias(gbias[n0]);
  const int tail_m = tiling.M - static_cast<int>(m0), tail_n = tiling.N - static_cast<int>(n0);
  if (tail_m < tiling.singleCoreM || tail_n < tiling.singleCoreN)
    mm.SetTail(tail_m < tiling.singleCoreM ? tail_m : -1,
               tail_n < tiling.singleCoreN ? tail_n : -1);
  mm.IterateAll(gc[m0 * tiling.N + n0]);
  mm.End();
}

}  // namespace

void matmul_f32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling) {
  run<float, false, false>(a, b, bias, c, tiling);
}
void matmul_f16_trans(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling) {
  run<half, true, true>(a, b, bias, c, tiling);
}

}  // namespace matmul_api_kernels
