// SPDX-License-Identifier: Apache-2.0
// The operator library's AI CPU kernels: host C++ run as AI CPU tasks (runtime/core/aicpu_kernel.h),
// built like user AI CPU kernels (aicpu_kernels.cpp is compiled with -fsanitize-coverage=trace-pc
// and -fsanitize=thread's access hooks) so their basic blocks and device-memory bytes are counted.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/aclnn/meta.h"

namespace npusim::aclnn::cpu {

/// aclnnIndexPutImpl (aclnn_index_put_impl.h). Addrs: in[0..k-1] the index tensors, in[k] values,
/// out[0] selfRef.
struct IndexPutParams {
  int dtype = 0;
  std::vector<std::int64_t> dims;    // selfRef's shape (the first k are indexed)
  std::vector<bool> index64;         // per index tensor: INT64 (else INT32)
  std::int64_t count = 0;            // elements of each index tensor
  std::int64_t inner = 1;            // product of selfRef.shape[k:]
  int values_mode = 0;               // 0: count x inner values, 1: inner (broadcast), 2: one
  bool accumulate = false;
};

/// Throws std::out_of_range for an index outside its dimension.
void index_put(const IndexPutParams& p, const Addrs& a);

}  // namespace npusim::aclnn::cpu
