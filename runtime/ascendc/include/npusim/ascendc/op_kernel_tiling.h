// SPDX-License-Identifier: Apache-2.0
// The tiling macros of an operator package's kernels (npu_op_kernel_library includes this header
// first): REGISTER_TILING_DEFAULT names the kernel's tiling struct; GET_TILING_DATA and
// GET_TILING_DATA_WITH_STRUCT copy it from the kernel's tiling argument (the bytes the host
// tiling function wrote), as the device's kernel prologue does with scalar loads.
#pragma once

#include <cstring>

#define REGISTER_TILING_DEFAULT(type) using NpusimOpkgDefaultTiling_ = type
#define REGISTER_TILING_FOR_TILINGKEY(key, type) REGISTER_TILING_DEFAULT(type)
#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling) \
  type var;                                            \
  std::memcpy(&var, (const void*)(tiling), sizeof(type))
#define GET_TILING_DATA(var, tiling) \
  GET_TILING_DATA_WITH_STRUCT(NpusimOpkgDefaultTiling_, var, tiling)
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, var, tiling) \
  const type* var = reinterpret_cast<const type*>(tiling)
