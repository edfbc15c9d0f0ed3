// SPDX-License-Identifier: Apache-2.0
// Mmad with a bias of the Ascend C twin (Atlas A2/A3): C = bias + A * B, the bias a row of n
// values in the bias table (C2) added to every row of C. Two forms:
//   Mmad(C, A, B, bias, params): the bias is `bias`;
//   Mmad(C, A, B, params) with cmatrixInitVal false and cmatrixSource true: the bias is the
//   bias table from address 0.
// One Mmad instruction on the M pipe (the bias table is read by the cube; its writer is ordered
// by the kernel's MTE1 -> M flag).
#pragma once

#include <cstdint>

#include "npusim/ascendc/cube_ops.h"

namespace npusim::ascendc {

template <class D, class A, class B, class Bias>
void mmad_with_bias(const AscendC::LocalTensor<D>& c, const AscendC::LocalTensor<A>& a,
                    const AscendC::LocalTensor<B>& b, const Bias* bias, std::uint64_t bias_size,
                    AscendC::MmadParams p) {
  {
    auto& ctx = block();
    ScalarPause pause(ctx);
    fill_bias<D>(ctx, cube_operand(c), bias, bias_size, p);
  }
  p.cmatrixInitVal = false;  // accumulate onto the bias
  p.cmatrixSource = false;
  p.isBias = false;
  mmad(c, a, b, p);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class D, class A, class B>
inline void Mmad(const LocalTensor<D>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
                 const LocalTensor<D>& bias, const MmadParams& p) {
  if (bias.mem() != npusim::ascendc::Mem::kBiasTable)
    npusim::ascendc::fail("Mmad", "the bias must be in the bias table (C2)");
  npusim::ascendc::mmad_with_bias(dst, fm, filter, bias.twin_data(), bias.GetSize(), p);
}

}  // namespace AscendC
