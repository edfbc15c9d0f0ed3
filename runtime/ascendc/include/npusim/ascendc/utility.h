// SPDX-License-Identifier: Apache-2.0
// Ascend C's compile-time helpers of the twin: the block and repeat sizes of the vector unit and
// the cube's fractal, and the type traits kernels branch on (IsSameType, Conditional).
//
// These are figures of the Atlas A2/A3 AI Core (a 32-byte data block, a 256-byte vector repeat,
// 16x16 cube fractals), the architectures the twin models; they cost nothing at run time.
#pragma once

#include <cstdint>
#include <type_traits>

namespace AscendC {

/// Bytes in one data block: the unit of UB addressing and of DataCopy block counts.
inline constexpr std::int32_t ONE_BLK_SIZE = 32;
/// Bytes one vector repeat processes (8 data blocks).
inline constexpr std::int32_t ONE_REPEAT_BYTE_SIZE = 256;
/// Data blocks in one vector repeat.
inline constexpr std::int32_t DEFAULT_BLK_NUM = 8;
/// Bytes of the innermost (C0) dimension of an NZ fractal.
inline constexpr std::int32_t DEFAULT_C0_SIZE = 32;
/// Rows (and columns, for 16-bit types) of a cube fractal.
inline constexpr std::int32_t BLOCK_CUBE = 16;
/// Elements of a 16x16 cube fractal.
inline constexpr std::int32_t CUBE_MAX_SIZE = 256;

/// value is true when T and U are the same type (a C++11 trait kernels use in `if constexpr`).
template <class T, class U>
struct IsSameType {
  static constexpr bool value = std::is_same<T, U>::value;
};

/// type is T when kCond holds, else F.
template <bool kCond, class T, class F>
struct Conditional {
  using type = typename std::conditional<kCond, T, F>::type;
};

}  // namespace AscendC
