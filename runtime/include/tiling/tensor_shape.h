/*
 * SPDX-License-Identifier: Apache-2.0
 * npusim's tiling/tensor_shape.h: the shape the host tiling functions of the Ascend C high-level
 * APIs take. AscendC::TensorShape is ge::Shape (dimensions as int64_t; GetShapeSize is their
 * product, 0 for no dimension or a negative one). Header only.
 */
#ifndef NPUSIM_TILING_TENSOR_SHAPE_H_
#define NPUSIM_TILING_TENSOR_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ge {

#ifndef NPUSIM_GE_SHAPE_DEFINED
#define NPUSIM_GE_SHAPE_DEFINED
class Shape {
 public:
  Shape() = default;
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}

  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
  std::vector<int64_t> GetDims() const { return dims_; }
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    int64_t n = 1;
    for (int64_t d : dims_) {
      if (d < 0) return 0;
      n *= d;
    }
    return n;
  }

 private:
  std::vector<int64_t> dims_;
};
#endif

}  // namespace ge

namespace AscendC {
using TensorShape = ge::Shape;
}  // namespace AscendC

#endif  // NPUSIM_TILING_TENSOR_SHAPE_H_
