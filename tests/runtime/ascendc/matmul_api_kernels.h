// SPDX-License-Identifier: Apache-2.0
// Cube kernels using the Matmul high-level API (matmul_api_kernels.cpp): C = A * B (+ bias) with
// a TCubeTiling read from `tiling`, each block its part as the devkit's matmul example splits.
#pragma once

#include "kernel_operator.h"

namespace matmul_api_kernels {

/// half A[M][K], B[K][N] -> float C.
void matmul_f32(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
/// half A stored [K][M], B stored [N][K] (both transposed) -> half C.
void matmul_f16_trans(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);

}  // namespace matmul_api_kernels
