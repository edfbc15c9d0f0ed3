// SPDX-License-Identifier: Apache-2.0
// The Matmul high-level API's policy template argument (lib/matmul_intf.h): MATMUL_POLICY_DEFAULT_OF
// and the policies of AscendC::Impl::Detail that npusim's Matmul knows:
//   MatmulPolicy            every base block of the core's part (the default)
//   NBuffer33MatmulPolicy   the same blocks (an L1 schedule on the device: same instructions here)
//   TrianUpperMatmulPolicy  only the blocks on or above the block diagonal (block row <= column)
//   TrianLowerMatmulPolicy  only the blocks on or below it (block row >= column)
// and GetMmDstType<T>::Type, the L0C type of input element type T.
#pragma once

#include <cstdint>
#include <type_traits>

namespace npusim::ascendc::mm {

enum class Policy : std::uint8_t { kAll, kUpper, kLower };

/// Whether base block (m, n) is computed under the policy.
constexpr bool computes(Policy p, int m, int n) {
  return p == Policy::kAll || (p == Policy::kUpper ? m <= n : m >= n);
}

}  // namespace npusim::ascendc::mm

namespace AscendC::Impl::Detail {

template <const auto& MM_CFG, class... Rest>
struct MatmulPolicy {
  static constexpr npusim::ascendc::mm::Policy kPolicy = npusim::ascendc::mm::Policy::kAll;
};
template <const auto& MM_CFG, class... Rest>
struct NBuffer33MatmulPolicy {
  static constexpr npusim::ascendc::mm::Policy kPolicy = npusim::ascendc::mm::Policy::kAll;
};
template <const auto& MM_CFG, class... Rest>
struct TrianUpperMatmulPolicy {
  static constexpr npusim::ascendc::mm::Policy kPolicy = npusim::ascendc::mm::Policy::kUpper;
};
template <const auto& MM_CFG, class... Rest>
struct TrianLowerMatmulPolicy {
  static constexpr npusim::ascendc::mm::Policy kPolicy = npusim::ascendc::mm::Policy::kLower;
};

}  // namespace AscendC::Impl::Detail

namespace AscendC {

/// The accumulator (L0C) type for inputs of type T: int32 for 8-bit inputs, else float.
template <class T>
struct GetMmDstType {
  using Type = std::conditional_t<sizeof(T) == 1, std::int32_t, float>;
};

}  // namespace AscendC

#define MATMUL_POLICY_DEFAULT_OF(DEFAULT) \
  template <const auto&, class...> class MATMUL_POLICY = ::AscendC::Impl::Detail::DEFAULT
#define NPUSIM_MATMUL_POLICY_PARAM MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)
