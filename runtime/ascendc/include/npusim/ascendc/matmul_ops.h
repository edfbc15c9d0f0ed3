// SPDX-License-Identifier: Apache-2.0
// Twin ops the matmul family's kernels need (runtime/aclnn/matmul_kernels.cpp, conv_kernels.cpp):
// LoadDataWithTranspose and GatherMask (built-in patterns).
//
// LoadDataWithTranspose (Atlas A2/A3): L1 (A1/B1) -> L0A/L0B with a transpose, on MTE1.
//
// Per repeat r the source "square" startIndex + r * srcStride (addrMode 0; minus with addrMode 1)
// is transposed:
//  - 16-bit types: the square is one 16 x 16 fractal (512 bytes); it lands transposed in the
//    destination fractal r * (1 + dstGap).
//  - 32-bit types: the square is two consecutive 16 x 8 fractals (1024 bytes) read as one 16 x 16
//    matrix (first fractal = columns 0..7, second = columns 8..15); its transpose is split again
//    into two 16 x 8 fractals: columns 0..7 go to destination fractal d = r * (1 + dstGap), columns
//    8..15 to fractal d + 1 + dstFracGap.
// Units: srcStride in squares, dstGap / dstFracGap in 512-byte fractals. In timing-only mode
// (BlockContext::functional false) the bounds are checked and the instruction recorded, the data
// is not moved.
//
// GatherMask (built-in pattern form, normal mode): picks elements of src0 by a fixed pattern
// and writes them packed to dst. Per repeat 256 bytes of src0 (8 blocks of 32 bytes, block b
// at b * src0BlockStride blocks, repeat r at r * src0RepeatStride blocks) are scanned and
// element i of the repeat is kept when the pattern selects it: 1 even i, 2 odd i, 3..6 i % 4 ==
// 0..3, 7 every element. rsvdCnt returns the number kept. reduceMode (mask-driven counts) and
// user pattern tensors are not supported by the simulator (KernelError). Recorded as one
// vector-pipe UB -> UB copy of the bytes scanned.
#pragma once

#include <cstdint>
#include <cstring>

#include "npusim/ascendc/block_context.h"
#include "npusim/ascendc/cube_ops.h"
#include "npusim/ascendc/data_copy.h"
#include "npusim/ascendc/tensor.h"
#include "npusim/ascendc/vector_ops.h"

namespace AscendC {

struct LoadData2dTransposeParams {
  LoadData2dTransposeParams() = default;
  LoadData2dTransposeParams(std::uint16_t start_index, std::uint8_t repeat_times,
                            std::uint16_t src_stride, std::uint16_t dst_gap,
                            std::uint16_t dst_frac_gap, std::uint8_t addr_mode)
      : startIndex(start_index),
        repeatTimes(repeat_times),
        srcStride(src_stride),
        dstGap(dst_gap),
        dstFracGap(dst_frac_gap),
        addrMode(addr_mode) {}
  std::uint16_t startIndex = 0;
  std::uint8_t repeatTimes = 0;
  std::uint16_t srcStride = 0;
  std::uint16_t dstGap = 0;
  std::uint16_t dstFracGap = 0;
  std::uint8_t addrMode = 0;
};

enum class GatherMaskMode : std::uint8_t { DEFAULT = 0, V1, V2 };
inline constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::DEFAULT;

struct GatherMaskParams {
  GatherMaskParams() = default;
  GatherMaskParams(std::uint8_t src0_block_stride, std::uint16_t repeat_times,
                   std::uint16_t src0_repeat_stride, std::uint8_t src1_repeat_stride)
      : src0BlockStride(src0_block_stride),
        repeatTimes(repeat_times),
        src0RepeatStride(src0_repeat_stride),
        src1RepeatStride(src1_repeat_stride) {}
  std::uint8_t src0BlockStride = 1;
  std::uint16_t repeatTimes = 0;
  std::uint16_t src0RepeatStride = 0;
  std::uint8_t src1RepeatStride = 0;
};

}  // namespace AscendC

namespace npusim::ascendc {

template <class T>
NPUSIM_TWIN_FN std::uint64_t gather_mask_body(BlockContext& ctx, Operand<T> dst, Operand<T> src,
                                              std::uint8_t pattern, bool reduce_mode,
                                              const AscendC::GatherMaskParams& p) {
  if (reduce_mode) fail("GatherMask", "reduceMode is not supported by the simulator");
  if (pattern < 1 || pattern > 7) fail("GatherMask", "built-in pattern %u is not 1..7", pattern);
  if (dst.data == nullptr || src.data == nullptr) fail("GatherMask", "tensor has no buffer");
  constexpr std::uint32_t kPerBlock = 32 / sizeof(T);
  const std::uint32_t period = pattern <= 2 ? 2 : (pattern <= 6 ? 4 : 1);
  const std::uint32_t phase = pattern <= 2 ? pattern - 1u : (pattern <= 6 ? pattern - 3u : 0u);
  std::uint64_t kept = 0;
  for (std::uint32_t r = 0; r < p.repeatTimes; ++r) {
    for (std::uint32_t b = 0; b < 8; ++b) {
      const std::uint64_t base =
          (static_cast<std::uint64_t>(r) * p.src0RepeatStride + b * p.src0BlockStride) * kPerBlock;
      if (base + kPerBlock > src.size)
        fail("GatherMask", "repeat %u block %u beyond the %u-element source", r, b, src.size);
      for (std::uint32_t e = 0; e < kPerBlock; ++e) {
        if ((b * kPerBlock + e) % period != phase) continue;
        if (kept >= dst.size)
          fail("GatherMask", "more than the %u elements of the destination selected", dst.size);
        if (ctx.functional) dst.data[kept] = src.data[base + e];
        ++kept;
      }
    }
  }
  record_copy(ctx, Op::kCopy, dtype_of<T>(), Mem::kUb, Mem::kUb,
              static_cast<std::uint64_t>(p.repeatTimes) * 256u, p.repeatTimes, src.slot, dst.slot);
  return kept;
}

NPUSIM_TWIN_FN inline void load_transpose_body(BlockContext& ctx, DType dtype,
                                               std::uint32_t elem_bytes, const CubeOperand& dst,
                                               const CubeOperand& src,
                                               const AscendC::LoadData2dTransposeParams& p) {
  if (src.mem != Mem::kL1) fail("LoadDataWithTranspose", "source must be A1/B1 (L1)");
  if (dst.mem != Mem::kL0a && dst.mem != Mem::kL0b)
    fail("LoadDataWithTranspose", "destination must be A2 or B2, got %s", mem_name(dst.mem));
  if (elem_bytes != 2 && elem_bytes != 4)
    fail("LoadDataWithTranspose", "only 16-bit and 32-bit types are supported by the simulator");
  const std::uint32_t square = elem_bytes == 2 ? 512u : 1024u;  // bytes per source square
  auto* d_base = static_cast<std::uint8_t*>(dst.data);
  const auto* s_base = static_cast<const std::uint8_t*>(src.data);
  const std::uint64_t src_bytes = static_cast<std::uint64_t>(src.size) * elem_bytes;
  const std::uint64_t dst_bytes = static_cast<std::uint64_t>(dst.size) * elem_bytes;
  for (std::uint32_t r = 0; r < p.repeatTimes; ++r) {
    const std::int64_t sq = p.addrMode == 0
                                ? p.startIndex + static_cast<std::int64_t>(r) * p.srcStride
                                : p.startIndex - static_cast<std::int64_t>(r) * p.srcStride;
    if (sq < 0 || (static_cast<std::uint64_t>(sq) + 1) * square > src_bytes)
      fail("LoadDataWithTranspose", "source square %lld beyond the source tensor",
           static_cast<long long>(sq));
    const std::uint64_t d0 = static_cast<std::uint64_t>(r) * (1u + p.dstGap);
    const std::uint64_t d1 = d0 + 1u + p.dstFracGap;
    if ((elem_bytes == 2 ? d0 + 1 : d1 + 1) * 512 > dst_bytes)
      fail("LoadDataWithTranspose", "destination fractal beyond the %u-element tensor", dst.size);
    if (!ctx.functional) continue;
    const std::uint8_t* s = s_base + static_cast<std::uint64_t>(sq) * square;
    if (elem_bytes == 2) {
      std::uint16_t in[256], out[256];
      std::memcpy(in, s, 512);
      for (std::uint32_t i = 0; i < 16; ++i)
        for (std::uint32_t j = 0; j < 16; ++j) out[i * 16 + j] = in[j * 16 + i];
      std::memcpy(d_base + d0 * 512, out, 512);
      continue;
    }
    std::uint32_t in[256], g0[128], g1[128];
    std::memcpy(in, s, 1024);
    // S(i, j) = j < 8 ? in[i*8 + j] : in[128 + i*8 + j - 8]; T(i, j) = S(j, i).
    for (std::uint32_t i = 0; i < 16; ++i) {
      for (std::uint32_t j = 0; j < 8; ++j) {
        g0[i * 8 + j] = i < 8 ? in[j * 8 + i] : in[128 + j * 8 + i - 8];
        g1[i * 8 + j] = i < 8 ? in[(j + 8) * 8 + i] : in[128 + (j + 8) * 8 + i - 8];
      }
    }
    std::memcpy(d_base + d0 * 512, g0, 512);
    std::memcpy(d_base + d1 * 512, g1, 512);
  }
  Instr ins;
  ins.pipe = Pipe::kMte1;
  ins.op = Op::kLoad2d;
  ins.dtype = dtype;
  ins.src = Mem::kL1;
  ins.dst = dst.mem;
  ins.count = p.repeatTimes;
  ins.bytes = static_cast<std::uint64_t>(square) * p.repeatTimes;
  ctx.emit(ins, {{src.slot, false}, {dst.slot, true}});
}

template <class T>
__attribute__((noinline)) void load_transpose(const AscendC::LocalTensor<T>& dst,
                                              const AscendC::LocalTensor<T>& src,
                                              const AscendC::LoadData2dTransposeParams& p) {
  auto& ctx = block();
  ScalarPause pause(ctx);
  load_transpose_body(ctx, dtype_of<T>(), sizeof(T), cube_operand(dst), cube_operand(src), p);
}

}  // namespace npusim::ascendc

namespace AscendC {

template <class T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const LoadData2dTransposeParams& p) {
  npusim::ascendc::load_transpose(dst, src, p);
}

template <class T, GatherMaskMode kMode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                       const std::uint8_t src1Pattern, const bool reduceMode,
                       const std::uint32_t mask, const GatherMaskParams& params,
                       std::uint64_t& rsvdCnt) {
  (void)mask;  // normal mode: the pattern decides
  auto& ctx = npusim::ascendc::block();
  npusim::ascendc::ScalarPause pause(ctx);
  rsvdCnt = npusim::ascendc::gather_mask_body(ctx, npusim::ascendc::operand(dst),
                                             npusim::ascendc::operand(src0), src1Pattern, reduceMode,
                                             params);
}

}  // namespace AscendC
