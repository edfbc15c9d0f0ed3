// SPDX-License-Identifier: Apache-2.0
// The Matmul tiling (tiling/tiling_api.h): npusim's own algorithm, sized by the simulated chip.
//
//  1. Cores (MultiCoreMatmulTiling, SetDim > 1): CANN's split, counted in 16-row / 16-column
//     fractals (m16, n16) and K fractal groups (k16 = K / the type's fractal depth):
//     - a tiny problem (m16 * n16 <= cores, A, B and C each fit one L0A / L0B / L0C) stays on
//       one core in M and N; with EnableMultiCoreSplitK its K goes to the smallest divisor
//       (>= 2) of k16 cores when k16 > 32;
//     - otherwise every mDim x nDim (x kDim with EnableMultiCoreSplitK) from the candidates
//       (the divisors of m16 / n16, of their power-of-two round-ups and of SetDim, plus the
//       pair near sqrt(m16 / n16 * cores)) is scored, in order nDim, mDim, kDim, by
//       a) the k16-block loop count to L0 at the 16x16 fractal grain (fewer first, then more
//          cores), b) with equal cores the GM bytes the split reads (L1 holds A or B whole when
//          it fits: m16 * nDim + n16 * mDim; else the re-read parts), c) then the larger
//          nDim * mDim. A split whose cores get >= 256 columns (B not transposed) is kept
//          against later ones with fewer columns;
//     - each part is then moved to the nearest size whose divisor count is large enough
//       (parts of <= 8 fractals always are) when that still fits SetDim;
//     singleCoreM = ceil(M / mDim), singleCoreN = ceil(N / nDim) (not rounded to 16),
//     singleCoreK = ceil(K / kDim) (split K: whole fractal groups), usedCoreNum =
//     mDim * nDim * kDim. The ScheduleType N_BUFFER_33 schedule instead takes
//     mDim = ceil(M / (3 * 128)), kDim = 1 (K must be <= 3 baseK of the 128 x 256 x
//     (128 bytes of K) basic block unless split K) and the nDim up to N / 256 + 1 with the
//     highest estimated cube cycles per GM byte. This is the split CANN 9's tiling gives the
//     devkit examples (512 x 128 x 128 with a 128 x 64 base on 2 cores: 512 x 64 per core;
//     640 x 1024 x 512 on 48: 64 x 256; 16 x 16 x 1024 split K on 24: K 512 on 2 cores).
//     SetSingleShape fixes the parts as given (unset ones: the whole SetShape extent) and
//     usedCoreNum is then SetDim, as in CANN.
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
// SetTraverse / SetMatmulConfigParams' traverse give iterateOrder (FIRSTN: 1); the batch layout
// setters copy their fields into the tiling (the IterateBatch of lib/matmul_intf.h reads them).
// For M=N=512, K=128 on 2 cores (half in, float out) this gives CANN's bytes for that case
// (the devkit's AOT example compares them): 256 x 512 per core, 128 x 256 x 64 base blocks.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <vector>

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
  std::int64_t sm = 0, sn = 0, sk = 0, used = 0;
};

/// The cores' split in fractal units (step 1 of the header).
struct Dims {
  std::int64_t m = 1, n = 1, k = 1;
};

/// Rounds a fractal count of 32 .. 1024 up to a power of two (`up`: the next one), above to 2048.
std::int64_t map_shape(std::int64_t s, bool up = true) {
  std::int64_t seed = 16;
  if (s < seed) return s;
  while (seed < 1024 && !(seed < s && 2 * seed >= s)) seed *= 2;
  return up ? 2 * seed : seed;
}

std::int64_t divisor_count(std::int64_t x) {
  std::int64_t c = 0;
  for (std::int64_t i = 1; i <= x; ++i) c += x % i == 0 ? 1 : 0;
  return c;
}

/// The most divisors any divisor of `shape` in [lo, hi] has.
std::int64_t most_divisors(std::int64_t shape, std::int64_t lo, std::int64_t hi) {
  std::int64_t best = 0;
  for (std::int64_t f = std::max<std::int64_t>(lo, 1); f <= hi; ++f)
    if (shape % f == 0) best = std::max(best, divisor_count(f));
  return best;
}

/// A per-core extent whose divisors leave the L0 / L1 blocking enough choices.
bool enough_divisors(std::int64_t d) {
  if (d <= 8) return true;
  const std::int64_t l0 = most_divisors(d, 1, 64), l1 = d > 128 ? most_divisors(d, 65, 128) : 0;
  return !(l0 <= 2 || (d > 128 && l0 + l1 <= 4));
}

/// The per-core extent nearest ceil(ori / parts), towards ceil(mapped / parts), with enough
/// divisors (K: the exact division when `parts` divides `ori`, else the mapped one's).
std::int64_t best_part(std::int64_t ori, std::int64_t mapped, std::int64_t parts, bool is_k) {
  if (is_k) return ceil_div(ori % parts == 0 ? ori : mapped, parts);
  if (parts == 1 && enough_divisors(ori)) return ori;
  std::int64_t b = ceil_div(ori, parts);
  const std::int64_t target = ceil_div(mapped, parts);
  while (b != target) {
    if (enough_divisors(b)) return b;
    b += b < target ? 1 : -1;
  }
  return b;
}

struct DimsInput {
  std::int64_t m16 = 1, n16 = 1, k16 = 1, cores = 1;
  bool split_k = false, a_trans = false, b_trans = false;
  std::int64_t l1 = 0, l0a = 0, l0c = 0;
};

/// Step 1 for SetDim > 1 without SetSingleShape (see the header).
Dims split_cores(const DimsInput& in) {
  const std::int64_t m16 = in.m16, n16 = in.n16, k16 = in.k16, cores = in.cores;
  std::int64_t m_map = map_shape(m16), n_map = map_shape(n16), k_map = map_shape(k16);
  if (in.split_k) {
    std::int64_t small = 0, mid = 0;
    for (std::int64_t i = 1; i <= std::min<std::int64_t>(64, k16); ++i) small += k16 % i == 0;
    for (std::int64_t i = 65; i <= std::min<std::int64_t>(128, k16); ++i) mid += k16 % i == 0;
    k_map = (k16 > 64 && small <= 2) || (k16 > 128 && small + mid <= 4) ? map_shape(k16, false)
                                                                        : k16;
  }
  // A tiny problem: one core per 32 fractals of M / N, K split only on request.
  const bool odd_map =
      in.split_k && ((n16 > 32 && (n_map & 31) != 0) || (m16 > 32 && (m_map & 31) != 0));
  const std::int64_t l0ab_fractals = in.l0a / 512, l0c_fractals = in.l0c / 1024;
  if (m16 * n16 <= cores && m16 * k16 <= l0ab_fractals && n16 * k16 <= l0ab_fractals &&
      m16 * n16 <= l0c_fractals && !odd_map) {
    Dims d;
    d.n = n16 <= 32 ? 1 : n_map / 32;
    d.m = m16 <= 32 ? 1 : m_map / 32;
    if (in.split_k && k16 > 32) {
      std::int64_t kd = 1;
      for (std::int64_t f = 2; f <= std::min(cores, k16); ++f)
        if (k16 % f == 0) {
          kd = f;
          break;
        }
      d.k = kd;
    }
    const std::int64_t pm = d.m == 1 ? m16 : ceil_div(m_map, d.m);
    const std::int64_t pn = d.n == 1 ? n16 : ceil_div(n_map, d.n);
    const std::int64_t pk = d.k == 1 ? k16 : ceil_div(k_map, d.k);
    return {ceil_div(m16, pm), ceil_div(n16, pn), ceil_div(k16, pk)};
  }
  auto candidates = [&](std::int64_t ori, std::int64_t mapped, std::int64_t most) {
    std::vector<std::int64_t> v;
    for (std::int64_t i = 1; i <= most; ++i)
      if (ori % i == 0 || mapped % i == 0 || cores % i == 0) v.push_back(i);
    return v;
  };
  std::vector<std::int64_t> mf = candidates(m16, m_map, std::min(cores, m16));
  std::vector<std::int64_t> nf = candidates(n16, n_map, std::min(cores, n16));
  std::vector<std::int64_t> kf =
      in.split_k ? candidates(k16, k_map, cores) : std::vector<std::int64_t>{1};
  if (!in.split_k) k_map = k16;
  const double opt = std::sqrt(static_cast<double>(m16) / static_cast<double>(n16) *
                               static_cast<double>(cores));
  const auto md_opt = static_cast<std::int64_t>(std::ceil(opt));
  const auto nd_opt = static_cast<std::int64_t>(std::ceil(static_cast<double>(cores) / opt));
  auto add = [](std::vector<std::int64_t>& v, std::int64_t x) {
    v.push_back(x);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  add(mf, md_opt);
  add(mf, nd_opt == 0 ? 1 : cores / nd_opt);
  add(nf, nd_opt);
  add(nf, md_opt == 0 ? 1 : cores / md_opt);

  Dims best;
  std::int64_t best_load = LLONG_MAX, best_cores = 1, best_loops = LLONG_MAX;
  bool big = false;
  constexpr std::int64_t kL1Db = 2;
  for (const std::int64_t nd : nf) {
    if (nd <= 0 || nd > cores) continue;
    for (const std::int64_t md : mf) {
      if (md <= 0 || md * nd > cores) continue;
      for (const std::int64_t kd : kf) {
        if (kd <= 0 || md * nd * kd > cores) continue;
        const std::int64_t pm = ceil_div(m16, md), pn = ceil_div(n16, nd);
        std::int64_t pk = k16 / kd, k_bytes = k16 / kd * 512;
        if (in.split_k && k_map != k16) {
          k_bytes = k_map / kd * 2 * 512;
          pk = k_map / kd * 2;
        }
        // The GM traffic of the split (fractal rows / columns re-read per core).
        const std::int64_t n0 = std::min<std::int64_t>(16, pn);
        const std::int64_t m0 = std::min<std::int64_t>(16, n0 == 0 ? 0 : std::min(pm, 128 / n0));
        const std::int64_t k0 =
            m0 != 0 && n0 != 0 ? std::min(std::min(64 / m0, 64 / n0), pk) : pk;
        const std::int64_t frac = 512;  // bytes of one 16 x 16 half fractal
        std::int64_t load = LLONG_MAX;
        auto keep = [&load](std::int64_t v) { load = std::min(load, v); };
        if ((pm + pn) * k_bytes <= in.l1 || (pm + n0 * kL1Db) * k_bytes <= in.l1 ||
            (pn + m0 * kL1Db) * k_bytes <= in.l1) {
          keep(m16 * nd + n16 * md);
        } else if ((n0 * k_bytes + m0 * k0 * frac) * kL1Db > in.l1 &&
                   (m0 * k_bytes + n0 * k0 * frac) * kL1Db > in.l1) {
          keep(m16 * ceil_div(n16, n0) + n16 * ceil_div(m16, m0));
        } else if ((m0 + n0) * k_bytes * kL1Db <= in.l1) {
          const std::int64_t m1 = ceil_div(in.l1 - n0 * k_bytes * kL1Db, k_bytes * kL1Db * m0) * m0;
          const std::int64_t n1 = ceil_div(in.l1 - m0 * k_bytes * kL1Db, k_bytes * kL1Db * n0) * n0;
          const std::int64_t m_first = m16 * nd + n16 * ceil_div(m16, m1);
          const std::int64_t n_first = n16 * md + m16 * ceil_div(n16, n1);
          keep(m_first < n_first ? m_first : n_first);
        } else {
          if (pm * k_bytes + n0 * k0 * frac * kL1Db <= in.l1 ||
              m0 * k_bytes * kL1Db + n0 * k0 * frac * kL1Db <= in.l1)
            keep(m16 * nd + n16 * ceil_div(m16, m0));
          if (pn * k_bytes + m0 * k0 * frac * kL1Db <= in.l1 ||
              n0 * k_bytes * kL1Db + m0 * k0 * frac * kL1Db <= in.l1)
            keep(n16 * md + m16 * ceil_div(n16, n0));
        }
        if (in.split_k && load != LLONG_MAX) load *= pk;
        // Wide parts (>= 16 fractals of N when B is not transposed) are preferred.
        int flag = 0;
        if (!(in.b_trans && !in.a_trans)) {
          bool wide = true;
          if (!in.b_trans && n16 >= 16 && pn < 16) wide = false;
          if (in.a_trans && m16 >= 16 && pm < 16) wide = false;
          flag = !big && wide ? 2 : (big && !wide ? 1 : 0);
        }
        // The loop count to L0 at the fractal grain.
        std::int64_t ln = std::min<std::int64_t>(16, pn);
        std::int64_t lm = ln == 0 ? 0 : std::min<std::int64_t>(std::min(pm, 128 / ln), 64);
        ln = lm == 0 ? 0 : std::min<std::int64_t>(std::min(pn, 128 / lm), 64);
        lm = ln == 0 ? 0 : std::min<std::int64_t>(std::min(pm, 128 / ln), 64);
        const std::int64_t lk = lm != 0 && ln != 0 ? std::min(std::min(64 / lm, 64 / ln), pk) : pk;
        const std::int64_t loops = ceil_div(pm, std::max<std::int64_t>(lm, 1)) *
                                   ceil_div(pn, std::max<std::int64_t>(ln, 1)) *
                                   ceil_div(pk, std::max<std::int64_t>(lk, 1));
        const std::int64_t used = md * nd * kd;
        const bool more_cores =
            flag == 0 && (loops < best_loops || (used > best_cores && loops == best_loops));
        const bool less_load = !more_cores && used == best_cores && load < best_load;
        const bool wider = !more_cores && used == best_cores && load == best_load &&
                           best.n * best.m < md * nd;
        if ((flag == 2 || more_cores || less_load || wider) && flag != 1) {
          best = {md, nd, kd};
          best_load = load;
          best_cores = used;
          best_loops = loops;
          big = (in.b_trans || pn >= 16) && (!in.a_trans || pm >= 16) && used > 1;
        }
      }
    }
  }
  std::int64_t pm = ceil_div(m16, best.m), pn = ceil_div(n16, best.n), pk = ceil_div(k16, best.k);
  const std::int64_t bn = best_part(n16, n_map, best.n, false);
  const std::int64_t bm = best_part(m16, m_map, best.m, false);
  const std::int64_t bk = best_part(k16, k_map, best.k, true);
  const std::int64_t need = ceil_div(n16, bn) * ceil_div(m16, bm) * ceil_div(k16, bk);
  if (need > 0 && need <= cores) {
    pm = bm;
    pn = bn;
    pk = bk;
  }
  Dims d;
  d.m = std::min(ceil_div(m16, pm), cores);
  d.n = std::min(ceil_div(n16, pn), cores);
  d.k = in.split_k ? std::min(ceil_div(k16, pk), cores) : best.k;
  return d;
}

/// ceil(org / parts), rounded up to `align` when asked and when that still leaves `parts`
/// parts; false when it could not be aligned.
bool align_part(bool need, std::int64_t org, std::int64_t parts, std::int64_t align,
                std::int64_t& part) {
  part = ceil_div(org, parts);
  if (!need || align == 0 || parts <= 1) return true;
  const std::int64_t aligned = align_up(part, align);
  if (aligned >= ceil_div(org, parts - 1)) return false;
  part = aligned;
  return true;
}

struct NBuffer33Input {
  std::int64_t m = 0, n = 0, k = 0, cores = 1, bm = 128, bn = 256, bk = 64;
  std::int64_t a_align = 128, b_align = 128, elem = 2;
  bool a_trans = false, b_trans = false, split_k = false;
};

/// The N_BUFFER_33 schedule's split (see the header); false when K does not fit 3 base blocks.
bool split_nbuffer33(const NBuffer33Input& in, Dims& d) {
  d.m = ceil_div(in.m, in.bm * 3);
  d.k = in.split_k ? ceil_div(in.k, in.bk * 3) : 1;
  if (!in.split_k && ceil_div(in.k, in.bk) > 3) return false;
  const std::int64_t room = std::max<std::int64_t>(1, in.cores / (d.m * d.k));
  const std::int64_t n_max = std::min(in.n / in.bn + 1, room);
  double best_int = -1, best_cyc = 0, best_band = 0;
  d.n = 1;
  for (std::int64_t nd = 1; nd <= std::max<std::int64_t>(1, n_max); ++nd) {
    std::int64_t sm = 0, sn = 0;
    const bool ok_a = align_part(in.a_trans && in.m % in.a_align == 0, in.m, d.m, in.a_align, sm);
    const bool ok_b = align_part(!in.b_trans && in.n % in.b_align == 0, in.n, nd, in.b_align, sn);
    const double ratio = ok_a && ok_b ? 1.0 : 2.0;
    double cyc = 0, mem = 0;
    const std::int64_t ms[2] = {in.bm, sm % in.bm}, mc[2] = {sm / in.bm, 1};
    const std::int64_t ns[2] = {in.bn, sn % in.bn}, nc[2] = {sn / in.bn, 1};
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        if (ms[i] == 0 || ns[j] == 0 || mc[i] == 0 || nc[j] == 0) continue;
        const double count = static_cast<double>(mc[i] * nc[j]);
        cyc += count * static_cast<double>(ms[i] * ns[j] * in.bk) /
               (256.0 * static_cast<double>(32 / in.elem));
        mem += count * ratio * static_cast<double>((ms[i] + ns[j]) * in.bk * in.elem);
      }
    const double intensity = mem > 0 ? cyc / mem : 0;
    const double band =
        static_cast<double>((in.cores - d.m) * in.bm + (in.cores - nd) * in.bn) /
        static_cast<double>((in.bm + in.bn) * in.cores);
    bool better = best_int < 0;
    if (!better) {
      if (std::fabs(intensity - best_int) > 1e-4)
        better = intensity > best_int;
      else if (std::fabs(cyc - best_cyc) < 0.01 * best_cyc)
        better = band > best_band;
      else
        better = cyc < best_cyc;
    }
    if (better) {
      best_int = intensity;
      best_cyc = cyc;
      best_band = band;
      d.n = nd;
    }
  }
  return true;
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
  schedule_ = params.scheduleType;
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
  if (singleM_ > 0 || singleN_ > 0 || singleK_ > 0) {  // SetSingleShape: as given
    s.sm = singleM_ > 0 ? singleM_ : m;
    s.sn = singleN_ > 0 ? singleN_ : n;
    s.sk = singleK_ > 0 ? singleK_ : k;
    s.used = cores;
  } else if (cores == 1) {
    s = {m, n, k, 1};
  } else if (schedule_ == ScheduleType::N_BUFFER_33) {
    NBuffer33Input in;
    in.m = m;
    in.n = n;
    in.k = k;
    in.cores = cores;
    in.elem = sa;
    in.bm = fixM_ > 0 ? fixM_ : (l0c_ >= 256 * 1024 ? 256 : 128);
    in.bn = fixN_ > 0 ? fixN_ : 256;
    in.bk = 128 / sa;  // 128 bytes of K
    if (a_.isTrans && b_.isTrans) {
      in.bm = fixM_ > 0 ? fixM_ : 256;
      in.bn = fixN_ > 0 ? fixN_ : 128;
    }
    in.a_align = in.b_align = 256 / sa;
    in.a_trans = a_.isTrans;
    in.b_trans = b_.isTrans;
    in.split_k = split_k_;
    Dims d;
    if (!split_nbuffer33(in, d))
      return fail("N_BUFFER_33 holds at most 3 base blocks of K per core (EnableMultiCoreSplitK)");
    s = {ceil_div(m, d.m), ceil_div(n, d.n), ceil_div(k, d.k), d.m * d.n * d.k};
  } else {
    DimsInput in;
    in.m16 = ceil_div(m, 16);
    in.n16 = ceil_div(n, 16);
    in.k16 = ceil_div(k, 32 / sa);
    in.cores = cores;
    in.split_k = split_k_;
    in.a_trans = a_.isTrans;
    in.b_trans = b_.isTrans;
    in.l1 = static_cast<std::int64_t>(l1_);
    in.l0a = static_cast<std::int64_t>(l0a_);
    in.l0c = static_cast<std::int64_t>(l0c_);
    const Dims d = split_cores(in);
    s.sm = ceil_div(m, d.m);
    s.sn = ceil_div(n, d.n);
    s.sk = split_k_ ? ceil_div(in.k16, d.k) * (32 / sa) : ceil_div(k, d.k);
    s.used = d.m * d.n * d.k;
  }
  const std::int64_t sk = s.sk;

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
