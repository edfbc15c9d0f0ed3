// SPDX-License-Identifier: Apache-2.0
// The operator library's AI CPU kernels (aicpu_kernels.h). Built with -fsanitize-coverage=trace-pc
// and -fsanitize=thread (access hooks only, runtime/ascendc/memory_counter.cpp): the AI CPU model
// times them from their counted basic blocks and device-memory bytes.
#include "runtime/aclnn/aicpu_kernels.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "acl/acl_base.h"

namespace npusim::aclnn::cpu {
namespace {

template <class T>
void put(T* self, std::int64_t at, const T* values, std::int64_t from, bool accumulate) {
  if (accumulate) {
    self[at] = static_cast<T>(self[at] + values[from]);
  } else {
    self[at] = values[from];
  }
}

void put_element(const IndexPutParams& p, std::uint8_t* self, std::int64_t at,
                 const std::uint8_t* values, std::int64_t from) {
  switch (p.dtype) {
    case ACL_FLOAT:
      put(reinterpret_cast<float*>(self), at, reinterpret_cast<const float*>(values), from,
          p.accumulate);
      break;
    case ACL_DOUBLE:
      put(reinterpret_cast<double*>(self), at, reinterpret_cast<const double*>(values), from,
          p.accumulate);
      break;
    case ACL_INT8:
      put(reinterpret_cast<std::int8_t*>(self), at, reinterpret_cast<const std::int8_t*>(values),
          from, p.accumulate);
      break;
    case ACL_UINT8:
      put(self, at, values, from, p.accumulate);
      break;
    case ACL_INT16:
      put(reinterpret_cast<std::int16_t*>(self), at,
          reinterpret_cast<const std::int16_t*>(values), from, p.accumulate);
      break;
    case ACL_INT32:
      put(reinterpret_cast<std::int32_t*>(self), at,
          reinterpret_cast<const std::int32_t*>(values), from, p.accumulate);
      break;
    case ACL_INT64:
      put(reinterpret_cast<std::int64_t*>(self), at,
          reinterpret_cast<const std::int64_t*>(values), from, p.accumulate);
      break;
    case ACL_BOOL:  // accumulate: logical or
      self[at] = static_cast<std::uint8_t>(p.accumulate ? (self[at] | values[from]) != 0
                                                        : values[from] != 0);
      break;
    default: {  // FLOAT16, BF16: 2-byte elements
      auto* s = reinterpret_cast<std::uint16_t*>(self);
      const auto* v = reinterpret_cast<const std::uint16_t*>(values);
      if (!p.accumulate) {
        s[at] = v[from];
      } else {
        store(p.dtype, self, at, load(p.dtype, self, at) + load(p.dtype, values, from));
      }
      break;
    }
  }
}

}  // namespace

void index_put(const IndexPutParams& p, const Addrs& a) {
  const std::size_t k = p.index64.size();
  std::uint8_t* self = a.out[0];
  const std::uint8_t* values = a.in[k];
  for (std::int64_t n = 0; n < p.count; ++n) {
    std::int64_t row = 0;
    for (std::size_t j = 0; j < k; ++j) {
      std::int64_t i = p.index64[j] ? reinterpret_cast<const std::int64_t*>(a.in[j])[n]
                                    : reinterpret_cast<const std::int32_t*>(a.in[j])[n];
      if (i < 0) i += p.dims[j];
      if (i < 0 || i >= p.dims[j]) {
        throw std::out_of_range("IndexPut: index " + std::to_string(i) + " of indices[" +
                                std::to_string(j) + "] is outside dimension " +
                                std::to_string(j) + " of size " + std::to_string(p.dims[j]));
      }
      row = row * p.dims[j] + i;
    }
    for (std::int64_t r = 0; r < p.inner; ++r) {
      const std::int64_t from = p.values_mode == 0 ? n * p.inner + r : p.values_mode == 1 ? r : 0;
      put_element(p, self, row * p.inner + r, values, from);
    }
  }
}

}  // namespace npusim::aclnn::cpu
