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
/// matmul_f32 with the config's iterateOrder ORDER_N (N moves first).
void matmul_order_n(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
/// matmul_f32 adding into C (IterateAll with enAtomic 1).
void matmul_atomic_add(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
/// 64 x 96 x 80 on one core from a MatmulApiStaticTiling (32 x 48 x 32 blocks); no tiling read.
void matmul_static(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
/// matmul_f32 whose A tiles come from a MatmulCallBackFunc copyA1.
void matmul_callback_a(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
/// matmul_f32 under TrianUpperMatmulPolicy (blocks below the block diagonal left alone).
void matmul_upper(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
/// One core, C written as NZ (float).
void matmul_nz(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
/// The same with isEnableChannelSplit: NZ in 16 x 8 fractals.
void matmul_nz_channel_split(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
/// int8 A[M][K], B stored [N][K] -> half C, dequantised by the float scale at `scale`.
void matmul_int8_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR c, GM_ADDR tiling);
/// The Matmul served across AIC and AIV: run as __mix__(1, 2), each AIV's part (singleCoreM
/// rows) through UB (C in VECIN, workspace `ws` of M x N floats) to C.
void matmul_mix(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR c, GM_ADDR tiling);
/// IterateBatch of tiling.BatchNum NORMAL-layout matrices (A: M x K, B: K x N, C: M x N each).
void batch_matmul_normal(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);

/// int8 A[M][K], B[K][N] (untransposed: L1 -> L0B by LoadDataWithTranspose) -> half C,
/// dequantised by the float scale at `scale`.
void matmul_int8_plain_b(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR c, GM_ADDR tiling);
/// IterateNBatch of BSNGD operands (A: [B, M, 1, G, K], B transposed: [B, N, 1, G, K], C:
/// [B, M, 1, G, N]) in tiling.ALayoutInfoB loops of G batches, into the workspace `c`.
void batch_matmul_n_batch(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);
/// isPartialOutput: each Iterate one k step of one block written sequentially to `ws`
/// (baseM x baseN floats each), then C = the sum of a block's k steps in UB by `acc = acc + t`.
void matmul_partial_sum(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR c, GM_ADDR tiling);

/// Two isA2B2Shared Matmuls of one tiling on one TPipe, run one after the other: C[i] = A[i] * B
/// for i = 0, 1 (A: two M x K matrices, C: two M x N).
void matmul_a2b2_pair(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);

/// 2:4 sparse B (SparseMatmulType): int8 A[M][K], B densified [N][K/2], its index matrix at
/// `index` (NZ, 16 x 8-byte fractals) -> int32 C.
void matmul_sparse(GM_ADDR a, GM_ADDR b, GM_ADDR index, GM_ADDR c, GM_ADDR tiling);

}  // namespace matmul_api_kernels
