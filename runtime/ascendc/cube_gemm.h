// SPDX-License-Identifier: Apache-2.0
// The Mmad under the twin's cube ops (cube_ops.cpp): the operands converted to float and
// relaid as row-major matrices, Eigen's blocked GEMM (one thread, no OpenMP) accumulating in
// float, and the result put back in L0C's zN fractals. Built twice: portable x86-64 / generic
// code, and AVX2 + FMA + F16C code chosen at run time when the CPU has all three. Results are
// identical run after run on one machine; for float inputs a CPU that takes the other path may
// round differently in the last bits (products are then fused or not, sums blocked differently);
// int8 results are exact on both.
#pragma once

#include <cstdint>

namespace npusim::ascendc::detail {

/// The element type of an Mmad operand.
enum class MmadInput : std::uint8_t { kHalf, kBf16, kFloat, kInt8, kUInt8 };

/// C (m x n in zN fractals, float) (+)= A (m x k, zZ fractals) * B (k x n, nZ fractals); only
/// the m x k and k x n elements are read (a partial fractal's padding never enters), only the
/// m x n elements of C are written.
void mmad_f32(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
              std::uint32_t n, std::uint32_t k, bool accumulate);

/// C (int32, zN) (+)= A * B for int8 / uint8 operands (a_in, b_in each kInt8 or kUInt8), exactly:
/// products are at most 2^16 in magnitude, so a float GEMM over at most 256 k at a time sums
/// them exactly in any order (every partial sum stays below 2^24); the chunks are added to C in
/// int32, wrapping modulo 2^32 as the hardware's int32 accumulator.
void mmad_i32(MmadInput a_in, MmadInput b_in, const void* a, const void* b, std::int32_t* c,
              std::uint32_t m, std::uint32_t n, std::uint32_t k, bool accumulate);

/// The two builds mmad_f32 / mmad_i32 choose between (cube_gemm.cpp).
void mmad_f32_portable(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
                       std::uint32_t n, std::uint32_t k, bool accumulate);
void mmad_f32_avx2(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
                   std::uint32_t n, std::uint32_t k, bool accumulate);
/// Whether mmad_f32 uses mmad_f32_avx2 on this CPU.
bool mmad_f32_uses_avx2();
void mmad_i32_portable(MmadInput a_in, MmadInput b_in, const void* a, const void* b,
                       std::int32_t* c, std::uint32_t m, std::uint32_t n, std::uint32_t k,
                       bool accumulate);
void mmad_i32_avx2(MmadInput a_in, MmadInput b_in, const void* a, const void* b, std::int32_t* c,
                   std::uint32_t m, std::uint32_t n, std::uint32_t k, bool accumulate);

}  // namespace npusim::ascendc::detail
