// SPDX-License-Identifier: Apache-2.0
// Host-side helpers of the matmul family shared by matmul.cpp and conv.cpp: the checks of the
// element types and cubeMathType, and the tiling of the cube kernel (matmul_kernels.h).
#pragma once

#include <cstdint>

#include "runtime/aclnn/matmul_kernels.h"
#include "runtime/aclnn/op_api.h"

namespace npusim::aclnn {

/// The kernel element type of an operator data type (FLOAT16, BFLOAT16, FLOAT).
MmType mm_type(int dtype);

/// Checks cubeMathType for inputs of `dtype` (see aclnn_matmul.h for what each value does).
void check_cube_math(const Plan& p, int dtype, std::int8_t cube_math_type);

/// Elements from a view's first element to its last (strides >= 0), 0 when empty.
std::int64_t span_of(const aclTensor& x);
/// ACLNN_ERR_PARAM_INVALID unless `x` covers its storage span densely with non-negative
/// strides (the reduced-precision copies of FLOAT inputs copy the whole span).
void check_dense(const Plan& p, const aclTensor& x, const char* what);

/// Base block sizes, L1 depth and tile counts for an m x n x k product repeated `batch` times
/// with elements of `elem_bytes`, fitted to the device's L0A/L0B/L0C/L1 and balanced over its
/// cube cores. Returns the launch's block count.
std::uint32_t tile_matmul(const Plan& p, std::uint32_t elem_bytes, MatmulTiling& t);

}  // namespace npusim::aclnn
