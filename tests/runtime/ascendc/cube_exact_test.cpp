// SPDX-License-Identifier: Apache-2.0
// Cube path results: LoadData + Mmad + Fixpipe against a reference computed here from the
// documented layouts (calls after the first accumulate; Fixpipe: ReLU, then the quantPre
// conversion rounded to nearest even), for every input type the twin supports, with shapes that
// are not whole fractals (the padding holds NaNs / junk that must not leak in).
//  - int8 inputs: bit for bit (exact products, int32 sums wrapping).
//  - float accumulation (half, bf16, float inputs): Mmad is a float GEMM in its own order
//    (Eigen, cube_gemm.h), so the tolerance is the bound of any float summation order: the L0C
//    value is within E = K * 2^-24 * sum |a * b| (2K for float inputs, whose products round too)
//    + K * 2^-149 (products and sums in the subnormal range) of the double-precision sum. Since
//    ReLU, the rounding to float and the output conversion are monotone, each output must lie
//    between the outputs of (ref - E) and (ref + E) computed exactly as documented; where E = 0
//    (one exact product per element) that is the exact output, bit for bit.
// Plus: the tiled fp16 matmul gives the same bits run after run, and both GEMM builds (portable
// and AVX2) stay within the tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "cube_gemm.h"
#include "cube_kernels.h"
#include "npusim/ascendc/block_runner.h"
#include "test_kernels.h"

namespace {

using npusim::ascendc::round_to_format;
using npusim::ascendc::Rounding;

// Deterministic pseudo-random bits (64-bit LCG, high half).
struct Lcg {
  std::uint64_t s;
  std::uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(s >> 32);
  }
};

template <class T>
T from_u16(std::uint16_t b) {
  return T::from_bits(b);
}

// Inputs with a wide spread of magnitudes, signs and some subnormals.
template <class In>
In random_input(Lcg& g) {
  const std::uint32_t r = g.next();
  const std::uint32_t sign = r >> 31;
  if constexpr (std::is_same_v<In, half>) {
    const std::uint32_t e = (r >> 10) % 21;  // 0 (subnormal) .. 20 (2^5)
    return from_u16<half>(static_cast<std::uint16_t>((sign << 15) | (e << 10) | (r & 0x3ffu)));
  } else if constexpr (std::is_same_v<In, bfloat16_t>) {
    const std::uint32_t sel = (r >> 7) % 52;  // 0 (subnormal) or 90 .. 140
    const std::uint32_t e = sel == 0 ? 0 : 89 + sel;
    return from_u16<bfloat16_t>(static_cast<std::uint16_t>((sign << 15) | (e << 7) | (r & 0x7fu)));
  } else if constexpr (std::is_same_v<In, float>) {
    const std::uint32_t e = 110 + g.next() % 31;
    const std::uint32_t bits = (sign << 31) | (e << 23) | (r & 0x7fffffu);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  } else {
    return static_cast<In>(static_cast<std::uint8_t>(r >> 24));
  }
}

// What must never reach a result: the padding of partial fractals.
template <class In>
In junk() {
  if constexpr (std::is_same_v<In, half>) {
    return from_u16<half>(0x7e00);
  } else if constexpr (std::is_same_v<In, bfloat16_t>) {
    return from_u16<bfloat16_t>(0x7fc0);
  } else if constexpr (std::is_same_v<In, float>) {
    return NAN;
  } else {
    return static_cast<In>(0x55);
  }
}

template <class In, class Acc>
Acc widen(In v) {
  if constexpr (std::is_same_v<Acc, float>) {
    return static_cast<float>(v);
  } else {
    return static_cast<Acc>(v);
  }
}

template <class Out>
std::uint32_t bits_of(Out v) {
  if constexpr (std::is_same_v<Out, half> || std::is_same_v<Out, bfloat16_t>) {
    return v.bits();
  } else {
    std::uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  }
}

// The expected output bits of one L0C value.
template <class Acc, class Out>
std::uint32_t expected_bits(Acc v, QuantMode_t quant, bool relu, float deq_scale) {
  if (relu && v < Acc(0)) v = Acc(0);
  double x;
  if (quant == QuantMode_t::DEQF16) {
    // The Fixpipe's scale keeps 10 mantissa bits; the product is rounded to float first.
    std::uint32_t scale_bits = 0;
    std::memcpy(&scale_bits, &deq_scale, sizeof scale_bits);
    scale_bits &= 0xffffe000u;
    float scale = 0.0f;
    std::memcpy(&scale, &scale_bits, sizeof scale);
    volatile float scaled = static_cast<float>(v) * scale;
    x = scaled;
  } else {
    x = static_cast<double>(v);
  }
  if constexpr (std::is_same_v<Out, half>) {
    return round_to_format(x, 10, 5, Rounding::kNearestEven);
  } else if constexpr (std::is_same_v<Out, bfloat16_t>) {
    return round_to_format(x, 7, 8, Rounding::kNearestEven);
  } else if constexpr (std::is_same_v<Out, float>) {
    return round_to_format(x, 23, 8, Rounding::kNearestEven);  // NaN: the quiet NaN of its sign
  } else {
    return static_cast<std::uint32_t>(v);
  }
}

struct Shape {
  std::uint32_t m, n, k, calls;
};

// Runs mmad_chain on the logical operands a (calls x m x k) and b (calls x k x n) and compares
// every output element's bits with the reference.
template <class Out>
double as_double(Out v) {
  return static_cast<double>(static_cast<float>(v));
}

// The output Fixpipe gives for an L0C value that is exactly x rounded to float.
template <class Out>
Out output_of(double x, QuantMode_t quant, bool relu, float deq_scale) {
  const float acc = static_cast<float>(x);  // round to nearest: monotone
  const std::uint32_t b = expected_bits<float, Out>(acc, quant, relu, deq_scale);
  if constexpr (std::is_same_v<Out, half> || std::is_same_v<Out, bfloat16_t>) {
    return Out::from_bits(static_cast<std::uint16_t>(b));
  } else {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
  }
}

// `exact`: every output element is one exactly representable product (no tolerance).
template <class In, class Acc, class Out>
void check_chain_on(Shape s, const std::vector<In>& a, const std::vector<In>& b, QuantMode_t quant,
                    bool relu, float deq_scale, bool exact = false) {
  constexpr std::uint32_t kK0 = 32 / sizeof(In);
  const std::uint32_t m1 = (s.m + 15) / 16, n1 = (s.n + 15) / 16, k1 = (s.k + kK0 - 1) / kK0;
  // The L0 images of the operands (zZ for A, nZ for B), padded with junk.
  const std::size_t a_chunk = static_cast<std::size_t>(m1) * k1 * 16 * kK0;
  const std::size_t b_chunk = static_cast<std::size_t>(k1) * n1 * 16 * kK0;
  std::vector<In> a_l0(a_chunk * s.calls, junk<In>()), b_l0(b_chunk * s.calls, junk<In>());
  for (std::uint32_t c = 0; c < s.calls; ++c) {
    for (std::uint32_t mi = 0; mi < s.m; ++mi) {
      for (std::uint32_t ki = 0; ki < s.k; ++ki) {
        a_l0[c * a_chunk + ((mi / 16) * k1 + ki / kK0) * 16 * kK0 + (mi % 16) * kK0 + ki % kK0] =
            a[(static_cast<std::size_t>(c) * s.m + mi) * s.k + ki];
      }
    }
    for (std::uint32_t ki = 0; ki < s.k; ++ki) {
      for (std::uint32_t ni = 0; ni < s.n; ++ni) {
        b_l0[c * b_chunk + ((ki / kK0) * n1 + ni / 16) * 16 * kK0 + (ni % 16) * kK0 + ki % kK0] =
            b[(static_cast<std::size_t>(c) * s.k + ki) * s.n + ni];
      }
    }
  }
  std::uint32_t deq_bits;
  std::memcpy(&deq_bits, &deq_scale, sizeof deq_bits);
  std::vector<Out> out(static_cast<std::size_t>(s.m) * s.n);
  auto r = npusim::ascendc::run_blocks(
      &cube_kernels::mmad_chain<In, Acc, Out>, 1, reinterpret_cast<GM_ADDR>(a_l0.data()),
      reinterpret_cast<GM_ADDR>(b_l0.data()), reinterpret_cast<GM_ADDR>(out.data()), s.m, s.n, s.k,
      s.calls, static_cast<std::uint32_t>(quant) | (relu ? 0x100u : 0u),
      static_cast<std::uint64_t>(deq_bits));
  ASSERT_TRUE(r.ok()) << r.first_error();
  for (std::uint32_t mi = 0; mi < s.m; ++mi) {
    for (std::uint32_t ni = 0; ni < s.n; ++ni) {
      if constexpr (std::is_same_v<Acc, float>) {
        double ref = 0, scale = 0;
        for (std::uint32_t c = 0; c < s.calls; ++c) {
          for (std::uint32_t ki = 0; ki < s.k; ++ki) {
            const double p =
                static_cast<double>(widen<In, Acc>(a[(static_cast<std::size_t>(c) * s.m + mi) * s.k + ki])) *
                static_cast<double>(widen<In, Acc>(b[(static_cast<std::size_t>(c) * s.k + ki) * s.n + ni]));
            ref += p;
            scale += std::fabs(p);
          }
        }
        const double terms = static_cast<double>(s.k) * s.calls;
        const double tol =
            exact ? 0.0
                  : terms * (std::is_same_v<In, float> ? 2.0 : 1.0) * std::ldexp(scale, -24) +
                        terms * std::ldexp(1.0, -149);
        if (exact) {  // ref + 0.0: a -0 product sums to +0, as in L0C
          ASSERT_EQ(bits_of(out[mi * s.n + ni]),
                    bits_of(output_of<Out>(ref, quant, relu, deq_scale)))
              << "m " << mi << " n " << ni;
          continue;
        }
        const double got = as_double(out[mi * s.n + ni]);
        const double lo = as_double(output_of<Out>(ref - tol, quant, relu, deq_scale));
        const double hi = as_double(output_of<Out>(ref + tol, quant, relu, deq_scale));
        ASSERT_TRUE(got >= lo && got <= hi)
            << "m " << mi << " n " << ni << ": " << got << " not in [" << lo << ", " << hi
            << "], reference " << ref << " +- " << tol;
      } else {
        Acc acc = Acc(0);
        for (std::uint32_t c = 0; c < s.calls; ++c) {
          for (std::uint32_t ki = 0; ki < s.k; ++ki) {
            const In x = a[(static_cast<std::size_t>(c) * s.m + mi) * s.k + ki];
            const In y = b[(static_cast<std::size_t>(c) * s.k + ki) * s.n + ni];
            // int32: exact products, wrapping sums
            acc = static_cast<Acc>(static_cast<std::uint32_t>(acc) +
                                   static_cast<std::uint32_t>(widen<In, Acc>(x) * widen<In, Acc>(y)));
          }
        }
        ASSERT_EQ(bits_of(out[mi * s.n + ni]),
                  (expected_bits<Acc, Out>(acc, quant, relu, deq_scale)))
            << "m " << mi << " n " << ni;
      }
    }
  }
}

template <class In, class Acc, class Out>
void check_chain(Shape s, QuantMode_t quant, bool relu, float deq_scale = 1.0f,
                 std::uint64_t seed = 1) {
  Lcg g{seed};
  std::vector<In> a(static_cast<std::size_t>(s.calls) * s.m * s.k);
  std::vector<In> b(static_cast<std::size_t>(s.calls) * s.k * s.n);
  for (auto& v : a) v = random_input<In>(g);
  for (auto& v : b) v = random_input<In>(g);
  check_chain_on<In, Acc, Out>(s, a, b, quant, relu, deq_scale);
}

constexpr Shape kPartial{20, 24, 40, 3};  // k0 = 16: 2 x 3 fractals of A, 3 x 2 of B
constexpr Shape kWhole{32, 48, 64, 2};

TEST(CubeExact, Fp16ToFloat) {
  check_chain<half, float, float>(kPartial, QuantMode_t::NoQuant, false);
  check_chain<half, float, float>(kWhole, QuantMode_t::NoQuant, false, 1.0f, 7);
}

TEST(CubeExact, Fp16ToHalfWithReluAndOverflow) {
  check_chain<half, float, half>(kPartial, QuantMode_t::F322F16, false);
  check_chain<half, float, half>(kWhole, QuantMode_t::F322F16, true, 1.0f, 3);
  check_chain<half, float, half>(kWhole, QuantMode_t::NoQuant, false, 1.0f, 5);
}

TEST(CubeExact, Bf16IncludingSubnormalProducts) {
  check_chain<bfloat16_t, float, bfloat16_t>(kPartial, QuantMode_t::F322BF16, false);
  check_chain<bfloat16_t, float, bfloat16_t>(kWhole, QuantMode_t::F322BF16, true, 1.0f, 11);
  check_chain<bfloat16_t, float, float>(kWhole, QuantMode_t::NoQuant, false, 1.0f, 13);
}

TEST(CubeExact, Fp32WithinFloatSummationBound) {
  check_chain<float, float, float>({20, 24, 20, 3}, QuantMode_t::NoQuant, false);  // k0 = 8
  check_chain<float, float, float>(kWhole, QuantMode_t::NoQuant, true, 1.0f, 17);
  check_chain<float, float, half>(kWhole, QuantMode_t::F322F16, false, 1.0f, 19);
}

TEST(CubeExact, Int8ToInt32AndDequantToHalf) {
  check_chain<std::int8_t, std::int32_t, std::int32_t>({20, 24, 70, 3}, QuantMode_t::NoQuant,
                                                       false);  // k0 = 32
  check_chain<std::int8_t, std::int32_t, std::int32_t>(kWhole, QuantMode_t::NoQuant, true, 1.0f,
                                                       23);
  check_chain<std::int8_t, std::int32_t, half>(kWhole, QuantMode_t::DEQF16, false, 0.0078125f, 29);
  check_chain<std::int8_t, std::int32_t, half>(kWhole, QuantMode_t::DEQF16, true, 3.3f, 31);
}

// Fixpipe's conversions on the values where rounding is delicate: C = A (m x 1 floats) * 1, so
// L0C holds A's values (NaNs quieted, -0 as +0), then Fixpipe to half / bf16 / float.
std::vector<float> delicate_floats() {
  const std::uint32_t bits[] = {
      0x7fa00000u, 0xffc00001u, 0x7f800000u, 0xff800000u,  // NaNs with payloads, infinities
      0x477fe000u, 0x477fefffu, 0x477ff000u, 0xc77ff000u,  // 65504, just below / at 65520
      0x45001000u, 0x45003000u, 0x3f801000u, 0x3f801008u,  // half ties and near-ties
      0x33800000u, 0x33000000u, 0x33400000u, 0x387fc000u,  // half subnormals / their ties
      0x38800000u, 0x387ff000u, 0x00000001u, 0x807fffffu,  // 2^-14 and below, float denormals
      0x7f7fffffu, 0x7f7f8000u, 0x7f7f7fffu, 0x3f808000u,  // float max, bf16 ties / overflow
      0x3f818000u, 0x3f817fffu, 0x80000000u, 0xbf800000u,  // bf16 ties, -0, -1
  };
  std::vector<float> v;
  for (std::uint32_t b : bits) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    v.push_back(f);
  }
  Lcg g{99};
  while (v.size() < 128) {  // and any bits at all
    const std::uint32_t b = g.next();
    float f;
    std::memcpy(&f, &b, sizeof f);
    v.push_back(f);
  }
  return v;
}

TEST(CubeExact, FixpipeConversionsOfDelicateValues) {
  const std::vector<float> a = delicate_floats();
  const std::vector<float> one(1, 1.0f);
  const Shape s{static_cast<std::uint32_t>(a.size()), 1, 1, 1};
  for (bool relu : {false, true}) {
    check_chain_on<float, float, half>(s, a, one, QuantMode_t::NoQuant, relu, 1.0f, true);
    check_chain_on<float, float, half>(s, a, one, QuantMode_t::F322F16, relu, 1.0f, true);
    check_chain_on<float, float, half>(s, a, one, QuantMode_t::DEQF16, relu, 0.375f, true);
    check_chain_on<float, float, bfloat16_t>(s, a, one, QuantMode_t::F322BF16, relu, 1.0f, true);
    check_chain_on<float, float, float>(s, a, one, QuantMode_t::NoQuant, relu, 1.0f, true);
  }
}

// The Mmad body's vectorised fp16 -> float conversion, for every bit pattern.
TEST(CubeExact, Fp16ToFloatIsFp16FormatToFloat) {
  std::vector<std::uint16_t> h(65536 + 3);  // and a tail that is not a multiple of 4 lanes
  for (std::uint32_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::uint16_t>(i * 40503u);
  std::vector<float> f(h.size());
  npusim::ascendc::detail::fp16_to_float(h.data(), f.data(), h.size());
  for (std::uint32_t i = 0; i < h.size(); ++i) {
    ASSERT_EQ(bits_of(f[i]), bits_of(npusim::ascendc::Fp16Format::to_float(h[i]))) << h[i];
  }
}

// FNV-1a over the output bits of matmul_test.cpp's tiled fp16 matmul (ND2NZ, LoadData with and
// without transpose, Mmad over 4 K steps, Fixpipe to float / half); matmul_test.cpp checks the
// values against a double-precision reference.
template <class Out>
std::uint64_t tiled_matmul_hash() {
  constexpr std::uint32_t kM = 64, kN = 96, kK = 256;
  std::vector<half> a(kM * kK), b(kK * kN);
  for (std::uint32_t i = 0; i < a.size(); ++i) a[i] = half(std::sin(0.1f * static_cast<float>(i)));
  for (std::uint32_t i = 0; i < b.size(); ++i)
    b[i] = half(std::cos(0.07f * static_cast<float>(i)) * 0.5f);
  std::vector<Out> c(kM * kN);
  auto r = npusim::ascendc::run_blocks(
      &test_kernels::tiled_matmul<Out>, (kM / 32) * (kN / 32), reinterpret_cast<GM_ADDR>(a.data()),
      reinterpret_cast<GM_ADDR>(b.data()), reinterpret_cast<GM_ADDR>(c.data()), kM, kN, kK);
  EXPECT_TRUE(r.ok()) << r.first_error();
  std::uint64_t h = 14695981039346656037ull;
  for (const Out& v : c) h = (h ^ bits_of(v)) * 1099511628211ull;
  return h;
}

TEST(CubeExact, TiledMatmulIsDeterministic) {
  const std::uint64_t f = tiled_matmul_hash<float>();
  const std::uint64_t h = tiled_matmul_hash<half>();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(tiled_matmul_hash<float>(), f);
    EXPECT_EQ(tiled_matmul_hash<half>(), h);
  }
}

// Both builds of the float Mmad (portable, and AVX2 + FMA + F16C where the CPU has them) on the
// same operands, in L0 layout, against the double-precision sum: within K * 2^-24 * sum |a * b|.
TEST(CubeExact, BothGemmBuildsAreWithinTheBound) {
  using npusim::ascendc::detail::MmadInput;
  constexpr std::uint32_t kM = 40, kN = 72, kK = 100, kK0 = 16;
  constexpr std::uint32_t kM1 = 3, kN1 = 5, kK1 = 7;
  Lcg g{41};
  std::vector<half> a(kM * kK), b(kK * kN);
  for (auto& v : a) v = random_input<half>(g);
  for (auto& v : b) v = random_input<half>(g);
  std::vector<half> a_l0(kM1 * kK1 * 16 * kK0, junk<half>()), b_l0(kK1 * kN1 * 16 * kK0, junk<half>());
  for (std::uint32_t mi = 0; mi < kM; ++mi)
    for (std::uint32_t ki = 0; ki < kK; ++ki)
      a_l0[((mi / 16) * kK1 + ki / kK0) * 16 * kK0 + (mi % 16) * kK0 + ki % kK0] = a[mi * kK + ki];
  for (std::uint32_t ki = 0; ki < kK; ++ki)
    for (std::uint32_t ni = 0; ni < kN; ++ni)
      b_l0[((ki / kK0) * kN1 + ni / 16) * 16 * kK0 + (ni % 16) * kK0 + ki % kK0] = b[ki * kN + ni];
  auto check = [&](void (*mmad)(MmadInput, const void*, const void*, float*, std::uint32_t,
                                std::uint32_t, std::uint32_t, bool)) {
    std::vector<float> c(kM1 * kN1 * 256, 1.0f);  // accumulate onto 1
    mmad(MmadInput::kHalf, a_l0.data(), b_l0.data(), c.data(), kM, kN, kK, true);
    for (std::uint32_t mi = 0; mi < kM; ++mi) {
      for (std::uint32_t ni = 0; ni < kN; ++ni) {
        double ref = 1.0, scale = 1.0;
        for (std::uint32_t ki = 0; ki < kK; ++ki) {
          const double p = static_cast<double>(static_cast<float>(a[mi * kK + ki])) *
                           static_cast<float>(b[ki * kN + ni]);
          ref += p;
          scale += std::fabs(p);
        }
        const float got = c[((ni / 16) * kM1 + mi / 16) * 256 + (mi % 16) * 16 + ni % 16];
        ASSERT_NEAR(got, ref, (kK + 1) * std::ldexp(scale, -24)) << mi << " " << ni;
      }
    }
  };
  check(&npusim::ascendc::detail::mmad_f32_portable);
#if defined(__x86_64__)
  if (npusim::ascendc::detail::mmad_f32_uses_avx2()) check(&npusim::ascendc::detail::mmad_f32_avx2);
#endif
}

// int8 / uint8 Mmad through the float GEMM in 256-k chunks: exact for every operand combination,
// with k over several chunks, the largest products everywhere (255 * 255 * 256 is just below
// 2^24) and C starting near INT32_MAX so that the int32 sums wrap. Both builds.
TEST(CubeExact, Int8ChunksAreExactAndWrap) {
  using npusim::ascendc::detail::MmadInput;
  constexpr std::uint32_t kM = 20, kN = 24, kK = 600, kK0 = 32;
  constexpr std::uint32_t kM1 = 2, kN1 = 2, kK1 = 19;
  using Mmad = void (*)(MmadInput, MmadInput, const void*, const void*, std::int32_t*,
                        std::uint32_t, std::uint32_t, std::uint32_t, bool);
  std::vector<Mmad> builds = {&npusim::ascendc::detail::mmad_i32_portable};
#if defined(__x86_64__)
  if (npusim::ascendc::detail::mmad_f32_uses_avx2())
    builds.push_back(&npusim::ascendc::detail::mmad_i32_avx2);
#endif
  Lcg g{77};
  for (Mmad mmad : builds) {
    for (int combo = 0; combo < 4; ++combo) {
      const bool a_signed = (combo & 1) != 0, b_signed = (combo & 2) != 0;
      std::vector<std::uint8_t> a(kM * kK), b(kK * kN);
      for (std::uint32_t i = 0; i < a.size(); ++i)
        a[i] = combo == 0 ? 255 : static_cast<std::uint8_t>(g.next() >> 24);
      for (std::uint32_t i = 0; i < b.size(); ++i)
        b[i] = combo == 0 ? 255 : static_cast<std::uint8_t>(g.next() >> 24);
      std::vector<std::uint8_t> a_l0(kM1 * kK1 * 16 * kK0, 0x55), b_l0(kK1 * kN1 * 16 * kK0, 0x55);
      for (std::uint32_t mi = 0; mi < kM; ++mi)
        for (std::uint32_t ki = 0; ki < kK; ++ki)
          a_l0[((mi / 16) * kK1 + ki / kK0) * 16 * kK0 + (mi % 16) * kK0 + ki % kK0] =
              a[mi * kK + ki];
      for (std::uint32_t ki = 0; ki < kK; ++ki)
        for (std::uint32_t ni = 0; ni < kN; ++ni)
          b_l0[((ki / kK0) * kN1 + ni / 16) * 16 * kK0 + (ni % 16) * kK0 + ki % kK0] =
              b[ki * kN + ni];
      const std::int32_t init = 2147483000;
      std::vector<std::int32_t> c(kM1 * kN1 * 256, init);
      mmad(a_signed ? MmadInput::kInt8 : MmadInput::kUInt8,
           b_signed ? MmadInput::kInt8 : MmadInput::kUInt8, a_l0.data(), b_l0.data(), c.data(), kM,
           kN, kK, true);
      for (std::uint32_t mi = 0; mi < kM; ++mi) {
        for (std::uint32_t ni = 0; ni < kN; ++ni) {
          std::int64_t sum = init;
          for (std::uint32_t ki = 0; ki < kK; ++ki) {
            const std::int64_t x = a_signed ? static_cast<std::int8_t>(a[mi * kK + ki])
                                            : static_cast<std::int64_t>(a[mi * kK + ki]);
            const std::int64_t y = b_signed ? static_cast<std::int8_t>(b[ki * kN + ni])
                                            : static_cast<std::int64_t>(b[ki * kN + ni]);
            sum += x * y;
          }
          const auto expected = static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
          ASSERT_EQ(c[((ni / 16) * kM1 + mi / 16) * 256 + (mi % 16) * 16 + ni % 16], expected)
              << "combo " << combo << " m " << mi << " n " << ni;
        }
      }
    }
  }
}

}  // namespace
