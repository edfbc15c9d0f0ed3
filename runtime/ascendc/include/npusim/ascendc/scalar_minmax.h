// SPDX-License-Identifier: Apache-2.0
// The scalar min / max that Ascend C kernel code calls unqualified (the device compiler's
// built-ins): the smaller / larger of two values in their common type, on the scalar unit (no
// instruction is recorded beyond the kernel's own scalar code).
//
// Two arguments of one arithmetic type call a plain function, as the device compiler's built-ins
// are, so a library's own `min` / `max` templates reachable by the same unqualified call (CATLASS's
// tla::min) are not ambiguous with them: overload resolution prefers the non-template.
#pragma once

#include <type_traits>

#define NPUSIM_SCALAR_MINMAX(T)                                  \
  constexpr T min(T a, T b) { return b < a ? b : a; }            \
  constexpr T max(T a, T b) { return a < b ? b : a; }
NPUSIM_SCALAR_MINMAX(signed char)
NPUSIM_SCALAR_MINMAX(unsigned char)
NPUSIM_SCALAR_MINMAX(short)
NPUSIM_SCALAR_MINMAX(unsigned short)
NPUSIM_SCALAR_MINMAX(int)
NPUSIM_SCALAR_MINMAX(unsigned int)
NPUSIM_SCALAR_MINMAX(long)
NPUSIM_SCALAR_MINMAX(unsigned long)
NPUSIM_SCALAR_MINMAX(long long)
NPUSIM_SCALAR_MINMAX(unsigned long long)
NPUSIM_SCALAR_MINMAX(float)
NPUSIM_SCALAR_MINMAX(double)
#undef NPUSIM_SCALAR_MINMAX

template <class A, class B>
constexpr std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
}

template <class A, class B>
constexpr std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}
