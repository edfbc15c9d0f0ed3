// SPDX-License-Identifier: Apache-2.0
// AscendC::int4b_t: the packed 4-bit signed integer of the Ascend C API (-8..7).
//
// Device memory holds two int4b_t per byte: element 2k in the low nibble of byte k, element 2k+1
// in its high nibble. A C++ object cannot be half a byte, so sizeof(int4b_t) is 1 here and a
// LocalTensor<int4b_t> counts BYTES (GetSize() = bytes, as sizeof says), while the API's element
// counts stay 4-bit elements: LocalTensor(pos, addr, size) and the tensors' operator[] take
// them (tensor.h), the ops that take int4b_t tensors (Cast, vector_basic.h; Mmad, LoadData of
// cube_ops.h, whose 512-byte fractals are 16 x 64 elements) address nibbles and allow
// 2 x GetSize() elements. A scalar int4b_t holds one value in the low nibble of its byte.
#pragma once

#include <cstdint>

#include "npusim/ascendc/block_context.h"

namespace AscendC {

struct int4b_t {
  std::uint8_t storage = 0;  // the value's two's-complement nibble in bits 0..3

  int4b_t() = default;
  /// Saturates to -8..7.
  constexpr explicit int4b_t(int v)
      : storage(static_cast<std::uint8_t>((v < -8 ? -8 : v > 7 ? 7 : v) & 0xf)) {}
  constexpr operator int() const { return (storage & 0x8) != 0 ? int(storage) - 16 : storage; }
  constexpr explicit operator float() const { return static_cast<float>(static_cast<int>(*this)); }
};

}  // namespace AscendC

namespace npusim::ascendc {

template <class T>
struct IsInt4 {
  static constexpr bool value = false;
};
template <>
struct IsInt4<AscendC::int4b_t> {
  static constexpr bool value = true;
};

/// Bits one element of T occupies in local memory.
template <class T>
constexpr unsigned element_bits() {
  return IsInt4<T>::value ? 4u : static_cast<unsigned>(sizeof(T) * 8);
}

/// Element i of a packed int4b_t array (sign-extended).
NPUSIM_TWIN_FN inline int load_int4(const void* base, std::uint64_t i) {
  const std::uint8_t byte = static_cast<const std::uint8_t*>(base)[i / 2];
  const int nibble = (i % 2 == 0) ? (byte & 0xf) : (byte >> 4);
  return (nibble & 0x8) != 0 ? nibble - 16 : nibble;
}

/// Stores v (already -8..7) as element i of a packed int4b_t array.
NPUSIM_TWIN_FN inline void store_int4(void* base, std::uint64_t i, int v) {
  std::uint8_t& byte = static_cast<std::uint8_t*>(base)[i / 2];
  const auto nibble = static_cast<std::uint8_t>(v & 0xf);
  byte = (i % 2 == 0) ? static_cast<std::uint8_t>((byte & 0xf0) | nibble)
                      : static_cast<std::uint8_t>((byte & 0x0f) | (nibble << 4));
}

}  // namespace npusim::ascendc
