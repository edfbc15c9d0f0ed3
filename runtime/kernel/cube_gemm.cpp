// SPDX-License-Identifier: Apache-2.0
// cube_gemm.h's float Mmad, with Eigen (libeigen3-dev) for the product. This file is compiled
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
// simulated-time thread bookkeeping (runtime/thread_state.cpp).
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
#include "npusim/kernel/cube_ops.h"  // detail::fp16_to_float
#endif

namespace npusim::kernel::detail {

namespace {

// Per-thread scratch, grown as needed (plain malloc: no std template instances, see above).
struct Scratch {
  float* p = nullptr;
  std::size_t n = 0;
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

thread_local Scratch t_a, t_bt, t_c;

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
  }
}

void mmad_impl(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
               std::uint32_t n, std::uint32_t k, bool accumulate) {
  if (m == 0 || n == 0) return;
  const std::uint32_t k0 = in == MmadInput::kFloat ? 8 : 16;  // elements per fractal row
  const std::uint32_t m1 = (m + 15) / 16, k1 = (k + k0 - 1) / k0, n1 = (n + 15) / 16;
  const std::size_t frac = 16ull * k0;
  float* ar = t_a.get(static_cast<std::size_t>(m) * k + 1);
  float* btr = t_bt.get(static_cast<std::size_t>(n) * k + 1);
  float* cr = t_c.get(static_cast<std::size_t>(m) * n);
  // A (zZ): fractal (mi / 16, kb) holds row mi's k in [kb * k0, kb * k0 + k0).
  for (std::uint32_t mi = 0; mi < m; ++mi) {
    const std::size_t row0 = (mi / 16) * k1 * frac + (mi % 16) * k0;
    float* row = ar + static_cast<std::size_t>(mi) * k;
    for (std::uint32_t kb = 0; kb < k1; ++kb) {
      const std::uint32_t len = k - kb * k0 < k0 ? k - kb * k0 : k0;
      run_to_float(in, a, row0 + kb * frac, row + kb * k0, len);
    }
  }
  // B (nZ): fractal (kb, ni / 16) holds column ni's k in [kb * k0, kb * k0 + k0): a row of B^T.
  for (std::uint32_t ni = 0; ni < n; ++ni) {
    const std::size_t col0 = (ni / 16) * frac + (ni % 16) * k0;
    float* row = btr + static_cast<std::size_t>(ni) * k;
    for (std::uint32_t kb = 0; kb < k1; ++kb) {
      const std::uint32_t len = k - kb * k0 < k0 ? k - kb * k0 : k0;
      run_to_float(in, b, col0 + kb * n1 * frac, row + kb * k0, len);
    }
  }
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

}  // namespace

#ifdef NPUSIM_GEMM_AVX2

void mmad_f32_avx2(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
                   std::uint32_t n, std::uint32_t k, bool accumulate) {
  mmad_impl(in, a, b, c, m, n, k, accumulate);
}

#else

void mmad_f32_portable(MmadInput in, const void* a, const void* b, float* c, std::uint32_t m,
                       std::uint32_t n, std::uint32_t k, bool accumulate) {
  mmad_impl(in, a, b, c, m, n, k, accumulate);
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

}  // namespace npusim::kernel::detail
