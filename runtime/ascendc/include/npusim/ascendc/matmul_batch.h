// SPDX-License-Identifier: Apache-2.0
// Where each matrix of a batched Matmul is (Matmul::IterateBatch, npusim/ascendc/matmul_api.h),
// from the operands' LayoutMode and the tiling's layout fields:
//   BSNGD   A [B, S, N, G, D]: batch i (over N x G) is the S x D matrix at i * D, rows N*G*D
//           apart; B likewise (S x D, or D x S untransposed); C [B, S1, N, G, S2]: S1 x S2 at
//           i * S2, rows N*G*S2 apart (the tiling's ALayoutInfo*, BLayoutInfo*, CLayoutInfo*)
//   NORMAL  [batch, rows, cols] one matrix after the other (M x Ka, Kb x N, M x N of the tiling)
// Batch j of a BSNGD operand beyond one B index (j >= N*G, IterateNBatch's later loops) is at
// its B index's S*N*G*D block.
// Each batch then runs as a plain Matmul of that matrix: same instructions, same cost.
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "npusim/ascendc/device.h"
#include "npusim/ascendc/matmul_types.h"

namespace npusim::ascendc::mm {

/// Per batch: element step of each operand's matrix and its row pitch as stored. Batch j of an
/// operand starts at (j % group) * step + (j / group) * outer: BSNGD's batches run over N x G
/// (group) inside one B index, whose matrices are outer = S*N*G*D elements apart; NORMAL's
/// group holds every batch.
struct BatchLayout {
  std::uint32_t batch = 0;
  std::uint64_t a_step = 0, b_step = 0, c_step = 0;
  int a_pitch = 0, b_pitch = 0, c_pitch = 0;
  std::uint64_t a_group = ~0ull, b_group = ~0ull, c_group = ~0ull;
  std::uint64_t a_outer = 0, b_outer = 0, c_outer = 0;

  static std::uint64_t at(std::uint64_t j, std::uint64_t step, std::uint64_t group,
                          std::uint64_t outer) {
    return (j % group) * step + (j / group) * outer;
  }
  std::uint64_t a_at(std::uint64_t j) const { return at(j, a_step, a_group, a_outer); }
  std::uint64_t b_at(std::uint64_t j) const { return at(j, b_step, b_group, b_outer); }
  std::uint64_t c_at(std::uint64_t j) const { return at(j, c_step, c_group, c_outer); }
};

inline std::uint64_t positive(int v) { return v > 0 ? static_cast<std::uint64_t>(v) : 1u; }

template <class A_TYPE, class B_TYPE, class C_TYPE>
BatchLayout batch_layout(const TCubeTiling& t, bool trans_a, bool trans_b, std::uint32_t batch_a,
                         std::uint32_t batch_b) {
  using AscendC::LayoutMode;
  constexpr LayoutMode kLayout = A_TYPE::layout;
  static_assert(kLayout == B_TYPE::layout && kLayout == C_TYPE::layout,
                "Matmul::IterateBatch: A, B and C need one layout");
  if constexpr (kLayout != LayoutMode::BSNGD && kLayout != LayoutMode::NORMAL) {
    fail("Matmul::IterateBatch", "layout %d is not supported by the simulator (BSNGD, NORMAL)",
         static_cast<int>(kLayout));
  }
  if (batch_a != batch_b || batch_a == 0)
    fail("Matmul::IterateBatch", "batchA %u and batchB %u: only equal batch counts are "
         "supported by the simulator", batch_a, batch_b);
  BatchLayout l;
  l.batch = batch_a;
  if constexpr (kLayout == LayoutMode::BSNGD) {
    l.a_step = static_cast<std::uint64_t>(t.ALayoutInfoD);
    l.b_step = static_cast<std::uint64_t>(t.BLayoutInfoD);
    l.c_step = static_cast<std::uint64_t>(t.CLayoutInfoS2);
    l.a_pitch = t.ALayoutInfoN * t.ALayoutInfoG * t.ALayoutInfoD;
    l.b_pitch = t.BLayoutInfoN * t.BLayoutInfoG * t.BLayoutInfoD;
    l.c_pitch = t.CLayoutInfoN * t.CLayoutInfoG * t.CLayoutInfoS2;
    l.a_group = positive(t.ALayoutInfoN) * positive(t.ALayoutInfoG);
    l.b_group = positive(t.BLayoutInfoN) * positive(t.BLayoutInfoG);
    l.c_group = positive(t.CLayoutInfoN) * positive(t.CLayoutInfoG);
    l.a_outer = static_cast<std::uint64_t>(t.ALayoutInfoS) * static_cast<std::uint64_t>(l.a_pitch);
    l.b_outer = static_cast<std::uint64_t>(t.BLayoutInfoS) * static_cast<std::uint64_t>(l.b_pitch);
    l.c_outer = static_cast<std::uint64_t>(t.CLayoutInfoS1) * static_cast<std::uint64_t>(l.c_pitch);
  } else {
    l.a_step = static_cast<std::uint64_t>(t.M) * t.Ka;
    l.b_step = static_cast<std::uint64_t>(t.Kb) * t.N;
    l.c_step = static_cast<std::uint64_t>(t.M) * t.N;
    l.a_pitch = trans_a ? t.M : t.Ka;
    l.b_pitch = trans_b ? t.Kb : t.N;
    l.c_pitch = t.N;
  }
  return l;
}

}  // namespace npusim::ascendc::mm
