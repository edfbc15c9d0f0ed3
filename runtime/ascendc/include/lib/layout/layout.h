// SPDX-License-Identifier: Apache-2.0
// The Layout helper of the Ascend C twin, as far as the high-level APIs that take one need it
// (TransData, lib/transform/trans_data.h): MakeShape / MakeStride build tuples of extents and
// strides, MakeLayout pairs them; GetShape / GetStride give them back and Get<i>(tuple) reads
// one. An empty stride means the packed (row-major) layout. Coord / MakeCoord hold a coordinate;
// a Layout called with one (layout(coord), Crd2Idx(coord, layout)) gives its index
// sum(c_i * s_i); a single integer coordinate is first spread over the shape, the first extent
// varying fastest (c_0 = c % d_0, c_1 = c / d_0 % d_1, ...). No instruction is recorded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
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

template <class... Ts>
struct Coord : std::tuple<Ts...> {
  using std::tuple<Ts...>::tuple;
  static constexpr std::size_t kRank = sizeof...(Ts);
};

template <class... Ts>
inline Coord<Ts...> MakeCoord(const Ts&... c) {
  return Coord<Ts...>(c...);
}

namespace layout_detail {

template <class T>
struct RankOf : std::integral_constant<std::size_t, 0> {};
template <class... Ts>
struct RankOf<Shape<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <class... Ts>
struct RankOf<Stride<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};
template <class... Ts>
struct RankOf<Coord<Ts...>> : std::integral_constant<std::size_t, sizeof...(Ts)> {};

template <class C, class D, std::size_t... kI>
std::int64_t dot(const C& coord, const D& stride, std::index_sequence<kI...>) {
  return (std::int64_t{0} + ... +
          (static_cast<std::int64_t>(std::get<kI>(coord)) *
           static_cast<std::int64_t>(std::get<kI>(stride))));
}

template <class S, class D, std::size_t... kI>
std::int64_t spread(std::int64_t c, const S& shape, const D& stride, std::index_sequence<kI...>) {
  std::int64_t idx = 0;
  auto one = [&](std::int64_t extent, std::int64_t step) {
    const std::int64_t e = extent > 0 ? extent : 1;
    idx += (c % e) * step;
    c /= e;
  };
  (one(static_cast<std::int64_t>(std::get<kI>(shape)),
       static_cast<std::int64_t>(std::get<kI>(stride))),
   ...);
  return idx;
}

}  // namespace layout_detail

template <class S, class D>
class Layout {
 public:
  Layout(const S& shape, const D& stride) : shape_(shape), stride_(stride) {}
  const S& GetShape() const { return shape_; }
  const D& GetStride() const { return stride_; }

  /// The index of a coordinate (Crd2Idx): a Coord of the layout's rank, or one integer.
  template <class C>
  std::int64_t operator()(const C& coord) const {
    constexpr std::size_t kRank = layout_detail::RankOf<D>::value;
    if constexpr (std::is_integral_v<C>) {
      return layout_detail::spread(static_cast<std::int64_t>(coord), shape_, stride_,
                                   std::make_index_sequence<kRank>{});
    } else {
      static_assert(layout_detail::RankOf<C>::value == kRank,
                    "Layout(coord): the coordinate needs the layout's rank");
      return layout_detail::dot(coord, stride_, std::make_index_sequence<kRank>{});
    }
  }

 private:
  S shape_;
  D stride_;
};

template <class S, class D>
inline Layout<S, D> MakeLayout(const S& shape, const D& stride) {
  return Layout<S, D>(shape, stride);
}

template <class C, class S, class D>
inline std::int64_t Crd2Idx(const C& coord, const Layout<S, D>& layout) {
  return layout(coord);
}

template <std::size_t kI, class... Ts>
inline const auto& Get(const Shape<Ts...>& s) {
  return std::get<kI>(static_cast<const std::tuple<Ts...>&>(s));
}

}  // namespace AscendC
