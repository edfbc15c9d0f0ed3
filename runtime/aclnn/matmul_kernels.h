// SPDX-License-Identifier: Apache-2.0
// Cube kernels of the matmul family (matmul_kernels.cpp, Ascend C on the twin) and their tiling.
//
// C[b] (m x n) = A[b] (m x k) * B[b] (k x n) for every batch index b, fp32 accumulation in L0C.
// The output is tiled into baseM x baseN blocks (tile t of batch b: t / nTiles, t % nTiles);
// block i of the launch computes the i-th of blockNum even runs of consecutive tiles (keeping
// the A panel in L1 between tiles of one row when it fits: aResident). Per tile the kernel
// walks K in L1 steps of stepK * baseK (GM -> L1 by DataCopy ND2NZ on MTE2, two L1 buffers so the
// next step's copy overlaps the cube), each split into baseK-deep L0 steps (L1 -> L0A / L0B by
// LoadData on MTE1, two buffers each) multiplied by Mmad into one L0C accumulator, then Fixpipe
// converts and writes the valid mv x nv part of the tile to GM (row-major, row stride ldc).
//
// Operand layouts (each matrix is a strided view with unit stride on one of its two axes):
//  - A "normal" (k contiguous, element (i, j) at i * lda + j) or "transposed" (m contiguous,
//    element (i, j) at j * lda + i);
//  - B "normal" (n contiguous, (i, j) at i * ldb + j) or "transposed" (k contiguous,
//    (i, j) at j * ldb + i) — the layout of `x @ w.T` with w stored row-major.
// The cube wants both operands k-contiguous inside its fractals: A normal and B transposed load
// straight; A transposed and B normal are transposed on the way to L0 (LoadData ifTranspose for
// 16-bit types, LoadDataWithTranspose (matmul_ops.h) for float, which needs its L1 tile copied in
// 16-row chunks).
#pragma once

#include <cstdint>

namespace npusim::aclnn {

inline constexpr int kMaxBatchDims = 8;

struct MatmulTiling {
  std::uint32_t m = 0, n = 0, k = 0;
  std::uint32_t baseM = 0, baseN = 0, baseK = 0, stepK = 0;
  std::uint32_t mTiles = 0, nTiles = 0;
  std::uint64_t batch = 1;  // product of batchShape
  bool transA = false, transB = false;
  // A's whole k extent for one baseM panel stays in L1 while a block walks tiles along n (B
  // alone streams over k); else A streams with B.
  bool aResident = false;
  std::int64_t lda = 0, ldb = 0, ldc = 0;  // in elements
  // Batch dimensions of the output (outermost first) and each operand's element stride along
  // them (0 where the operand is broadcast).
  std::int32_t batchDims = 0;
  std::int64_t batchShape[kMaxBatchDims] = {};
  std::int64_t aBatchStride[kMaxBatchDims] = {};
  std::int64_t bBatchStride[kMaxBatchDims] = {};
  std::int64_t cBatchStride[kMaxBatchDims] = {};
  // With bias: C += bias[i] (one value per row of C, the layout of a convolution's output) as one
  // more k step, bias (m x 1) times a row of ones (1 x n) read from `ones` (>= baseN elements).
  bool bias = false;
  std::int64_t biasBatchStride[kMaxBatchDims] = {};  // bias elements per batch index
};

/// Element types of a matmul launch: 0 = FLOAT16, 1 = BFLOAT16, 2 = FLOAT.
enum class MmType : std::uint8_t { kHalf, kBf16, kFloat };

/// Runs one block of the matmul kernel for input type `in` and output type `out`.
void matmul_kernel(MmType in, MmType out, std::uint8_t* a, std::uint8_t* b, std::uint8_t* c,
                   std::uint8_t* bias, std::uint8_t* ones, const MatmulTiling& t);
/// The kernel's identity (one per type pair) for the launch.
const void* matmul_kernel_identity(MmType in, MmType out);

/// FLOAT inputs computed in lower precision (cubeMathType): a vector kernel first rounds the
/// storage spans of self and mat2 (countA, countB elements from their first element) into copies
/// in the workspace: FLOAT16 copies (USE_FP16, round to nearest even) or FLOAT copies rounded to
/// HFLOAT32's 11 significant bits (hf32: ALLOW_FP32_DOWN_PRECISION, USE_HF32; |x| must stay
/// below FLT_MAX / 8193). The matmul then reads the copies with the original strides. Block i
/// converts the i-th of blockNum even runs of the countA + countB elements, in pieces of
/// `chunk` elements (GM -> UB, convert, UB -> GM, double-buffered).
struct CastTiling {
  std::uint64_t countA = 0, countB = 0;
  std::uint32_t chunk = 2048;
  bool hf32 = false;
};
void convert_inputs_kernel(std::uint8_t* a, std::uint8_t* a2, std::uint8_t* b, std::uint8_t* b2,
                           const CastTiling& t);
const void* convert_inputs_kernel_identity(bool hf32);

}  // namespace npusim::aclnn
