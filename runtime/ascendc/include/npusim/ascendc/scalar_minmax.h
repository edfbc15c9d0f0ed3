// SPDX-License-Identifier: Apache-2.0
// The scalar min / max that Ascend C kernel code calls unqualified (the device compiler's
// built-ins): the smaller / larger of two values in their common type, on the scalar unit (no
// instruction is recorded beyond the kernel's own scalar code).
#pragma once

#include <type_traits>

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
