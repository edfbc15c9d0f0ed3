// SPDX-License-Identifier: Apache-2.0
// gert's contexts as an operator package's host code sees them: shapes, tensor descriptions,
// attributes and the TilingContext its tiling function fills (tiling data, block count,
// workspace sizes, tiling key). npusim's operator-package runtime (runtime/aclnn/opkg.cpp)
// builds a TilingContext from an aclnn call's tensors and attributes; the layout is this
// header's, shared by the package's tiling library and the runtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "graph/types.h"

namespace fe {
class PlatFormInfos;
}

namespace gert {

class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<std::int64_t> d) : dims_(d) {}
  std::size_t GetDimNum() const { return dims_.size(); }
  std::int64_t GetDim(std::size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
  void SetDimNum(std::size_t n) { dims_.resize(n, 0); }
  void SetDim(std::size_t i, std::int64_t v) { if (i < dims_.size()) dims_[i] = v; }
  Shape& AppendDim(std::int64_t v) { dims_.push_back(v); return *this; }
  bool IsScalar() const { return dims_.empty(); }
  std::int64_t GetShapeSize() const {
    std::int64_t n = 1;
    for (std::int64_t d : dims_) n *= d;
    return n;
  }
  bool operator==(const Shape& o) const { return dims_ == o.dims_; }
  bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

 private:
  std::vector<std::int64_t> dims_;
};

class StorageShape {
 public:
  StorageShape() = default;
  explicit StorageShape(const Shape& s) : origin_(s), storage_(s) {}
  const Shape& GetOriginShape() const { return origin_; }
  const Shape& GetStorageShape() const { return storage_; }
  Shape& MutableOriginShape() { return origin_; }
  Shape& MutableStorageShape() { return storage_; }

 private:
  Shape origin_, storage_;
};

class CompileTimeTensorDesc {
 public:
  CompileTimeTensorDesc() = default;
  CompileTimeTensorDesc(ge::DataType dt, ge::Format f) : dtype_(dt), format_(f) {}
  ge::DataType GetDataType() const { return dtype_; }
  ge::Format GetOriginFormat() const { return format_; }
  ge::Format GetStorageFormat() const { return format_; }
  void SetDataType(ge::DataType dt) { dtype_ = dt; }

 private:
  ge::DataType dtype_ = ge::DT_FLOAT;
  ge::Format format_ = ge::FORMAT_ND;
};

/// A tensor of a tiling context: shape and type; its data is a host copy for value-depend
/// inputs only, else nullptr (as at compile time on CANN).
class Tensor {
 public:
  Tensor() = default;
  Tensor(const StorageShape& s, ge::DataType dt) : shape_(s), dtype_(dt) {}
  std::int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
  const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
  const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
  ge::DataType GetDataType() const { return dtype_; }
  template <typename T>
  const T* GetData() const { return static_cast<const T*>(data_); }
  void SetData(const void* d) { data_ = d; }

 private:
  StorageShape shape_;
  ge::DataType dtype_ = ge::DT_FLOAT;
  const void* data_ = nullptr;
};

/// The attributes of a call, in the operator definition's order, each in its C type (float for
/// Float, int64_t for Int, bool for Bool, char[] for String).
class RuntimeAttrs {
 public:
  template <typename T>
  const T* GetAttrPointer(std::size_t i) const {
    return i < attrs_.size() ? reinterpret_cast<const T*>(attrs_[i].data()) : nullptr;
  }
  const char* GetStr(std::size_t i) const { return GetAttrPointer<char>(i); }
  const float* GetFloat(std::size_t i) const { return GetAttrPointer<float>(i); }
  const std::int64_t* GetInt(std::size_t i) const { return GetAttrPointer<std::int64_t>(i); }
  const bool* GetBool(std::size_t i) const { return GetAttrPointer<bool>(i); }
  std::size_t GetAttrNum() const { return attrs_.size(); }
  void Append(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    attrs_.emplace_back(b, b + n);
  }

 private:
  std::vector<std::vector<unsigned char>> attrs_;
};

class TilingData {
 public:
  explicit TilingData(std::size_t capacity) : buf_(capacity) {}
  void* GetData() { return buf_.data(); }
  std::size_t GetCapacity() const { return buf_.size(); }
  std::size_t GetDataSize() const { return size_; }
  void SetDataSize(std::size_t n) { size_ = n; }

 private:
  std::vector<unsigned char> buf_;
  std::size_t size_ = 0;
};

class TilingContext {
 public:
  static constexpr std::size_t kTilingCapacity = 64 * 1024;
  TilingContext() : tiling_(kTilingCapacity) {}

  const StorageShape* GetInputShape(std::size_t i) const { return at(in_shapes_, i); }
  const StorageShape* GetOutputShape(std::size_t i) const { return at(out_shapes_, i); }
  const CompileTimeTensorDesc* GetInputDesc(std::size_t i) const { return at(in_desc_, i); }
  const CompileTimeTensorDesc* GetOutputDesc(std::size_t i) const { return at(out_desc_, i); }
  const Tensor* GetInputTensor(std::size_t i) const { return at(in_tensors_, i); }
  const Tensor* GetOptionalInputTensor(std::size_t i) const { return at(in_tensors_, i); }
  const RuntimeAttrs* GetAttrs() const { return &attrs_; }
  std::size_t GetComputeNodeInputNum() const { return in_desc_.size(); }
  const char* GetNodeType() const { return op_type_.c_str(); }
  const char* GetNodeName() const { return op_type_.c_str(); }

  /// The tiling data as the kernel's T (its size becomes the tiling data's size).
  template <typename T>
  T* GetTilingData() {
    static_assert(sizeof(T) <= kTilingCapacity, "tiling data larger than npusim's 64 KiB");
    tiling_.SetDataSize(sizeof(T));
    return static_cast<T*>(tiling_.GetData());
  }
  TilingData* GetRawTilingData() { return &tiling_; }
  ge::graphStatus SetBlockDim(std::uint32_t n) { block_dim_ = n; return ge::GRAPH_SUCCESS; }
  ge::graphStatus SetSimdNumBlocks(std::uint32_t n) { return SetBlockDim(n); }
  std::uint32_t GetBlockDim() const { return block_dim_; }
  ge::graphStatus SetTilingKey(std::uint64_t k) { tiling_key_ = k; return ge::GRAPH_SUCCESS; }
  std::uint64_t GetTilingKey() const { return tiling_key_; }
  ge::graphStatus SetScheduleMode(std::uint32_t m) { schedule_mode_ = m; return ge::GRAPH_SUCCESS; }
  /// n workspace sizes (bytes); the operator's workspace is their sum.
  std::size_t* GetWorkspaceSizes(std::size_t n) {
    workspaces_.assign(n, 0);
    return workspaces_.data();
  }
  std::size_t GetWorkspaceNum() const { return workspaces_.size(); }
  fe::PlatFormInfos* GetPlatformInfo() const { return nullptr; }

  // Filled by the runtime before the tiling function runs.
  std::string op_type_;
  std::vector<StorageShape> in_shapes_, out_shapes_;
  std::vector<CompileTimeTensorDesc> in_desc_, out_desc_;
  std::vector<Tensor> in_tensors_;
  RuntimeAttrs attrs_;
  // Read by the runtime after it.
  TilingData tiling_;
  std::uint32_t block_dim_ = 0;
  std::uint64_t tiling_key_ = 0;
  std::uint32_t schedule_mode_ = 0;
  std::vector<std::size_t> workspaces_;

 private:
  template <typename T>
  static const T* at(const std::vector<T>& v, std::size_t i) {
    return i < v.size() ? &v[i] : nullptr;
  }
};

class InferShapeContext {
 public:
  const Shape* GetInputShape(std::size_t i) const { return i < in_.size() ? &in_[i] : nullptr; }
  Shape* GetOutputShape(std::size_t i) { return i < out_.size() ? &out_[i] : nullptr; }
  const RuntimeAttrs* GetAttrs() const { return &attrs_; }
  std::vector<Shape> in_, out_;
  RuntimeAttrs attrs_;
};

class InferDataTypeContext {
 public:
  ge::DataType GetInputDataType(std::size_t i) const {
    return i < in_.size() ? in_[i] : ge::DT_UNDEFINED;
  }
  ge::graphStatus SetOutputDataType(std::size_t i, ge::DataType dt) {
    if (i >= out_.size()) return ge::GRAPH_FAILED;
    out_[i] = dt;
    return ge::GRAPH_SUCCESS;
  }
  std::vector<ge::DataType> in_, out_;
};

class InferShapeRangeContext;
class TilingParseContext;

}  // namespace gert
