// SPDX-License-Identifier: Apache-2.0
// Mmad with a bias of the Ascend C twin (Atlas A2/A3): C = bias + A * B, the bias a row of n
// values in the bias table (C2) added to every row of C. Two forms:
//   Mmad(C, A, B, bias, params): the bias is `bias`;
//   Mmad(C, A, B, params) with cmatrixInitVal false and cmatrixSource true: the bias is the
//   bias table from address 0.
// One Mmad instruction on the M pipe (the bias table is read by the cube; its writer is ordered
// by the kernel's MTE1 -> M flag).
//
// DataCopy(dst C2 float, src L1 half, DataCopyParams) fills the bias table converting half to
// float on the way (Atlas A2/A3): blockCount blocks of blockLen x 64 source bytes (32 halves,
// each block's elements converted in order), source blocks srcGap 32-byte blocks apart and
// destination blocks dstGap 64-byte blocks apart. One MTE1 copy of the bytes written.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/data_copy.h"

namespace npusim::ascendc {

template <class D, class A, class B, class Bias>
void mmad_with_bias(const AscendC::LocalTensor<D>& c, const AscendC::LocalTensor<A>& a,
                    const AscendC::LocalTensor<B>& b, const Bias* bias, std::uint64_t bias_size,
                    AscendC::MmadParams p) {
  {
    auto& ctx = block();
    ScalarPause pause(ctx);
    fill_bias<D>(ctx, cube_operand(c), bias, bias_size, p);
  }
  p.cmatrixInitVal = false;  // accumulate onto the bias
  p.cmatrixSource = false;
  p.isBias = false;
  mmad(c, a, b, p);
}

/// The converting L1 -> bias table copy (see the file comment).
template <class D, class S>
NPUSIM_TWIN_FN void bias_table_convert_body(BlockContext& ctx, const CopyEnds& e,
                                            const AscendC::DataCopyParams& p) {
  const char* op = "DataCopy(L1 -> C2)";
  if (e.dst_mem != Mem::kBiasTable || e.src_mem != Mem::kL1)
    fail(op, "converts only from L1 (C1) to the bias table (C2)");
  const std::uint64_t dst_off = static_cast<std::uint64_t>(e.dst - ctx.base(e.dst_mem));
  if (dst_off % 64 != 0)
    fail(op, "bias table address %llu is not 64-byte aligned",
         static_cast<unsigned long long>(dst_off));
  const std::uint64_t src_off = local_offset(ctx, e.src, e.src_mem, op);
  if (p.blockCount == 0 || p.blockLen == 0) return;  // a no-op on the device
  const std::uint64_t n = p.blockLen * 64ull / sizeof(S);  // elements per block
  const std::uint64_t src_pitch = n * sizeof(S) + p.srcGap * 32ull;
  const std::uint64_t dst_pitch = n * sizeof(D) + p.dstGap * 64ull;
  check_local(ctx, e.src_mem, src_off, (p.blockCount - 1ull) * src_pitch + n * sizeof(S), op);
  check_local(ctx, e.dst_mem, dst_off, (p.blockCount - 1ull) * dst_pitch + n * sizeof(D), op);
  for (std::uint32_t b = 0; ctx.functional && b < p.blockCount; ++b) {
    const S* s = reinterpret_cast<const S*>(e.src + b * src_pitch);
    D* d = reinterpret_cast<D*>(e.dst + b * dst_pitch);
    for (std::uint64_t i = 0; i < n; ++i) d[i] = static_cast<D>(static_cast<float>(s[i]));
  }
  const bool contiguous = p.blockCount == 1 || (p.srcGap == 0 && p.dstGap == 0);
  record_copy(ctx, Op::kCopy, dtype_of<D>(), e.src_mem, e.dst_mem, p.blockCount * n * sizeof(D),
              contiguous ? 1u : p.blockCount, e.src_slot, e.dst_slot);
}

}  // namespace npusim::ascendc

namespace AscendC {

/// L1 half -> bias table float (see the file comment); the same-type form is data_copy.h's.
template <class D, class S, std::enable_if_t<!std::is_same_v<D, S>, int> = 0>
inline void DataCopy(const LocalTensor<D>& dst, const LocalTensor<S>& src,
                     const DataCopyParams& intriParams) {
  static_assert(std::is_same_v<D, float> && std::is_same_v<S, npusim::ascendc::Half>,
                "DataCopy between local tensors of different types: only L1 half -> bias table "
                "float is supported");
  using namespace npusim::ascendc;
  auto& ctx = block();
  ScalarPause pause(ctx);
  const CopyEnds e{reinterpret_cast<std::uint8_t*>(dst.twin_data()),
                   reinterpret_cast<const std::uint8_t*>(src.twin_data()),
                   dst.mem(),
                   src.mem(),
                   dst.twin_slot(),
                   src.twin_slot(),
                   true,
                   true};
  bias_table_convert_body<D, S>(ctx, e, intriParams);
}

template <class D, class A, class B>
inline void Mmad(const LocalTensor<D>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
                 const LocalTensor<D>& bias, const MmadParams& p) {
  if (bias.mem() != npusim::ascendc::Mem::kBiasTable)
    npusim::ascendc::fail("Mmad", "the bias must be in the bias table (C2)");
  npusim::ascendc::mmad_with_bias(dst, fm, filter, bias.twin_data(), bias.GetSize(), p);
}

}  // namespace AscendC
