// SPDX-License-Identifier: Apache-2.0
// The element-wise family's Ascend C kernels (elementwise_kernels.cpp) and their tiling.
//
// One kernel template serves every op of the family: ew_kernel<T, C, D> reads one or two inputs
// of storage type T, computes in C (float for half/bfloat16 activations and bfloat16 arithmetic)
// and writes D. The output is seen as rows x cols after merging dimensions that broadcast alike
// (EwTiling::dims, the last one cols); a unit of work is either a group of whole rows (each row
// at a 32-element aligned pitch in UB) or a chunk of one row. Blocks take consecutive units; each
// unit is CopyIn (MTE2) -> Compute (V) -> CopyOut (MTE3) through double-buffered queues.
//
// How an input operand is fetched (EwOperand::kind):
//  kFull     contiguous like the output: one (multi-burst) DataCopyPad per unit;
//  kRow      the same row for every output row (a bias [N] on [M, N]): loaded once per block,
//            replicated for the rows of a unit;
//  kScalar   one element (shape [1] or all ones): read once (GetValue) and Duplicate'd;
//  kImmediate a host scalar (aclnnAdds...): Duplicate'd once;
//  kStrided  anything else: per row, the kernel's scalar code computes the source offset from
//            the row index (strides 0 along broadcast dimensions); a row broadcast along the
//            last dimension is one GetValue + Duplicate.
// The output is kFull (row-major over the merged dimensions: one multi-burst copy out a unit) or
// kStrided (a non-contiguous view: one copy out per row at its offset).
#pragma once

#include <cstdint>

namespace npusim::aclnn {

constexpr int kEwMaxDims = 8;

enum class EwKind : std::uint8_t { kFull, kRow, kScalar, kImmediate, kStrided };

/// What the compute stage does (one family of ops per kernel instantiation set).
enum class EwOp : std::uint8_t {
  kAdd,  // x + alpha * y
  kSub,  // x - alpha * y
  kMul,
  kDiv,
  kRelu,
  kGelu,  // tanh approximation, as x / (1 + exp(-2 * sqrt(2/pi) * (x + 0.044715 x^3)))
  kSilu,
  kSigmoid,
  kTanh,
  kExp,
  kGeluErf,  // the exact form 0.5 x (1 + erf(x / sqrt(2))), erf by Abramowitz-Stegun 7.1.26
  kCast,     // D from T (C = T)
  kToBool    // 1 where x != 0, else 0 (C = float, D = uint8): min(|x|, 1) rounded up
};

struct EwOperand {
  EwKind kind = EwKind::kFull;
  std::int64_t strides[kEwMaxDims] = {};  // kStrided: elements per step of each merged dim
};

struct EwTiling {
  EwOp op = EwOp::kAdd;
  std::int32_t inputs = 1;             // 1 or 2
  std::int32_t ndim = 1;               // merged output dimensions (>= 1)
  std::int64_t dims[kEwMaxDims] = {};  // merged output dimensions; dims[ndim - 1] == cols
  std::int64_t rows = 0, cols = 0;     // rows = product of dims[0 .. ndim - 1)
  std::int64_t chunk = 0;              // columns per unit (== cols when whole rows)
  std::int64_t chunks = 1;             // units per row (1: units are groups of whole rows)
  std::int64_t rows_per_unit = 1;
  std::int64_t pitch = 0;  // UB elements between rows of a unit (multiple of 32)
  std::int64_t units = 0, units_per_block = 0;
  std::uint32_t tile = 0;  // elements of every UB buffer
  std::uint32_t blocks = 1;
  EwOperand in[2];
  EwOperand out;     // kFull (row-major) or kStrided (per-row offsets)
  double alpha = 1;  // kAdd / kSub: the factor of y (scale_other)
  bool scale_other = false;
  double immediate = 0;    // a kImmediate operand's value
  std::int32_t round = 0;  // AscendC::RoundMode of the final Cast (kCast)
};

/// A kernel instantiation: x (and y for binary ops) in, z out (device addresses); `t` from the
/// host planning (elementwise.cpp).
using EwKernel = void (*)(std::uint8_t* x, std::uint8_t* y, std::uint8_t* z, const EwTiling& t);

/// The kernel reading ACL type `in`, computing in `compute` and writing `out` (aclDataType
/// values); nullptr for a combination that has none. Arithmetic and activations: FLOAT, FLOAT16
/// and INT32 compute in their own type, FLOAT16 (activations) and BF16 in FLOAT. Cast (compute ==
/// in): every pair of FLOAT, FLOAT16, BF16, INT32, INT8, UINT8, INT16, INT64; to BOOL (kToBool):
/// any of those in, FLOAT compute, UINT8 out.
EwKernel ew_kernel_for(int in, int compute, int out);

}  // namespace npusim::aclnn
