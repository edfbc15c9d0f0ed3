// SPDX-License-Identifier: Apache-2.0
// Cube kernels built like the toolchain builds kernel sources (cube_kernels.cpp is compiled with
// -fsanitize-coverage=trace-pc): for cube_exact_test.cpp and scalar_counter_test.cpp.
#pragma once

#include <cstdint>

#include "kernel_operator.h"

namespace cube_kernels {

/// C (m x n, Out, row-major) = sum over `calls` Mmads of A_i (m x k) * B_i (k x n), accumulated
/// in L0C (Acc). A_i / B_i are in GM already in L0 layout (A: zZ, B: nZ fractals, padded to
/// whole fractals; chunk i follows chunk i-1) and reach L0A/L0B with LoadData GM -> L0. Fixpipe
/// writes C as ND with quant_relu = quantPre | (relu ? 0x100 : 0) and deqScalar = deq.
template <class In, class Acc, class Out>
void mmad_chain(GM_ADDR a, GM_ADDR b, GM_ADDR c, std::uint32_t m, std::uint32_t n, std::uint32_t k,
                std::uint32_t calls, std::uint32_t quant_relu, std::uint64_t deq);

/// One LoadData x2 + Mmad + Fixpipe of a t x t x t bf16 tile (t a multiple of 16, <= 128;
/// float accumulation); out: t*t bfloat16_t. Its scalar work does not depend on t.
void one_mmad(GM_ADDR a, GM_ADDR b, GM_ADDR out, std::uint32_t t);

/// one_mmad, counting every __sanitizer_cov_trace_pc callback made while the cube calls run
/// (ScalarPause cannot discard them: the kernel points the counter at its own variable); the
/// number is stored in counted[0].
void one_mmad_callbacks(GM_ADDR a, GM_ADDR b, GM_ADDR out, std::uint32_t t, std::uint64_t* counted);

}  // namespace cube_kernels
