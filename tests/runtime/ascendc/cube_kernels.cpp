// SPDX-License-Identifier: Apache-2.0
// Kernels of cube_kernels.h; this file is built with -fsanitize-coverage=trace-pc, as the
// toolchain builds kernel sources.
#include "cube_kernels.h"

namespace cube_kernels {

using namespace AscendC;

template <class In, class Acc, class Out>
void mmad_chain(GM_ADDR a, GM_ADDR b, GM_ADDR c, std::uint32_t m, std::uint32_t n, std::uint32_t k,
                std::uint32_t calls, std::uint32_t quant_relu, std::uint64_t deq) {
  constexpr std::uint32_t kK0 = 32 / sizeof(In);
  const std::uint32_t m1 = (m + 15) / 16, n1 = (n + 15) / 16, k1 = (k + kK0 - 1) / kK0;
  TPipe pipe;
  TQue<TPosition::A2, 1> qa;
  TQue<TPosition::B2, 1> qb;
  TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qa, 1, m1 * k1 * 512);
  pipe.InitBuffer(qb, 1, k1 * n1 * 512);
  pipe.InitBuffer(qc, 1, m1 * n1 * 256 * sizeof(Acc));
  GlobalTensor<In> ga, gb;
  GlobalTensor<Out> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ Out*>(c));
  LocalTensor<Acc> lc = qc.AllocTensor<Acc>();
  for (std::uint32_t i = 0; i < calls; ++i) {
    LocalTensor<In> la = qa.AllocTensor<In>();
    LocalTensor<In> lb = qb.AllocTensor<In>();
    LoadData(la, ga[static_cast<std::uint64_t>(i) * m1 * k1 * 512 / sizeof(In)],
             LoadData2DParams(0, static_cast<std::uint8_t>(m1 * k1), 1, 0, 0, false, 0));
    LoadData(lb, gb[static_cast<std::uint64_t>(i) * k1 * n1 * 512 / sizeof(In)],
             LoadData2DParams(0, static_cast<std::uint8_t>(k1 * n1), 1, 0, 0, false, 0));
    qa.EnQue(la);
    qb.EnQue(lb);
    la = qa.DeQue<In>();
    lb = qb.DeQue<In>();
    MmadParams p;
    p.m = static_cast<std::uint16_t>(m);
    p.n = static_cast<std::uint16_t>(n);
    p.k = static_cast<std::uint16_t>(k);
    p.cmatrixInitVal = i == 0;
    Mmad(lc, la, lb, p);
    qa.FreeTensor(la);
    qb.FreeTensor(lb);
  }
  qc.EnQue(lc);
  lc = qc.DeQue<Acc>();
  FixpipeParamsV220 fp(static_cast<std::uint16_t>(n), static_cast<std::uint16_t>(m),
                       static_cast<std::uint16_t>(m1 * 16), n, (quant_relu & 0x100u) != 0);
  fp.quantPre = static_cast<QuantMode_t>(quant_relu & 0xffu);
  fp.deqScalar = deq;
  Fixpipe(gc, lc, fp);
  qc.FreeTensor(lc);
}

// The instantiations the kernels use: mmad_chain<input, accumulator, output>.
#define NPUSIM_MMAD_CHAIN(A, C, OUT)                                                            \
  template void mmad_chain<A, C, OUT>(GM_ADDR, GM_ADDR, GM_ADDR, std::uint32_t, std::uint32_t, \
                                      std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t)
NPUSIM_MMAD_CHAIN(half, float, float);
NPUSIM_MMAD_CHAIN(half, float, half);
NPUSIM_MMAD_CHAIN(bfloat16_t, float, bfloat16_t);
NPUSIM_MMAD_CHAIN(bfloat16_t, float, float);
NPUSIM_MMAD_CHAIN(float, float, float);
NPUSIM_MMAD_CHAIN(float, float, half);
NPUSIM_MMAD_CHAIN(float, float, bfloat16_t);
NPUSIM_MMAD_CHAIN(std::int8_t, std::int32_t, std::int32_t);
NPUSIM_MMAD_CHAIN(std::int8_t, std::int32_t, half);
#undef NPUSIM_MMAD_CHAIN

namespace {

// The cube calls of one_mmad: A and B are one t x t tile each, already in L0 layout in GM.
// bfloat16_t in and out: no test TU built without coverage instantiates these twin templates
// (the linker keeps one copy of an inline template, maybe an uninstrumented one).
void cube_calls(GM_ADDR a, GM_ADDR b, GM_ADDR out, std::uint32_t t) {
  TPipe pipe;
  TQue<TPosition::A2, 1> qa;
  TQue<TPosition::B2, 1> qb;
  TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qa, 1, t * t * sizeof(bfloat16_t));
  pipe.InitBuffer(qb, 1, t * t * sizeof(bfloat16_t));
  pipe.InitBuffer(qc, 1, t * t * sizeof(float));
  GlobalTensor<bfloat16_t> ga, gb, gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ bfloat16_t*>(out));
  const auto fractals = static_cast<std::uint8_t>(t / 16 * t / 16);
  LocalTensor<bfloat16_t> la = qa.AllocTensor<bfloat16_t>();
  LocalTensor<bfloat16_t> lb = qb.AllocTensor<bfloat16_t>();
  LocalTensor<float> lc = qc.AllocTensor<float>();
  LoadData(la, ga, LoadData2DParams(0, fractals, 1, 0, 0, false, 0));
  LoadData(lb, gb, LoadData2DParams(0, fractals, 1, 0, 0, true, 0));
  MmadParams p;
  p.m = p.n = p.k = static_cast<std::uint16_t>(t);
  Mmad(lc, la, lb, p);
  FixpipeParamsV220 fp(static_cast<std::uint16_t>(t), static_cast<std::uint16_t>(t),
                       static_cast<std::uint16_t>(t), t, false);
  fp.quantPre = QuantMode_t::F322BF16;
  Fixpipe(gc, lc, fp);
  qa.FreeTensor(la);
  qb.FreeTensor(lb);
  qc.FreeTensor(lc);
}

}  // namespace

void one_mmad(GM_ADDR a, GM_ADDR b, GM_ADDR out, std::uint32_t t) { cube_calls(a, b, out, t); }

void one_mmad_callbacks(GM_ADDR a, GM_ADDR b, GM_ADDR out, std::uint32_t t,
                        std::uint64_t* counted) {
  namespace nk = npusim::ascendc;
  std::uint64_t callbacks = 0;
  nk::detail::set_scalar_counter(&callbacks);
  cube_calls(a, b, out, t);
  nk::detail::set_scalar_counter(&nk::block().scalar_bbs);
  counted[0] = callbacks;
}

}  // namespace cube_kernels
