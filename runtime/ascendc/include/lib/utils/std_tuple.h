// SPDX-License-Identifier: Apache-2.0
// AscendC::Std's tuple and utility names in the Ascend C twin: tuple, get, make_tuple, tie,
// tuple_size(_v), tuple_element(_t), forward, move, integer_sequence / index_sequence. As with
// the type traits (lib/utils/type_traits.h), the twin compiles kernels with the host compiler,
// so these are the standard library's own: a tuple is a std::tuple, get<I> reads its element I,
// and none of them records an instruction (they are scalar bookkeeping, like a struct's fields).
// AscendC::Ceil(a, b): the integer quotient rounded up (the scalar form beside the vector Ceil
// of lib/math/rounding.h; 0 when b is 0, like DivCeil).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC::Std {

using std::forward;
using std::get;
using std::index_sequence;
using std::index_sequence_for;
using std::integer_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;
using std::make_tuple;
using std::move;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_element_t;
using std::tuple_size;
using std::tuple_size_v;

}  // namespace AscendC::Std

namespace AscendC {

/// ceil(a / b) of two integers in their common type; 0 when b is 0.
template <class T, class U,
          class = std::enable_if_t<std::is_integral_v<T> && std::is_integral_v<U>>>
constexpr std::common_type_t<T, U> Ceil(T a, U b) {
  using C = std::common_type_t<T, U>;
  return static_cast<C>(b) == 0 ? C(0)
                                : static_cast<C>((static_cast<C>(a) + static_cast<C>(b) - 1) /
                                                 static_cast<C>(b));
}

}  // namespace AscendC
