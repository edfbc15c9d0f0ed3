// SPDX-License-Identifier: Apache-2.0
// ListTensorDesc and TensorDesc of the Ascend C twin (kernel_operator_list_tensor_intf.h): a
// kernel reads a list of tensors that the host packed into one GM block of 64-bit words:
//   word 0            ptrOffset: the byte offset of the data-pointer array from the block start;
//   words 1..         one descriptor per tensor: a word holding dim (low 32 bits) and index (high
//                     32 bits), then dim shape words;
//   at ptrOffset      one data pointer per tensor.
// Each word the kernel reads is a scalar GM load (GlobalTensor::GetValue: an S-pipe
// instruction). A malformed block (a descriptor running past ptrOffset, an index past the list,
// a length or pointer count that disagrees with the one given) fails the kernel.
#pragma once

#include <cstdint>

#include "npusim/ascendc/tensor.h"

namespace AscendC {

template <class T>
class TensorDesc {
 public:
  void SetShapeAddr(std::uint64_t* shapePtr) { shape_ = shapePtr; }
  std::uint64_t GetDim() const { return dim_; }
  std::uint64_t GetIndex() const { return index_; }
  std::uint64_t GetShape(std::uint32_t offset) const {
    if (shape_ == nullptr || offset >= dim_)
      npusim::ascendc::fail("TensorDesc::GetShape", "dimension %u of a %llu-dimensional tensor",
                            offset, static_cast<unsigned long long>(dim_));
    return shape_[offset];
  }
  T* GetDataPtr() const { return data_; }
  GlobalTensor<T> GetDataObj() const {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(data_);
    return g;
  }

  // ---- twin internals (ListTensorDesc::GetDesc fills them) ----
  std::uint64_t* twin_shape() const { return shape_; }
  void twin_set(std::uint64_t dim, std::uint64_t index, T* data) {
    dim_ = dim;
    index_ = index;
    data_ = data;
  }

 private:
  std::uint64_t* shape_ = nullptr;
  std::uint64_t dim_ = 0;
  std::uint64_t index_ = 0;
  T* data_ = nullptr;
};

class ListTensorDesc {
 public:
  static constexpr std::uint32_t kUnchecked = 0xffffffffu;

  ListTensorDesc() = default;
  explicit ListTensorDesc(__gm__ void* data, std::uint32_t length = kUnchecked,
                          std::uint32_t shapeSize = kUnchecked) {
    Init(data, length, shapeSize);
  }

  /// Reads the header and counts the descriptors; length (bytes) and shapeSize (pointers) are
  /// checked when given.
  void Init(__gm__ void* data, std::uint32_t length = kUnchecked,
            std::uint32_t shapeSize = kUnchecked) {
    words_.SetGlobalBuffer(static_cast<__gm__ std::uint64_t*>(data));
    const std::uint64_t ptr_offset = words_.GetValue(0);
    if (ptr_offset % 8 != 0 || ptr_offset < 8)
      npusim::ascendc::fail("ListTensorDesc", "pointer offset %llu is not a word offset past 0",
                            static_cast<unsigned long long>(ptr_offset));
    ptr_word_ = ptr_offset / 8;
    count_ = 0;
    for (std::uint64_t w = 1; w < ptr_word_; ++count_) w += 1 + dim_at(w);
    if (shapeSize != kUnchecked && shapeSize != count_)
      npusim::ascendc::fail("ListTensorDesc", "%u data pointers given, the list holds %u",
                            shapeSize, count_);
    if (length != kUnchecked && length != ptr_offset + 8ull * count_)
      npusim::ascendc::fail("ListTensorDesc", "length %u bytes, the list takes %llu", length,
                            static_cast<unsigned long long>(ptr_offset + 8ull * count_));
  }

  std::uint32_t GetSize() const { return count_; }

  template <class T>
  T* GetDataPtr(std::uint32_t index) const {
    check(index, "ListTensorDesc::GetDataPtr");
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(words_.GetValue(ptr_word_ + index)));
  }

  /// Fills `desc` with tensor `index`'s dim, index, shape (into its SetShapeAddr buffer) and
  /// data pointer.
  template <class T>
  void GetDesc(TensorDesc<T>& desc, std::uint32_t index) const {
    check(index, "ListTensorDesc::GetDesc");
    if (desc.twin_shape() == nullptr)
      npusim::ascendc::fail("ListTensorDesc::GetDesc",
                            "the TensorDesc has no shape buffer "
                            "(SetShapeAddr)");
    std::uint64_t w = 1;
    for (std::uint32_t i = 0; i < index; ++i) w += 1 + dim_at(w);
    const std::uint64_t head = words_.GetValue(w);
    const std::uint64_t dim = head & 0xffffffffu;
    for (std::uint64_t d = 0; d < dim; ++d) desc.twin_shape()[d] = words_.GetValue(w + 1 + d);
    desc.twin_set(dim, head >> 32, GetDataPtr<T>(index));
  }

 private:
  // The dimension count of the descriptor at word w (which must end before the pointers).
  std::uint64_t dim_at(std::uint64_t w) const {
    const std::uint64_t dim = words_.GetValue(w) & 0xffffffffu;
    if (w + 1 + dim > ptr_word_)
      npusim::ascendc::fail("ListTensorDesc",
                            "the descriptor at word %llu runs past the pointer "
                            "array (word %llu)",
                            static_cast<unsigned long long>(w),
                            static_cast<unsigned long long>(ptr_word_));
    return dim;
  }
  void check(std::uint32_t index, const char* op) const {
    if (index >= count_) npusim::ascendc::fail(op, "index %u of a %u-tensor list", index, count_);
  }

  GlobalTensor<std::uint64_t> words_;
  std::uint64_t ptr_word_ = 0;
  std::uint32_t count_ = 0;
};

}  // namespace AscendC
