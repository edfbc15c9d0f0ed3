// SPDX-License-Identifier: Apache-2.0
// lib/matmul_intf.h of the Ascend C twin: the Matmul high-level API (npusim/ascendc/matmul_api.h)
// under its two names (AscendC::Matmul and matmul::Matmul), and REGIST_MATMUL_OBJ, which
// initialises one or two Matmul objects with their tilings on a TPipe. The workspace argument is
// the system workspace (GetSysWorkSpacePtr); npusim's cube-only Matmul does not use it.
#pragma once

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "npusim/ascendc/matmul_api.h"
#include "npusim/ascendc/matmul_types.h"

namespace matmul {
using namespace AscendC;
}  // namespace matmul

namespace npusim::ascendc {

inline void regist_matmul(AscendC::TPipe* pipe) { (void)pipe; }

template <class Mm, class Tiling, class... Rest>
inline void regist_matmul(AscendC::TPipe* pipe, Mm& mm, const Tiling* tiling, Rest&&... rest) {
  mm.Init(tiling, pipe);
  regist_matmul(pipe, rest...);
}

}  // namespace npusim::ascendc

/// REGIST_MATMUL_OBJ(pipe, workspace, mm1, &tiling1[, mm2, &tiling2 ...]).
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                          \
  do {                                                                    \
    (void)(workspace);                                                    \
    ::npusim::ascendc::regist_matmul((tpipe), __VA_ARGS__);               \
  } while (0)
