// SPDX-License-Identifier: Apache-2.0
// Where a tensor's bytes lie, checked before any operator computes with its shape (issue 23):
//  - at creation (aclCreateTensor / aclInitTensor): the element count, the byte size and the
//    view's extent (offset + the furthest element its strides reach + 1) fit int64, and the
//    extent lies inside the storage shape when one is given; otherwise ACLNN_ERR_PARAM_INVALID
//    (a shape such as [INT64_MAX, 2] never reaches tiling arithmetic that would wrap or divide
//    by zero);
//  - in both phases of an operator: a tensor whose address lies in a runtime allocation must have
//    its extent inside that allocation (ACLNN_ERR_PARAM_INVALID), checked in phase one for the
//    addresses given at creation and again in phase two for the ones the launch uses;
//  - in phase two: device memory of another device than the stream's needs that device to have
//    enabled peer access to it, the rule copies follow (runtime/core/peer.h:
//    ACL_ERROR_RT_PARAM_INVALID).
// Addresses outside every allocation are left to the kernels' global-memory check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/aclnn/meta.h"

namespace npusim::rt {
class Call;
}

namespace npusim::aclnn {

/// Row-major strides of `dims` (aclCreateTensor without strides); ACLNN_ERR_PARAM_INVALID when
/// one overflows int64.
std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& dims);
/// The creation checks above on a described tensor (dims, strides, offset, dtype, storage).
void check_tensor_shape(const aclTensor& t);
/// Bytes from the tensor's data pointer to the end of the furthest element its view reaches
/// (0 for a view without elements); valid after check_tensor_shape.
std::uint64_t extent_bytes(const aclTensor& t);
/// The allocation check above for the tensor's bytes at `data` (nothing when data is NULL).
/// `role` and `index` name the tensor in the message ("input", 0).
void check_in_allocation(rt::Call& c, const aclTensor& t, const void* data, const char* api,
                         const char* role, std::size_t index);
/// The peer-access check above: `device` runs the operator on the tensor at `data`.
void check_reachable(rt::Call& c, const void* data, std::uint32_t device, const char* api);

}  // namespace npusim::aclnn
