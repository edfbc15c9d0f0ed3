// SPDX-License-Identifier: Apache-2.0
// The Matmul tiling (tiling/tiling_api.h): npusim's own algorithm, sized by the simulated chip.
//
//  1. Cores: every split of SetDim cores into mDim x nDim (each part rounded up to 16 rows /
//     columns) is scored by the largest per-core output (singleCoreM * singleCoreN), then by the
//     per-core input it reads ((singleCoreM + singleCoreN) * K); ties go to splitting M.
//  2. Base block: every baseM x baseN (multiples of 16, no larger than the core's part) whose
//     float accumulator fits L0C (and, with a bias, whose row fits the bias table) gets the
//     largest baseK (a multiple of 16 and of the input's fractal depth) for which two A blocks
//     fit L0A and two B blocks fit L0B (double buffering: dbL0A = dbL0B = 2). The choice is the
//     one with the least estimated work: per base block, (baseM + baseN) * K elements moved
//     L1 -> L0 plus a fixed 4096 per k step (instruction overhead); ties go to the larger baseN.
//  3. L1: stepKa = stepKb = all k steps and stepM/stepN = all base blocks of the core's part,
//     reduced (the larger of stepM/stepN first, then the k steps halved) until
//     depthA1 * A block + depthB1 * B block fits the L1 space (depthA1 = stepM * stepKa,
//     depthB1 = stepN * stepKb).
// EnableMultiCoreSplitK: cores the M x N split leaves idle take parts of K (16-aligned).
// SetTraverse / SetMatmulConfigParams' traverse give iterateOrder (FIRSTN: 1); the batch layout
// setters copy their fields into the tiling (the IterateBatch of lib/matmul_intf.h reads them).
// For M=N=512, K=128 on 2 cores (half in, float out) this gives CANN's bytes for that case
// (the devkit's AOT example compares them): 256 x 512 per core, 128 x 256 x 64 base blocks.
#include <algorithm>
#include <cstdio>

#include "tiling/tiling_api.h"

namespace matmul_tiling {
namespace {

using platform_ascendc::CoreMemType;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t align_up(std::int64_t a, std::int64_t b) { return ceil_div(a, b) * b; }

/// Bytes per element; 0 for types the cube does not take.
std::int64_t cube_bytes(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16: return 2;
    case DataType::DT_FLOAT: return 4;
    case DataType::DT_INT8:
    case DataType::DT_UINT8: return 1;
    default: return 0;
  }
}

bool fail(const char* what) {
  std::fprintf(stderr, "[npusim] matmul_tiling::GetTiling: %s\n", what);
  return false;
}

struct Split {
  std::int64_t sm = 0, sn = 0, used = 0, md = 0, nd = 0;
};

/// Step 1: the best split of m x n over at most `cores` cores.
Split split_cores(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t cores) {
  Split best;
  std::int64_t best_load = -1, best_read = -1;
  for (std::int64_t md = cores; md >= 1; --md) {
    for (std::int64_t nd = cores / md; nd >= 1; --nd) {
      const std::int64_t sm = align_up(ceil_div(m, md), 16), sn = align_up(ceil_div(n, nd), 16);
      const std::int64_t load = sm * sn, read = (sm + sn) * k;
      if (best_load < 0 || load < best_load || (load == best_load && read < best_read)) {
        best = {sm, sn, ceil_div(m, sm) * ceil_div(n, sn), ceil_div(m, sm), ceil_div(n, sn)};
        best_load = load;
        best_read = read;
      }
    }
  }
  return best;
}

}  // namespace

MatmulApiTiling::MatmulApiTiling()
    : MatmulApiTiling(*platform_ascendc::PlatformAscendCManager::GetInstance()) {}

MatmulApiTiling::MatmulApiTiling(const platform_ascendc::PlatformAscendC& platform) {
  platform.GetCoreMemSize(CoreMemType::L1, l1_);
  platform.GetCoreMemSize(CoreMemType::L0_A, l0a_);
  platform.GetCoreMemSize(CoreMemType::L0_B, l0b_);
  platform.GetCoreMemSize(CoreMemType::L0_C, l0c_);
  platform.GetCoreMemSize(CoreMemType::UB, ub_);
  platform.GetCoreMemSize(CoreMemType::BT, bt_);
}

int32_t MatmulApiTiling::SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  a_ = {pos, type, dataType, isTrans};
  return 0;
}
int32_t MatmulApiTiling::SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  b_ = {pos, type, dataType, isTrans};
  return 0;
}
int32_t MatmulApiTiling::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  c_ = {pos, type, dataType, false};
  return 0;
}
int32_t MatmulApiTiling::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  bias_ = {pos, type, dataType, false};
  return 0;
}
int32_t MatmulApiTiling::SetShape(int32_t m, int32_t n, int32_t k) {
  m_ = m;
  n_ = n;
  k_ = k;
  return 0;
}
int32_t MatmulApiTiling::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}
int32_t MatmulApiTiling::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn,
                                     int32_t orgKbIn) {
  orgM_ = orgMIn;
  orgN_ = orgNIn;
  orgKa_ = orgKaIn;
  orgKb_ = orgKbIn;
  return 0;
}
int32_t MatmulApiTiling::SetBias(bool isBiasIn) {
  bias_on_ = isBiasIn;
  return 0;
}
int32_t MatmulApiTiling::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t ubSize,
                                        int32_t btSize) {
  auto set = [](std::uint64_t& field, int32_t v) {
    if (v >= 0) field = std::min<std::uint64_t>(field, static_cast<std::uint64_t>(v));
  };
  set(l1_, l1Size);
  set(l0c_, l0CSize);
  set(ub_, ubSize);
  set(bt_, btSize);
  return 0;
}
int32_t MatmulApiTiling::SetTraverse(MatrixTraverse traverse) {
  iterate_order_ = traverse == MatrixTraverse::FIRSTN ? 1 : 0;
  return 0;
}
int32_t MatmulApiTiling::SetMatmulConfigParams(const MatmulConfigParams& params) {
  if (params.traverse != MatrixTraverse::NOSET) SetTraverse(params.traverse);
  return 0;
}
int32_t MatmulApiTiling::SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  layout_.ALayoutInfoB = b;
  layout_.ALayoutInfoS = s;
  layout_.ALayoutInfoN = n;
  layout_.ALayoutInfoG = g;
  layout_.ALayoutInfoD = d;
  return 0;
}
int32_t MatmulApiTiling::SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  layout_.BLayoutInfoB = b;
  layout_.BLayoutInfoS = s;
  layout_.BLayoutInfoN = n;
  layout_.BLayoutInfoG = g;
  layout_.BLayoutInfoD = d;
  return 0;
}
int32_t MatmulApiTiling::SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  layout_.CLayoutInfoB = b;
  layout_.CLayoutInfoS1 = s;
  layout_.CLayoutInfoN = n;
  layout_.CLayoutInfoG = g;
  layout_.CLayoutInfoS2 = d;
  return 0;
}
int32_t MatmulApiTiling::SetBatchNum(int32_t batch) {
  layout_.BatchNum = batch;
  return 0;
}
int32_t MatmulApiTiling::SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m,
                                               int32_t n, int32_t k) {
  SetALayout(batchA, m, 1, 1, k);
  SetBLayout(batchB, k, 1, 1, n);
  SetCLayout(std::max(batchA, batchB), m, 1, 1, n);
  return 0;
}
int32_t MatmulApiTiling::SetDequantType(DequantType dequantType) {
  (void)dequantType;  // the kernel's SetQuantScalar / SetQuantVector choose; nothing to size
  return 0;
}
int32_t MatmulApiTiling::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
  fixM_ = baseMIn;
  fixN_ = baseNIn;
  fixK_ = baseKIn;
  return 0;
}

bool MatmulApiTiling::Compute(int32_t cores) {
  const std::int64_t m = m_ > 0 ? m_ : orgM_, n = n_ > 0 ? n_ : orgN_;
  const std::int64_t k = k_ > 0 ? k_ : std::min(orgKa_, orgKb_);
  if (m <= 0 || n <= 0 || k <= 0) return fail("SetShape / SetOrgShape gave no positive m, n, k");
  if (cores <= 0) return fail("SetDim needs at least one core");
  const std::int64_t sa = cube_bytes(a_.dataType), sb = cube_bytes(b_.dataType);
  if (sa == 0 || sb == 0 || sa != sb)
    return fail("A and B must have one cube input type (float16, bfloat16, float, int8)");
  // The fractal depth of the input type, and 16 (B's K rows in L1 are padded to 16).
  const std::int64_t k_align = std::max<std::int64_t>(16, 32 / sa);
  constexpr std::int64_t kAcc = 4;  // L0C holds float / int32

  Split s{};
  if (singleM_ > 0 || singleN_ > 0) {
    s.sm = singleM_ > 0 ? singleM_ : m;
    s.sn = singleN_ > 0 ? singleN_ : n;
    s.md = ceil_div(m, s.sm);
    s.nd = ceil_div(n, s.sn);
    s.used = s.md * s.nd;
  } else {
    s = split_cores(m, n, k, cores);
  }
  std::int64_t sk = singleK_ > 0 ? singleK_ : k;
  if (split_k_ && singleK_ <= 0 && s.used < cores) {  // the idle cores take parts of K
    const std::int64_t kd = std::min<std::int64_t>(cores / s.used, ceil_div(k, 16));
    sk = align_up(ceil_div(k, kd), 16);
    s.used *= ceil_div(k, sk);
  }

  // Step 2: the base block.
  std::int64_t bm = 0, bn = 0, bk = 0, best = -1;
  const std::int64_t max_m = fixM_ > 0 ? fixM_ : align_up(s.sm, 16);
  const std::int64_t max_n = fixN_ > 0 ? fixN_ : align_up(s.sn, 16);
  for (std::int64_t cm = fixM_ > 0 ? fixM_ : 16; cm <= max_m; cm += 16) {
    for (std::int64_t cn = fixN_ > 0 ? fixN_ : 16; cn <= max_n; cn += 16) {
      if (static_cast<std::uint64_t>(cm * cn * kAcc) > l0c_) break;
      if (bias_on_ && static_cast<std::uint64_t>(cn * kAcc) > bt_) break;
      std::int64_t ck = fixK_ > 0 ? fixK_ : align_up(sk, k_align);
      if (fixK_ <= 0) {
        ck = std::min<std::int64_t>(ck, static_cast<std::int64_t>(l0a_ / 2) / (cm * sa));
        ck = std::min<std::int64_t>(ck, static_cast<std::int64_t>(l0b_ / 2) / (cn * sb));
        ck = ck / k_align * k_align;
      }
      if (ck <= 0 || static_cast<std::uint64_t>(cm * ck * sa) > l0a_ ||
          static_cast<std::uint64_t>(cn * ck * sb) > l0b_)
        continue;
      const std::int64_t blocks = ceil_div(s.sm, cm) * ceil_div(s.sn, cn);
      const std::int64_t cost =
          blocks * ((cm + cn) * align_up(sk, k_align) + 4096 * ceil_div(sk, ck));
      if (best < 0 || cost < best || (cost == best && cn > bn)) {
        best = cost;
        bm = cm;
        bn = cn;
        bk = ck;
      }
      if (fixN_ > 0) break;
    }
    if (fixM_ > 0) break;
  }
  if (best < 0) return fail("no base block fits L0A/L0B/L0C (SetFixSplit or the buffer sizes)");

  // Step 3: what one load into L1 holds.
  const std::int64_t a_blk = bm * bk * sa, b_blk = bk * bn * sb;
  std::int64_t step_m = ceil_div(s.sm, bm), step_n = ceil_div(s.sn, bn);
  std::int64_t step_ka = ceil_div(sk, bk), step_kb = step_ka;
  auto l1_use = [&] { return step_m * step_ka * a_blk + step_n * step_kb * b_blk; };
  while (static_cast<std::uint64_t>(l1_use()) > l1_) {
    if (step_m > 1 || step_n > 1) {
      (step_m >= step_n ? step_m : step_n) -= 1;
    } else if (step_ka > 1 || step_kb > 1) {
      std::int64_t& big = step_ka >= step_kb ? step_ka : step_kb;
      big = ceil_div(big, 2);
    } else {
      return fail("one A and one B base block do not fit L1 (SetBufferSpace)");
    }
  }

  ::TCubeTiling t{};
  t.usedCoreNum = static_cast<int32_t>(s.used);
  t.M = orgM_ > 0 ? orgM_ : static_cast<int32_t>(m);
  t.N = orgN_ > 0 ? orgN_ : static_cast<int32_t>(n);
  t.Ka = orgKa_ > 0 ? orgKa_ : static_cast<int32_t>(k);
  t.Kb = orgKb_ > 0 ? orgKb_ : static_cast<int32_t>(k);
  t.singleCoreM = static_cast<int32_t>(std::min(s.sm, m));
  t.singleCoreN = static_cast<int32_t>(std::min(s.sn, n));
  t.singleCoreK = static_cast<int32_t>(sk);
  t.baseM = static_cast<int32_t>(bm);
  t.baseN = static_cast<int32_t>(bn);
  t.baseK = static_cast<int32_t>(bk);
  t.stepM = static_cast<int32_t>(step_m);
  t.stepN = static_cast<int32_t>(step_n);
  t.stepKa = static_cast<int32_t>(step_ka);
  t.stepKb = static_cast<int32_t>(step_kb);
  t.depthA1 = static_cast<int32_t>(step_m * step_ka);
  t.depthB1 = static_cast<int32_t>(step_n * step_kb);
  t.isBias = bias_on_ ? 1 : 0;
  t.shareL1Size = static_cast<int32_t>(l1_use());
  t.shareL0CSize = static_cast<int32_t>(bm * bn * kAcc);
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
  t.iterateOrder = iterate_order_;
#define NPUSIM_COPY_LAYOUT(f) t.f = layout_.f;
  NPUSIM_COPY_LAYOUT(ALayoutInfoB) NPUSIM_COPY_LAYOUT(ALayoutInfoS) NPUSIM_COPY_LAYOUT(ALayoutInfoN)
  NPUSIM_COPY_LAYOUT(ALayoutInfoG) NPUSIM_COPY_LAYOUT(ALayoutInfoD) NPUSIM_COPY_LAYOUT(BLayoutInfoB)
  NPUSIM_COPY_LAYOUT(BLayoutInfoS) NPUSIM_COPY_LAYOUT(BLayoutInfoN) NPUSIM_COPY_LAYOUT(BLayoutInfoG)
  NPUSIM_COPY_LAYOUT(BLayoutInfoD) NPUSIM_COPY_LAYOUT(CLayoutInfoB) NPUSIM_COPY_LAYOUT(CLayoutInfoS1)
  NPUSIM_COPY_LAYOUT(CLayoutInfoN) NPUSIM_COPY_LAYOUT(CLayoutInfoG) NPUSIM_COPY_LAYOUT(CLayoutInfoS2)
  NPUSIM_COPY_LAYOUT(BatchNum)
#undef NPUSIM_COPY_LAYOUT
  t.dbL0A = static_cast<std::uint64_t>(2 * a_blk) <= l0a_ ? 2 : 1;
  t.dbL0B = static_cast<std::uint64_t>(2 * b_blk) <= l0b_ ? 2 : 1;
  t.dbL0C = 1;  // the Matmul keeps one accumulator (lib/matmul_intf.h)
  tiling_ = t;
  return true;
}

bool MatmulApiTiling::CheckSparse() const {
  if (!sparse_) return true;
  if (b_.dataType != DataType::DT_INT8 || !b_.isTrans)
    return fail("SetSparse needs an int8 B, transposed (the densified [N][K/2] matrix)");
  if (tiling_.baseK % 64 != 0) {
    std::fprintf(stderr, "[npusim] matmul_tiling::GetTiling: SetSparse needs baseK a multiple "
                 "of 64, the tiling has %d\n", tiling_.baseK);
    return false;
  }
  return true;
}

int64_t MatmulApiTiling::GetTiling(::TCubeTiling& tiling) {
  if (!Compute(1) || !CheckSparse()) return -1;
  tiling = tiling_;
  return 0;
}
int64_t MatmulApiTiling::GetTiling(optiling::TCubeTiling& tiling) {
  return GetTiling(tiling.data());
}

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  dim_ = dim;
  return 0;
}
int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn,
                                              int32_t singleKIn) {
  singleM_ = singleMIn;
  singleN_ = singleNIn;
  singleK_ = singleKIn;
  return 0;
}
int64_t MultiCoreMatmulTiling::GetTiling(::TCubeTiling& tiling) {
  if (!Compute(dim_) || !CheckSparse()) return -1;
  tiling = tiling_;
  return 0;
}
int64_t MultiCoreMatmulTiling::GetTiling(optiling::TCubeTiling& tiling) {
  return GetTiling(tiling.data());
}
int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN,
                                              int32_t& shapeK) const {
  shapeM = tiling_.singleCoreM;
  shapeN = tiling_.singleCoreN;
  shapeK = tiling_.singleCoreK;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
  dim = tiling_.usedCoreNum;
  mDim = tiling_.singleCoreM > 0 ? static_cast<int32_t>(ceil_div(tiling_.M, tiling_.singleCoreM))
                                 : 0;
  nDim = tiling_.singleCoreN > 0 ? static_cast<int32_t>(ceil_div(tiling_.N, tiling_.singleCoreN))
                                 : 0;
  return 0;
}

}  // namespace matmul_tiling
