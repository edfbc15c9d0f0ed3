// SPDX-License-Identifier: Apache-2.0
// AscendC::SizeOfBits<T>::value: the number of bits one element of T occupies in device memory
// (8 * sizeof(T), but 4 for the packed AscendC::int4b_t, whose C++ object is a byte here:
// int4.h). Template libraries size their buffers with it (CATLASS's Catlass::SizeOfBits is this
// trait on Atlas A2/A3). A compile-time trait: no instruction, no simulated time.
#pragma once

#include <cstddef>
#include <type_traits>

#include "npusim/ascendc/int4.h"

namespace AscendC {

template <class T>
struct SizeOfBits {
  static constexpr std::size_t value =
      std::is_same_v<std::remove_cv_t<T>, int4b_t> ? 4 : sizeof(T) * 8;
};

}  // namespace AscendC
