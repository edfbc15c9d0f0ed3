// SPDX-License-Identifier: Apache-2.0
// cube_gemm.h's float and int8 Mmad, with Eigen (libeigen3-dev) for the product. This file is compiled
// twice: as is (the portable body and the dispatcher), and from cube_gemm_avx2.cpp with -mavx2
// -mfma -mf16c and NPUSIM_GEMM_AVX2 defined. That copy renames Eigen's namespace, so none of its
// template instances (AVX2 code) can stand in for the portable ones at link time; it uses no
// other out-of-line template (std::vector...) for the same reason.
//
// Library choice (measured on the 2-core Xeon this was written on, single-threaded sgemm,
// 128x256x64 / 256x256x256): OpenBLAS 0.3.21 ~65 / ~95 GFLOPS, Eigen 3.4 portable SSE2 ~18 / ~16,
// Eigen 3.4 AVX2 + FMA ~50 / ~45, the loop this replaced ~17. Eigen won: within 1.5x of
// OpenBLAS with the AVX2 build, header-only, no threads. Debian's OpenBLAS (the pthread variant
// its alternatives select) starts a worker thread when it is loaded, before main, and every
// thread libacl_rt.so sees created goes through its pthread_create interposer into the runtime's
// simulated-time thread bookkeeping (runtime/core/thread_state.cpp).
// The whole Mmad body here (conversion, relayout, GEMM, zN scatter; AVX2 build), 128x256x64:
// fp16 46-50 GFLOPS (the loop before: ~17). int8 through the same GEMM in exact 256-k chunks:
// 27-28 G ops/s (the int32 loop before: 2.3-2.5).
#include "cube_gemm.h"

#include <cstdlib>
#include <cstring>

#ifdef NPUSIM_GEMM_AVX2
#include <immintrin.h>
#define Eigen npusim_eigen_avx2
#endif
#define EIGEN_DONT_PARALLELIZE
#define EIGEN_NO_DEBUG
#include <Eigen/Core>

#ifndef NPUSIM_GEMM_AVX2
#include "npusim/ascendc/cube_ops.h"  // detail::fp16_to_float
#endif

namespace npusim::ascendc::detail {

namespace {

// Per-thread scratch, grown as needed (plain malloc: no std template instances, see above).
struct Scratch {
  float* p = nullptr;
  std::size_t n = 0;
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { std::free(p); }
  float* get(std::size_t want) {
    if (want > n) {
      std::free(p);
      p = static_cast<float*>(std::malloc(want * sizeof(float)));
      if (p == nullptr) std::abort();
      n = want;
    }
    return p;
  }
};

thread_local Scratch t_a, t_bt, t_c, t_i;

// len (<= 16) elements of an operand to float, exactly.
inline void run_to_float(MmadInput in, const void* src, std::size_t index, float* dst,
                         std::uint32_t len) {
  switch (in) {
    case MmadInput::kHalf: {
      const auto* s = static_cast<const std::uint16_t*>(src) + index;
#ifdef NPUSIM_GEMM_AVX2
      if (len == 16) {
        _mm256_storeu_ps(dst, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s))));
        _mm256_storeu_ps(dst + 8,
                         _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 8))));
        return;
      }
      for (std::uint32_t i = 0; i < len; ++i) dst[i] = _cvtsh_ss(s[i]);
#else
      fp16_to_float(s, dst, len);
#endif
      return;
    }
    case MmadInput::kBf16: {
      const auto* s = static_cast<const std::uint16_t*>(src) + index;
      for (std::uint32_t i = 0; i < len; ++i) {
        const std::uint32_t u = static_cast<std::uint32_t>(s[i]) << 16;
        std::memcpy(dst + i, &u, sizeof u);
      }
      return;
    }
    case MmadInput::kFloat:
      std::memcpy(dst, static_cast<const float*>(src) + index, len * sizeof(float));
      return;
    case MmadInput::kInt8: {
      const auto* s = static_cast<const std::int8_t*>(src) + index;
      for (std::uint32_t i = 0; i < len; ++i) dst[i] = static_cast<float>(s[i]);
      return;
    }
    case MmadInput::kUInt8: {
      const auto* s = static_cast<const std::uint8_t*>(src) + index;
      for (std::uint32_t i = 0; i < len; ++i) dst[i] = static_cast<float>(s[i]);
      return;
    }
  }
}

std::uint32_t k0_of(MmadInput in) {
  switch (in) {
    case MmadInput::kFloat:
      return 8;
    case MmadInput::kInt8:
    case MmadInput::kUInt8:
      return 32;
    default:
      return 16;
  }
}

// A (zZ) as m x k row-major floats, B (nZ) as n x k row-major floats (B transposed).
void operands_to_float(MmadInput a_in, MmadInput b_in, const void* a, const void* b, float* ar,
                       float* btr, std::uint32_t m, std::uint32_t n, std::uint32_t k) {
  const std::uint32_t k0 = k0_of(a_in);  // both operands have the same element size
  const std::uint32_t k1 = (k + k0 - 1) / k0, n1 = (n + 15) / 16;
  const std::size_t frac = 16ull * k0;
  // A (zZ): fractal (mi / 16, kb) holds row mi's k in [kb * k0, kb * k0 + k0).
  for (std::uint32_t mi = 0; mi < m; ++mi) {
    const std::size_t row0 = (mi / 16) * k1 * frac + (mi % 16) * k0;
    float* row = ar + static_cast<std::size_t>(mi) * k;
    for (std::uint32_t kb = 0; kb < k1; ++kb) {
      const std::uint32_t len = k - kb * k0 < k0 ? k - kb * k0 : k0;
      if (len <= 16) {
        run_to_float(a_in, a, row0 + kb * frac, row + kb * k0, len);
      } else {
        run_to_float(a_in, a, row0 + kb * frac, row + kb * k0, 16);
        run_to_float(a_in, a, row0 + kb * frac + 16, row + kb * k0 + 16, len - 16);
      }
    }
  }
  // B (nZ): fractal (kb, ni / 16) holds column ni's k in [kb * k0, kb * k0 + k0): a row of B^T.
  for (std::uint32_t ni = 0; ni < n; ++ni) {
    const std::size_t col0 = (ni / 16) * frac + (ni % 16) * k0;
    float* row = btr + static_cast<std::size_t>(ni) * k;
    for (std::uint32_t kb = 0; kb < k1; ++kb) {
      const std::uint32_t len = k - kb * k0 < k0 ? k - kb * k0 : k0;
      const std::size_t at = col0 + kb * n1 * frac;
      if (len <= 16) {
        run_to_float(b_in, b, at, row + kb * k0, len);
      } else {
        run_to_float(b_in, b, at, row + kb * k0, 16);
        run_to_float(b_in, b, at + 16, row + kb * k0 + 16, len - 16);
      }
    }
  }
}

void mmad_impl(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
               std::uint32_t n, std::uint32_t k, bool accumulate) {
  if (m == 0 || n == 0) return;
  const std::uint32_t m1 = (m + 15) / 16, n1 = (n + 15) / 16;
  float* ar = t_a.get(static_cast<std::size_t>(m) * k + 1);
  float* btr = t_bt.get(static_cast<std::size_t>(n) * k + 1);
  float* cr = t_c.get(static_cast<std::size_t>(m) * n);
  operands_to_float(in, in, a, b, ar, btr, m, n, k);
  // C (zN): fractal column nf is a row-major (m1 * 16) x 16 block.
  using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<RowMajor> cm(cr, m, n);
  if (accumulate) {
    for (std::uint32_t nf = 0; nf < n1; ++nf) {
      const std::uint32_t width = n - nf * 16 < 16 ? n - nf * 16 : 16;
      const float* src = c + static_cast<std::size_t>(nf) * m1 * 256;
      for (std::uint32_t mi = 0; mi < m; ++mi) {
        float* dst = cr + static_cast<std::size_t>(mi) * n + nf * 16;
        if (width == 16) {
          std::memcpy(dst, src + mi * 16, 16 * sizeof(float));
        } else {
          std::memcpy(dst, src + mi * 16, width * sizeof(float));
        }
      }
    }
  } else {
    cm.setZero();
  }
  if (k > 0) {
    const Eigen::Map<const RowMajor> am(ar, m, k);
    const Eigen::Map<const RowMajor> btm(btr, n, k);
    cm.noalias() += am * btm.transpose();
  }
  for (std::uint32_t nf = 0; nf < n1; ++nf) {
    const std::uint32_t width = n - nf * 16 < 16 ? n - nf * 16 : 16;
    float* dst = c + static_cast<std::size_t>(nf) * m1 * 256;
    for (std::uint32_t mi = 0; mi < m; ++mi) {
      const float* src = cr + static_cast<std::size_t>(mi) * n + nf * 16;
      if (width == 16) {
        std::memcpy(dst + mi * 16, src, 16 * sizeof(float));
      } else {
        std::memcpy(dst + mi * 16, src, width * sizeof(float));
      }
    }
  }
}

void mmad_i32_impl(MmadInput a_in, MmadInput b_in, const void* a, const void* b,
                   std::int32_t* c, std::uint32_t m, std::uint32_t n, std::uint32_t k,
                   bool accumulate) {
  if (m == 0 || n == 0) return;
  constexpr std::uint32_t kChunk = 256;  // 256 * 2^16 < 2^24: float sums stay exact
  const std::uint32_t m1 = (m + 15) / 16, n1 = (n + 15) / 16;
  float* ar = t_a.get(static_cast<std::size_t>(m) * k + 1);
  float* btr = t_bt.get(static_cast<std::size_t>(n) * k + 1);
  float* cr = t_c.get(static_cast<std::size_t>(m) * n);
  operands_to_float(a_in, b_in, a, b, ar, btr, m, n, k);
  // The int32 result, row-major, as uint32 (wrapping adds), in the scratch after cr.
  auto* acc = reinterpret_cast<std::uint32_t*>(t_i.get(static_cast<std::size_t>(m) * n));
  for (std::uint32_t nf = 0; nf < n1; ++nf) {
    const std::uint32_t width = n - nf * 16 < 16 ? n - nf * 16 : 16;
    for (std::uint32_t mi = 0; mi < m; ++mi) {
      std::uint32_t* dst = acc + static_cast<std::size_t>(mi) * n + nf * 16;
      if (accumulate) {
        std::memcpy(dst, c + static_cast<std::size_t>(nf) * m1 * 256 + mi * 16,
                    width * sizeof(std::uint32_t));
      } else {
        std::memset(dst, 0, width * sizeof(std::uint32_t));
      }
    }
  }
  using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Strided = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;
  Eigen::Map<RowMajor> cm(cr, m, n);
  for (std::uint32_t k_at = 0; k_at < k; k_at += kChunk) {
    const std::uint32_t len = k - k_at < kChunk ? k - k_at : kChunk;
    const Strided am(ar + k_at, m, len, Eigen::OuterStride<>(k));
    const Strided btm(btr + k_at, n, len, Eigen::OuterStride<>(k));
    cm.setZero();
    cm.noalias() += am * btm.transpose();
    const std::size_t total = static_cast<std::size_t>(m) * n;
    for (std::size_t i = 0; i < total; ++i) {
      acc[i] += static_cast<std::uint32_t>(static_cast<std::int32_t>(cr[i]));  // exact integer
    }
  }
  for (std::uint32_t nf = 0; nf < n1; ++nf) {
    const std::uint32_t width = n - nf * 16 < 16 ? n - nf * 16 : 16;
    for (std::uint32_t mi = 0; mi < m; ++mi) {
      std::memcpy(c + static_cast<std::size_t>(nf) * m1 * 256 + mi * 16,
                  acc + static_cast<std::size_t>(mi) * n + nf * 16, width * sizeof(std::int32_t));
    }
  }
}

}  // namespace

#ifdef NPUSIM_GEMM_AVX2

void mmad_f32_avx2(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
                   std::uint32_t n, std::uint32_t k, bool accumulate) {
  mmad_impl(in, a, b, c, m, n, k, accumulate);
}

void mmad_i32_avx2(MmadInput a_in, MmadInput b_in, const void* a, const void* b, std::int32_t* c,
                   std::uint32_t m, std::uint32_t n, std::uint32_t k, bool accumulate) {
  mmad_i32_impl(a_in, b_in, a, b, c, m, n, k, accumulate);
}

#else

void mmad_f32_portable(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
                       std::uint32_t n, std::uint32_t k, bool accumulate) {
  mmad_impl(in, a, b, c, m, n, k, accumulate);
}

void mmad_i32_portable(MmadInput a_in, MmadInput b_in, const void* a, const void* b,
                       std::int32_t* c, std::uint32_t m, std::uint32_t n, std::uint32_t k,
                       bool accumulate) {
  mmad_i32_impl(a_in, b_in, a, b, c, m, n, k, accumulate);
}

void mmad_i32(MmadInput a_in, MmadInput b_in, const void* a, const void* b, std::int32_t* c,
              std::uint32_t m, std::uint32_t n, std::uint32_t k, bool accumulate) {
#if defined(NPUSIM_HAVE_GEMM_AVX2)
  if (mmad_f32_uses_avx2()) return mmad_i32_avx2(a_in, b_in, a, b, c, m, n, k, accumulate);
#endif
  mmad_i32_portable(a_in, b_in, a, b, c, m, n, k, accumulate);
}

bool mmad_f32_uses_avx2() {
#if defined(NPUSIM_HAVE_GEMM_AVX2)
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                          __builtin_cpu_supports("f16c");
  return yes;
#else
  return false;
#endif
}

void mmad_f32(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
              std::uint32_t n, std::uint32_t k, bool accumulate) {
#if defined(NPUSIM_HAVE_GEMM_AVX2)
  if (mmad_f32_uses_avx2()) return mmad_f32_avx2(in, a, b, c, m, n, k, accumulate);
#endif
  mmad_f32_portable(in, a, b, c, m, n, k, accumulate);
}

#endif

}  // namespace npusim::ascendc::detail
