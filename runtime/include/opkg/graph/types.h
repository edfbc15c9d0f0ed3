// SPDX-License-Identifier: Apache-2.0
// graph/types.h: the graph engine's basic types as operator packages use them (ge::DataType with
// CANN's numbering, which aclDataType shares; ge::Format; graphStatus; AscendString).
#pragma once

#include <cstdint>
#include <string>

namespace ge {

using graphStatus = std::uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFFU;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649U;

enum DataType {
  DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6,
  DT_UINT16 = 7, DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12,
  DT_STRING = 13, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_BF16 = 27, DT_INT4 = 29,
  DT_UNDEFINED = 28
};

enum Format { FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3,
              FORMAT_FRACTAL_Z = 4, FORMAT_FRACTAL_NZ = 29, FORMAT_NCDHW = 30,
              FORMAT_NDHWC = 27, FORMAT_RESERVED = 40 };

class AscendString {
 public:
  AscendString() = default;
  AscendString(const char* s) : s_(s != nullptr ? s : "") {}  // NOLINT: implicit as in CANN
  const char* GetString() const { return s_.c_str(); }
  std::size_t GetLength() const { return s_.size(); }
  bool operator<(const AscendString& o) const { return s_ < o.s_; }
  bool operator==(const AscendString& o) const { return s_ == o.s_; }

 private:
  std::string s_;
};

}  // namespace ge
