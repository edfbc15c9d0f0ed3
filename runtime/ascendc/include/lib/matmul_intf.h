// SPDX-License-Identifier: Apache-2.0
// lib/matmul_intf.h of the Ascend C twin: the Matmul high-level API (npusim/ascendc/matmul_api.h)
// under its two names (AscendC::Matmul and matmul::Matmul), its configuration (npusim/ascendc/
// matmul_config.h, matmul_policy.h), and REGIST_MATMUL_OBJ, which initialises Matmul objects
// with their tilings on a TPipe (an object given without a tiling is initialised later by its
// own Init; a null tiling means the MatmulApiStaticTiling of its MM_CFG). The workspace argument
// is the system workspace (GetSysWorkSpacePtr); npusim's cube-only Matmul does not use it.
#pragma once

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "npusim/ascendc/matmul_api.h"
#include "npusim/ascendc/matmul_config.h"
#include "npusim/ascendc/matmul_policy.h"
#include "npusim/ascendc/matmul_types.h"

namespace matmul {
using namespace AscendC;
}  // namespace matmul

namespace npusim::ascendc {

inline void regist_matmul(AscendC::TPipe* pipe) { (void)pipe; }

/// An object without a tiling: its own Init(tiling) follows.
template <class Mm>
inline void regist_matmul(AscendC::TPipe* pipe, Mm& mm) {
  (void)pipe, (void)mm;
}

template <class Mm, class Tiling, class... Rest>
inline void regist_matmul(AscendC::TPipe* pipe, Mm& mm, const Tiling* tiling, Rest&&... rest) {
  mm.Init(tiling, pipe);
  regist_matmul(pipe, rest...);
}

}  // namespace npusim::ascendc

namespace {
/// ASCENDC_CUBE_ONLY (defined before this header): the kernel's Matmuls run on the core that
/// calls them. Otherwise, as in CANN, a Matmul kernel is an AIC:AIV = 1:2 mixed kernel whose
/// AIVs drive the Matmul and whose AIC serves it (npusim/ascendc/matmul_mix.h).
#ifdef ASCENDC_CUBE_ONLY
constexpr bool kNpusimMatmulCubeOnly = true;
#else
constexpr bool kNpusimMatmulCubeOnly = false;
#endif
}  // namespace

/// REGIST_MATMUL_OBJ(pipe, workspace, mm1, &tiling1[, mm2, &tiling2 ...]). Without
/// ASCENDC_CUBE_ONLY, a kernel not declared __cube__ or __mix__ runs as __mix__(1, 2) from here
/// (the launch starts again as a mixed one), and on the AIC it then serves the AIVs' Matmul
/// calls and returns from the enclosing function (the kernel) when they are done.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                          \
  do {                                                                    \
    (void)(workspace);                                                    \
    ::npusim::ascendc::mm::mix_begin(kNpusimMatmulCubeOnly);              \
    ::npusim::ascendc::regist_matmul((tpipe), __VA_ARGS__);               \
  } while (0);                                                            \
  if (::npusim::ascendc::mm::mix_serve()) return
