// SPDX-License-Identifier: Apache-2.0
// cube_gemm.cpp built with -mavx2 -mfma -mf16c (x86-64 only; chosen at run time by mmad_f32).
#define NPUSIM_GEMM_AVX2 1
#include "cube_gemm.cpp"  // NOLINT(bugprone-suspicious-include)
