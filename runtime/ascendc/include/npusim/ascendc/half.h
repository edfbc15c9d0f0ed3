// SPDX-License-Identifier: Apache-2.0
// half (IEEE binary16) and bfloat16_t for the Ascend C twin: 16-bit storage, conversions rounded
// to nearest even (also from double and integers, without double rounding), arithmetic done in
// float and rounded back. For + - * / and sqrt that is correctly rounded, because float has at
// least 2p+2 significand bits for both formats (24 >= 2*11+2). Mixed expressions follow C's
// usual conversions for a narrow float type: half op float -> float, half op double -> double,
// half op integer -> half.
//
// round_to_format() is the one reference conversion (any rounding mode, any small IEEE format);
// the fast float paths are bit tricks checked against it by the tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace npusim::ascendc {

enum class Rounding : std::uint8_t { kNearestEven, kFloor, kCeil, kNearestAway, kTrunc, kOdd };

namespace detail {

template <class To, class From>
inline To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// Rounds a non-negative integer-or-fraction magnitude v to an integer; `negative` is the sign of
// the value it belongs to (matters for floor/ceil).
inline double round_magnitude(double v, Rounding mode, bool negative) {
  const double fl = std::floor(v);
  const double frac = v - fl;
  const bool odd = std::fmod(fl, 2.0) != 0.0;
  switch (mode) {
    case Rounding::kNearestEven:
      return frac > 0.5 || (frac == 0.5 && odd) ? fl + 1 : fl;
    case Rounding::kNearestAway:
      return frac >= 0.5 ? fl + 1 : fl;
    case Rounding::kTrunc:
      return fl;
    case Rounding::kFloor:
      return negative && frac > 0 ? fl + 1 : fl;
    case Rounding::kCeil:
      return !negative && frac > 0 ? fl + 1 : fl;
    case Rounding::kOdd:
      return frac > 0 && !odd ? fl + 1 : fl;
  }
  return fl;
}

// Result of a finite value too large for the format, per rounding mode (IEEE 754 7.4).
inline std::uint32_t overflow_bits(bool negative, int mant, int exp_bits, Rounding mode) {
  const std::uint32_t exp_max = (1u << exp_bits) - 1;
  const std::uint32_t inf = exp_max << mant;
  const std::uint32_t max_finite = ((exp_max - 1) << mant) | ((1u << mant) - 1);
  bool to_inf = mode == Rounding::kNearestEven || mode == Rounding::kNearestAway ||
                (mode == Rounding::kFloor && negative) || (mode == Rounding::kCeil && !negative);
  return (negative ? 1u << (exp_bits + mant) : 0u) | (to_inf ? inf : max_finite);
}

}  // namespace detail

/// Rounds x to the binary format with `mant` fraction bits and `exp_bits` exponent bits
/// (binary16: 10, 5; bfloat16: 7, 8; binary32: 23, 8) and returns its bit pattern.
inline std::uint32_t round_to_format(double x, int mant, int exp_bits, Rounding mode) {
  const bool negative = std::signbit(x);
  const std::uint32_t sign = negative ? 1u << (exp_bits + mant) : 0u;
  const std::uint32_t exp_max = (1u << exp_bits) - 1;
  if (std::isnan(x)) return sign | (exp_max << mant) | (1u << (mant - 1));
  const double a = std::fabs(x);
  if (std::isinf(a)) return sign | (exp_max << mant);
  if (a == 0) return sign;
  const int bias = (1 << (exp_bits - 1)) - 1;
  int e = 0;
  std::frexp(a, &e);
  int exponent = e - 1;                          // a in [2^exponent, 2^(exponent+1))
  if (exponent < 1 - bias) exponent = 1 - bias;  // subnormal: fixed quantum
  double r = detail::round_magnitude(std::ldexp(a, mant - exponent), mode, negative);
  if (r >= std::ldexp(1.0, mant + 1)) {  // rounded up to the next binade
    r /= 2;
    exponent += 1;
  }
  const auto sig = static_cast<std::uint32_t>(r);
  if (sig < (1u << mant)) return sign | sig;  // subnormal or zero
  const auto biased = static_cast<std::uint32_t>(exponent + bias);
  if (biased >= exp_max) return detail::overflow_bits(negative, mant, exp_bits, mode);
  return sign | (biased << mant) | (sig - (1u << mant));
}

/// Inverse of round_to_format (exact).
inline double format_to_double(std::uint32_t bits, int mant, int exp_bits) {
  const bool negative = (bits >> (exp_bits + mant)) & 1u;
  const std::uint32_t exp_max = (1u << exp_bits) - 1;
  const std::uint32_t biased = (bits >> mant) & exp_max;
  const std::uint32_t frac = bits & ((1u << mant) - 1);
  const int bias = (1 << (exp_bits - 1)) - 1;
  double v;
  if (biased == exp_max) {
    v = frac ? NAN : INFINITY;
  } else if (biased == 0) {
    v = std::ldexp(static_cast<double>(frac), 1 - bias - mant);
  } else {
    v = std::ldexp(static_cast<double>(frac | (1u << mant)),
                   static_cast<int>(biased) - bias - mant);
  }
  return negative ? -v : v;
}

/// IEEE binary16 conversions.
struct Fp16Format {
  static constexpr int kMant = 10;
  static constexpr int kExp = 5;

  static std::uint16_t from_float(float x) {
    const auto f = detail::bit_cast<std::uint32_t>(x);
    const std::uint32_t sign = (f >> 16) & 0x8000u;
    std::uint32_t a = f & 0x7fffffffu;
    if (a >= 0x7f800000u)
      return static_cast<std::uint16_t>(sign | (a > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (a >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520: inf
    if (a < 0x38800000u) {  // below 2^-14: subnormal half; let float's RNE do the rounding
      const float t = detail::bit_cast<float>(a) * 16777216.0f + 8388608.0f;
      return static_cast<std::uint16_t>(sign | (detail::bit_cast<std::uint32_t>(t) - 0x4b000000u));
    }
    a += 0xfffu + ((a >> 13) & 1u);  // round to nearest even at bit 13
    return static_cast<std::uint16_t>(sign | ((a - 0x38000000u) >> 13));
  }

  static float to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1fu;
    const std::uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return detail::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
      const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;  // 2^-24
      return sign ? -v : v;
    }
    return detail::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
  }
};

/// bfloat16 conversions.
struct Bf16Format {
  static constexpr int kMant = 7;
  static constexpr int kExp = 8;

  static std::uint16_t from_float(float x) {
    const auto f = detail::bit_cast<std::uint32_t>(x);
    if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((f >> 16) | 0x40u);
    return static_cast<std::uint16_t>((f + 0x7fffu + ((f >> 16) & 1u)) >> 16);
  }

  static float to_float(std::uint16_t b) {
    return detail::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
  }
};

/// A 16-bit float stored as bits; see the file comment for the arithmetic rules.
template <class Format>
class SmallFloat {
 public:
  SmallFloat() = default;
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  SmallFloat(T v) : bits_(convert(v)) {}  // NOLINT(runtime/explicit): behaves like a builtin
  template <class G, std::enable_if_t<!std::is_same_v<G, Format>, int> = 0>
  explicit SmallFloat(SmallFloat<G> other) : bits_(Format::from_float(static_cast<float>(other))) {}

  operator float() const { return Format::to_float(bits_); }  // NOLINT(runtime/explicit)

  static SmallFloat from_bits(std::uint16_t bits) {
    SmallFloat h;
    h.bits_ = bits;
    return h;
  }
  std::uint16_t bits() const { return bits_; }

  SmallFloat operator-() const { return from_bits(static_cast<std::uint16_t>(bits_ ^ 0x8000u)); }
  SmallFloat operator+() const { return *this; }
  template <class T>
  SmallFloat& operator+=(const T& o) {
    return *this = SmallFloat(*this + o);
  }
  template <class T>
  SmallFloat& operator-=(const T& o) {
    return *this = SmallFloat(*this - o);
  }
  template <class T>
  SmallFloat& operator*=(const T& o) {
    return *this = SmallFloat(*this * o);
  }
  template <class T>
  SmallFloat& operator/=(const T& o) {
    return *this = SmallFloat(*this / o);
  }

 private:
  template <class T>
  static std::uint16_t convert(T v) {
    if constexpr (std::is_same_v<T, float>) {
      return Format::from_float(v);
    } else {
      return static_cast<std::uint16_t>(round_to_format(static_cast<double>(v), Format::kMant,
                                                        Format::kExp, Rounding::kNearestEven));
    }
  }

  std::uint16_t bits_ = 0;
};

using Half = SmallFloat<Fp16Format>;
using BFloat16 = SmallFloat<Bf16Format>;

template <class T>
struct IsSmallFloat : std::false_type {};
template <class F>
struct IsSmallFloat<SmallFloat<F>> : std::true_type {};

// Arithmetic. Same type: computed in float, rounded back. With a floating type: that type.
// With an integer: computed in double, rounded back to the 16-bit type.
#define NPUSIM_SMALL_FLOAT_ARITH(OP)                                                            \
  template <class F>                                                                            \
  inline SmallFloat<F> operator OP(SmallFloat<F> a, SmallFloat<F> b) {                          \
    return SmallFloat<F>(static_cast<float>(a) OP static_cast<float>(b));                       \
  }                                                                                             \
  template <class F, class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>           \
  inline T operator OP(SmallFloat<F> a, T b) {                                                  \
    return static_cast<T>(static_cast<float>(a)) OP b;                                          \
  }                                                                                             \
  template <class F, class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>           \
  inline T operator OP(T a, SmallFloat<F> b) {                                                  \
    return a OP static_cast<T>(static_cast<float>(b));                                          \
  }                                                                                             \
  template <class F, class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>                 \
  inline SmallFloat<F> operator OP(SmallFloat<F> a, T b) {                                      \
    return SmallFloat<F>(static_cast<double>(static_cast<float>(a)) OP static_cast<double>(b)); \
  }                                                                                             \
  template <class F, class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>                 \
  inline SmallFloat<F> operator OP(T a, SmallFloat<F> b) {                                      \
    return SmallFloat<F>(static_cast<double>(a) OP static_cast<double>(static_cast<float>(b))); \
  }
NPUSIM_SMALL_FLOAT_ARITH(+)
NPUSIM_SMALL_FLOAT_ARITH(-)
NPUSIM_SMALL_FLOAT_ARITH(*)
NPUSIM_SMALL_FLOAT_ARITH(/)
#undef NPUSIM_SMALL_FLOAT_ARITH

// Comparisons are exact in float (or in the other operand's type).
#define NPUSIM_SMALL_FLOAT_CMP(OP)                                                \
  template <class F>                                                              \
  inline bool operator OP(SmallFloat<F> a, SmallFloat<F> b) {                     \
    return static_cast<float>(a) OP static_cast<float>(b);                        \
  }                                                                               \
  template <class F, class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> \
  inline bool operator OP(SmallFloat<F> a, T b) {                                 \
    return static_cast<double>(static_cast<float>(a)) OP static_cast<double>(b);  \
  }                                                                               \
  template <class F, class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> \
  inline bool operator OP(T a, SmallFloat<F> b) {                                 \
    return static_cast<double>(a) OP static_cast<double>(static_cast<float>(b));  \
  }
NPUSIM_SMALL_FLOAT_CMP(==)
NPUSIM_SMALL_FLOAT_CMP(!=)
NPUSIM_SMALL_FLOAT_CMP(<)
NPUSIM_SMALL_FLOAT_CMP(<=)
NPUSIM_SMALL_FLOAT_CMP(>)
NPUSIM_SMALL_FLOAT_CMP(>=)
#undef NPUSIM_SMALL_FLOAT_CMP

}  // namespace npusim::ascendc
