// SPDX-License-Identifier: Apache-2.0
// The Layout helper of the Ascend C twin, as far as the high-level APIs that take one need it
// (TransData, lib/transform/trans_data.h): MakeShape / MakeStride build tuples of extents and
// strides, MakeLayout pairs them; GetShape / GetStride give them back and Get<i>(tuple) reads
// one. An empty stride means the packed (row-major) layout. No instruction is recorded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

namespace AscendC {

template <class... Ts>
struct Shape : std::tuple<Ts...> {
  using std::tuple<Ts...>::tuple;
  static constexpr std::size_t kRank = sizeof...(Ts);
};

template <class... Ts>
struct Stride : std::tuple<Ts...> {
  using std::tuple<Ts...>::tuple;
  static constexpr std::size_t kRank = sizeof...(Ts);
};

template <class... Ts>
inline Shape<Ts...> MakeShape(const Ts&... extents) {
  return Shape<Ts...>(extents...);
}

template <class... Ts>
inline Stride<Ts...> MakeStride(const Ts&... strides) {
  return Stride<Ts...>(strides...);
}

template <class S, class D>
class Layout {
 public:
  Layout(const S& shape, const D& stride) : shape_(shape), stride_(stride) {}
  const S& GetShape() const { return shape_; }
  const D& GetStride() const { return stride_; }

 private:
  S shape_;
  D stride_;
};

template <class S, class D>
inline Layout<S, D> MakeLayout(const S& shape, const D& stride) {
  return Layout<S, D>(shape, stride);
}

template <std::size_t kI, class... Ts>
inline const auto& Get(const Shape<Ts...>& s) {
  return std::get<kI>(static_cast<const std::tuple<Ts...>&>(s));
}

}  // namespace AscendC
