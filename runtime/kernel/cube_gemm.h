// SPDX-License-Identifier: Apache-2.0
// The float Mmad under the twin's cube ops (cube_ops.cpp): the operands converted to float and
// relaid as row-major matrices, Eigen's blocked GEMM (one thread, no OpenMP) accumulating in
// float, and the result put back in L0C's zN fractals. Built twice: portable x86-64 / generic
// code, and AVX2 + FMA + F16C code chosen at run time when the CPU has all three. Results are
// identical run after run on one machine; a CPU that takes the other path may round differently
// in the last bits (products are then fused or not, sums blocked differently).
#pragma once

#include <cstdint>

namespace npusim::kernel::detail {

/// The element type of both Mmad operands.
enum class MmadInput : std::uint8_t { kHalf, kBf16, kFloat };

/// C (m x n in zN fractals, float) (+)= A (m x k, zZ fractals) * B (k x n, nZ fractals); only
/// the m x k and k x n elements are read (a partial fractal's padding never enters), only the
/// m x n elements of C are written.
void mmad_f32(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
              std::uint32_t n, std::uint32_t k, bool accumulate);

/// The two builds mmad_f32 chooses between (cube_gemm.cpp).
void mmad_f32_portable(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
                       std::uint32_t n, std::uint32_t k, bool accumulate);
void mmad_f32_avx2(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
                   std::uint32_t n, std::uint32_t k, bool accumulate);
/// Whether mmad_f32 uses mmad_f32_avx2 on this CPU.
bool mmad_f32_uses_avx2();

}  // namespace npusim::kernel::detail
