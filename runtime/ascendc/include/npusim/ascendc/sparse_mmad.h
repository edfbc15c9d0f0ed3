// SPDX-License-Identifier: Apache-2.0
// 2:4 structured-sparse matrix multiply of the Ascend C twin (Atlas A2/A3, int8 -> int32):
//  - LoadDataWithSparse(dst L0B, src L1, idx L1, params): copies repeatTimes 512-byte fractals of
//    the densified B from fractal startIndex of src to dst, and their 128-byte index fractals from
//    idx into the cube's sparse-index buffer (2 bits per B byte, at the B byte's L0B address / 4,
//    element e of a byte in bits 2e..2e+1); one MTE1 instruction.
//  - MmadWithSparse(C, A, B, params): B in L0B is the densified k/2 x n matrix (nZ); dense
//    element 2g + s of a column stands for row 4g + v + s of the sparse B, v its 2-bit index, so
//    C[m][n] (+)= sum over the k/2 dense rows d of A[m][row(d)] * B[d][n]. A is m x k in L0A
//    (zZ). Recorded as an Mmad (M pipe) of k/2 products per output.
#pragma once

#include <cstdint>
#include <cstring>

#include "npusim/ascendc/cube_ops.h"

namespace npusim::ascendc {

NPUSIM_TWIN_FN inline void sparse_load_body(BlockContext& ctx, const CubeOperand& dst,
                                            const CubeOperand& src, const CubeOperand& idx,
                                            const AscendC::LoadData2DParams& p) {
  if (dst.mem != Mem::kL0b || src.mem != Mem::kL1 || idx.mem != Mem::kL1)
    fail("LoadDataWithSparse", "moves L1 (B1) data and indices to L0B (B2)");
  const std::uint64_t bytes = 512ull * p.repeatTimes, first = 512ull * p.startIndex;
  if (first + bytes > src.size || (first + bytes) / 4 > idx.size || bytes > dst.size)
    fail("LoadDataWithSparse", "%u fractals from fractal %u leave the tensors", p.repeatTimes,
         p.startIndex);
  const auto at =
      static_cast<std::uint64_t>(static_cast<std::uint8_t*>(dst.data) - ctx.base(Mem::kL0b));
  if (ctx.sparse_index.empty()) ctx.sparse_index.assign(ctx.capacity(Mem::kL0b) / 4, 0);
  if (ctx.functional) {
    std::memcpy(dst.data, static_cast<const std::uint8_t*>(src.data) + first, bytes);
    std::memcpy(ctx.sparse_index.data() + at / 4,
                static_cast<const std::uint8_t*>(idx.data) + first / 4, bytes / 4);
  }
  Instr ins;
  ins.pipe = Pipe::kMte1;
  ins.op = Op::kLoad2d;
  ins.dtype = DType::kInt8;
  ins.src = Mem::kL1;
  ins.dst = Mem::kL0b;
  ins.count = p.repeatTimes;
  ins.bytes = bytes + bytes / 4;
  ctx.emit(ins, {{src.slot, false}, {idx.slot, false}, {dst.slot, true}});
}

/// The sparse B's row that dense row d of column n (its byte at L0B address `addr`) stands for.
NPUSIM_TWIN_FN inline std::uint32_t sparse_row(const BlockContext& ctx, std::uint32_t d,
                                               std::uint64_t addr) {
  const std::uint32_t v = (ctx.sparse_index[addr / 4] >> (2 * (addr % 4))) & 3u;
  return (d / 2) * 4 + v + d % 2;
}

NPUSIM_TWIN_FN inline void sparse_mmad_body(BlockContext& ctx, const CubeOperand& c,
                                            const CubeOperand& a, const CubeOperand& b,
                                            const AscendC::MmadParams& p) {
  if (p.k % 4 != 0) fail("MmadWithSparse", "k=%u is not a multiple of 4", p.k);
  AscendC::MmadParams dense = p;
  dense.k = static_cast<std::uint16_t>(p.k / 2);
  const std::uint32_t m1 = ceil_div(p.m, 16), k1 = ceil_div(p.k, 32), n1 = ceil_div(p.n, 16);
  if (a.size < m1 * k1 * 512 || b.size < ceil_div(dense.k, 32) * n1 * 512 || c.size < m1 * n1 * 256)
    fail("MmadWithSparse",
         "m=%u n=%u k=%u needs %u / %u / %u elements of A / B / C, has %u / %u / %u", p.m, p.n, p.k,
         m1 * k1 * 512, ceil_div(dense.k, 32) * n1 * 512, m1 * n1 * 256, a.size, b.size, c.size);
  if (ctx.sparse_index.empty()) fail("MmadWithSparse", "no indices (missing LoadDataWithSparse)");
  const auto* ad = static_cast<const std::int8_t*>(a.data);
  const auto* bd = static_cast<const std::int8_t*>(b.data);
  auto* cd = static_cast<std::int32_t*>(c.data);
  const auto b_at =
      static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(b.data) - ctx.base(Mem::kL0b));
  const bool accumulate = !p.cmatrixInitVal || p.isBias;
  for (std::uint32_t mi = 0; ctx.functional && mi < p.m; ++mi) {
    for (std::uint32_t ni = 0; ni < p.n; ++ni) {
      const std::uint32_t ci = ((ni / 16) * m1 + mi / 16) * 256 + (mi % 16) * 16 + ni % 16;
      std::uint32_t acc = accumulate ? static_cast<std::uint32_t>(cd[ci]) : 0u;
      for (std::uint32_t d = 0; d < dense.k; ++d) {
        const std::uint32_t bi = ((d / 32) * n1 + ni / 16) * 512 + (ni % 16) * 32 + d % 32;
        const std::uint32_t k = sparse_row(ctx, d, b_at + bi);
        const std::uint32_t ai = ((mi / 16) * k1 + k / 32) * 512 + (mi % 16) * 32 + k % 32;
        acc += static_cast<std::uint32_t>(static_cast<std::int32_t>(ad[ai]) * bd[bi]);
      }
      cd[ci] = static_cast<std::int32_t>(acc);  // wraps modulo 2^32, as the dense int8 Mmad
    }
  }
  emit_mmad(ctx, DType::kInt32, DType::kInt8, c, a, b, dense);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T = std::int8_t, class U = std::uint8_t>
inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<U>& idx, const LoadData2DParams& loadDataParam) {
  static_assert(std::is_same_v<T, std::int8_t> && std::is_same_v<U, std::uint8_t>,
                "LoadDataWithSparse: int8_t data, uint8_t indices");
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  sparse_load_body(ctx, cube_operand(dst), cube_operand(src), cube_operand(idx), loadDataParam);
}

template <class T = std::int32_t, class U = std::int8_t>
inline void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm,
                           const LocalTensor<U>& filter, const MmadParams& mmadParams) {
  static_assert(std::is_same_v<T, std::int32_t> && std::is_same_v<U, std::int8_t>,
                "MmadWithSparse: int8_t inputs, int32_t result");
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  sparse_mmad_body(ctx, cube_operand(dst), cube_operand(fm), cube_operand(filter), mmadParams);
}

}  // namespace AscendC
