// SPDX-License-Identifier: Apache-2.0
// Kernels of matmul_api_test.cpp: the Matmul high-level API (lib/matmul_intf.h) in cube kernels,
// built with -fsanitize-coverage=trace-pc as the toolchain builds kernel sources.
#include "matmul_api_kernels.h"

#define ASCENDC_CUBE_ONLY  // cube kernels: the Matmul runs on the calling core
#include "lib/matmul_intf.h"

namespace matmul_api_kernels {

using namespace matmul;

namespace {

template <class T, bool kTrans = false, LayoutMode kLayout = LayoutMode::NONE>
using Gm = MatmulType<TPosition::GM, CubeFormat::ND, T, kTrans, kLayout>;

/// Sets up and runs mm on this block's part of the problem (the devkit example's split: block
/// b takes M part b % mParts and N part b / mParts); enAtomic as given.
template <class In, class Out, class Mm>
void drive(Mm& mm, const TCubeTiling& tiling, GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
           bool trans_a, bool trans_b, std::uint8_t atomic = 0) {
  const int m_parts = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int mi = static_cast<int>(GetBlockIdx()) % m_parts;
  const int ni = static_cast<int>(GetBlockIdx()) / m_parts;
  GlobalTensor<In> ga, gb;
  GlobalTensor<Out> gc;
  GlobalTensor<float> gbias;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ Out*>(c));
  gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  const std::uint64_t m0 = static_cast<std::uint64_t>(mi) * tiling.singleCoreM;
  const std::uint64_t n0 = static_cast<std::uint64_t>(ni) * tiling.singleCoreN;
  mm.SetTensorA(ga[trans_a ? m0 : m0 * tiling.Ka], trans_a);
  mm.SetTensorB(gb[trans_b ? n0 * tiling.Kb : n0], trans_b);
  if (tiling.isBias) {
    if constexpr (std::is_same_v<In, half>) mm.SetBias(gbias[n0]);
  }
  const int tail_m = tiling.M - static_cast<int>(m0), tail_n = tiling.N - static_cast<int>(n0);
  if (tail_m < tiling.singleCoreM || tail_n < tiling.singleCoreN)
    mm.SetTail(tail_m < tiling.singleCoreM ? tail_m : -1,
               tail_n < tiling.singleCoreN ? tail_n : -1);
  mm.IterateAll(gc[m0 * tiling.N + n0], atomic);
  mm.End();
}

template <class Out, bool kTransA, bool kTransB, const auto& kCfg = CFG_NORM>
void run(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm,
         std::uint8_t atomic = 0) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half, kTransA>,
         MatmulType<TPosition::GM, CubeFormat::ND, half, kTransB>,
         MatmulType<TPosition::GM, CubeFormat::ND, Out>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>, kCfg>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  drive<half, Out>(mm, tiling, a, b, bias, c, kTransA, kTransB, atomic);
}

constexpr MatmulConfig kOrderN = [] {
  MatmulConfig c = CFG_NORM;
  c.iterateOrder = IterateOrder::ORDER_N;
  return c;
}();

constexpr MatmulApiStaticTiling kStatic =
    GetMatmulApiTiling<Gm<half>, Gm<half>, Gm<float>, Gm<float>>(
        GetMMConfig<MatmulConfigMode::CONFIG_MDL>(MatmulShapeParams{64, 96, 80, 32, 48, 32}));

/// copyA1 of a MatmulCallBackFunc: the A tile by its own ND2NZ (row pitch: tilingPtr).
void copy_a1(const LocalTensor<int8_t>& l1, const __gm__ void* gm, int row, int col, int use_m,
             int use_k, const uint64_t tiling_ptr, const uint64_t data_ptr) {
  (void)data_ptr;
  const auto base_m = static_cast<std::uint64_t>(reinterpret_cast<const TCubeTiling*>(
                                                     static_cast<std::uintptr_t>(tiling_ptr))
                                                     ->baseM);
  const auto base_k = static_cast<std::uint64_t>(reinterpret_cast<const TCubeTiling*>(
                                                     static_cast<std::uintptr_t>(tiling_ptr))
                                                     ->baseK);
  const int ka = reinterpret_cast<const TCubeTiling*>(static_cast<std::uintptr_t>(tiling_ptr))->Ka;
  GlobalTensor<half> src;
  src.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(const_cast<void*>(gm)));
  const auto m_pad = static_cast<std::uint16_t>((use_m + 15) / 16 * 16);
  DataCopy(l1.ReinterpretCast<half>(), src[row * base_m * ka + col * base_k],
           Nd2NzParams(1, static_cast<std::uint16_t>(use_m), static_cast<std::uint16_t>(use_k), 0,
                       static_cast<std::uint16_t>(ka), m_pad, 1, 0));
}

}  // namespace

void matmul_f32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling) {
  run<float, false, false>(a, b, bias, c, tiling);
}
void matmul_f16_trans(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling) {
  run<half, true, true>(a, b, bias, c, tiling);
}
void matmul_order_n(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling) {
  run<float, false, false, kOrderN>(a, b, bias, c, tiling);
}
void matmul_atomic_add(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling) {
  run<float, false, false>(a, b, bias, c, tiling, 1);
}

void matmul_static(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  (void)tiling_gm;
  TPipe pipe;
  Matmul<Gm<half>, Gm<half>, Gm<float>, Gm<float>, kStatic> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling*)nullptr);
  TCubeTiling t{};
  npusim::ascendc::mm::copy_static_tiling(kStatic, t);
  t.isBias = 0;
  drive<half, float>(mm, t, a, b, bias, c, false, false);
}

void matmul_callback_a(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<half>, Gm<half>, Gm<float>, Gm<float>, CFG_NORM,
         MatmulCallBackFunc<nullptr, copy_a1, nullptr>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetUserDefInfo(reinterpret_cast<std::uint64_t>(&tiling));
  drive<half, float>(mm, tiling, a, b, bias, c, false, false);
}

void matmul_upper(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<half>, Gm<half>, Gm<float>, Gm<float>, CFG_NORM,
         MatmulCallBackFunc<nullptr, nullptr, nullptr>, AscendC::Impl::Detail::TrianUpperMatmulPolicy>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  drive<half, float>(mm, tiling, a, b, bias, c, false, false);
}

namespace {
constexpr MatmulConfig kChannelSplit = [] {
  MatmulConfig c = CFG_NORM;
  c.isEnableChannelSplit = true;
  return c;
}();
}  // namespace

template <const auto& kCfg>
void run_nz(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<half>, Gm<half>, MatmulType<TPosition::GM, CubeFormat::NZ, float>, Gm<float>, kCfg>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  GlobalTensor<half> ga, gb;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  GlobalTensor<float> gc;
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  (void)bias;
  mm.IterateAll(gc);
  mm.End();
}

void matmul_nz(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  run_nz<CFG_NORM>(a, b, bias, c, tiling_gm);
}

void matmul_nz_channel_split(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  run_nz<kChannelSplit>(a, b, bias, c, tiling_gm);
}

void matmul_int8_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<int8_t>, Gm<int8_t, true>, Gm<half>, Gm<int32_t>> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetQuantScalar(*reinterpret_cast<const std::uint64_t*>(scale));
  drive<int8_t, half>(mm, tiling, a, b, nullptr, c, false, true);
}

void batch_matmul_normal(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<half, false, LayoutMode::NORMAL>, Gm<half, false, LayoutMode::NORMAL>,
         Gm<float, false, LayoutMode::NORMAL>, Gm<float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  (void)bias;
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  const auto n = static_cast<std::uint32_t>(tiling.BatchNum);
  mm.IterateBatch(gc, n, n, false);
  mm.End();
}

void matmul_int8_plain_b(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<int8_t>, Gm<int8_t>, Gm<half>, Gm<int32_t>> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetQuantScalar(*reinterpret_cast<const std::uint64_t*>(scale));
  drive<int8_t, half>(mm, tiling, a, b, nullptr, c, false, false);
}

constexpr MatmulConfig kNBatch = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{true, BatchMode::BATCH_LESS_THAN_L1, false});

void batch_matmul_n_batch(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<half, false, LayoutMode::BSNGD>, Gm<half, true, LayoutMode::BSNGD>,
         Gm<float, false, LayoutMode::BSNGD>, Gm<float>, kNBatch>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  (void)bias;
  mm.SetTensorA(ga, false);
  mm.SetTensorB(gb, true);
  mm.SetWorkspace(gc);
  const auto g = static_cast<std::uint32_t>(tiling.BatchNum);
  mm.IterateNBatch(static_cast<std::uint32_t>(tiling.ALayoutInfoB), g, g, false);
  mm.End();
}

constexpr MatmulConfig kPartial = [] {
  MatmulConfig c = CFG_MDL;
  c.isPartialOutput = true;
  return c;
}();

void matmul_partial_sum(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<half>, Gm<half>, Gm<float>, Gm<float>, kPartial> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gws, gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gws.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  const std::uint32_t block = static_cast<std::uint32_t>(tiling.baseM * tiling.baseN);
  std::uint32_t parts = 0;
  while (mm.Iterate()) mm.GetTensorC(gws[block * parts++], 0, true);
  mm.End();
  // One block of C (the test's shape): the sum of its k steps.
  TBuf<TPosition::VECCALC> tacc, tpart;
  pipe.InitBuffer(tacc, block * sizeof(float));
  pipe.InitBuffer(tpart, block * sizeof(float));
  LocalTensor<float> acc = tacc.Get<float>(), part = tpart.Get<float>();
  Duplicate(acc, 0.0f, static_cast<std::int32_t>(block));
  for (std::uint32_t i = 0; i < parts; ++i) {
    DataCopy(part, gws[block * i], block);
    const std::int32_t ev = GetTPipePtr()->FetchEventID(HardEvent::MTE2_V);
    SetFlag<HardEvent::MTE2_V>(ev);
    WaitFlag<HardEvent::MTE2_V>(ev);
    acc = acc + part;
    const std::int32_t ev2 = GetTPipePtr()->FetchEventID(HardEvent::V_MTE2);
    SetFlag<HardEvent::V_MTE2>(ev2);
    WaitFlag<HardEvent::V_MTE2>(ev2);
  }
  const std::int32_t ev3 = GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
  SetFlag<HardEvent::V_MTE3>(ev3);
  WaitFlag<HardEvent::V_MTE3>(ev3);
  DataCopy(gc, acc, block);
}

constexpr MatmulConfig kA2B2 = [] {
  MatmulConfig c = CFG_NORM;
  c.isA2B2Shared = true;
  return c;
}();

void matmul_a2b2_pair(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<half>, Gm<half>, Gm<float>, Gm<float>, kA2B2> mm1, mm2;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &tiling, mm2, &tiling);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc, gbias;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  const std::uint64_t a_size = static_cast<std::uint64_t>(tiling.M) * tiling.Ka;
  const std::uint64_t c_size = static_cast<std::uint64_t>(tiling.M) * tiling.N;
  mm1.SetTensorA(ga);
  mm1.SetTensorB(gb);
  mm2.SetTensorA(ga[a_size]);
  mm2.SetTensorB(gb);
  if (tiling.isBias) {
    mm1.SetBias(gbias);
    mm2.SetBias(gbias);
  }
  mm1.IterateAll(gc);
  mm1.End();
  mm2.IterateAll(gc[c_size]);
  mm2.End();
}

void matmul_sparse(GM_ADDR a, GM_ADDR b, GM_ADDR index, GM_ADDR c, GM_ADDR tiling_gm) {
  const TCubeTiling tiling = *reinterpret_cast<const TCubeTiling*>(tiling_gm);
  TPipe pipe;
  Matmul<Gm<int8_t>, SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND, int8_t, true>,
         Gm<int32_t>, Gm<int32_t>, CFG_MDL>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  GlobalTensor<int8_t> ga, gb;
  GlobalTensor<uint8_t> gi;
  GlobalTensor<int32_t> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(b));
  gi.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(index));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c));
  mm.SetTensorA(ga, false);
  mm.SetTensorB(gb, true);
  mm.SetSparseIndex(gi);
  mm.IterateAll(gc);
  mm.End();
}

}  // namespace matmul_api_kernels
