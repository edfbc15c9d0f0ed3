// SPDX-License-Identifier: Apache-2.0
// Tensor extents, storage and allocation bounds, peer access (see tensor_bounds.h).
#include "runtime/aclnn/tensor_bounds.h"

#include <string>

#include "runtime/core/api_call.h"
#include "runtime/core/errors.h"
#include "runtime/core/memory_registry.h"
#include "runtime/core/peer.h"
#include "runtime/core/runtime.h"

namespace npusim::aclnn {
namespace {

// a * b and a + b for non-negative int64 operands; ACLNN_ERR_PARAM_INVALID on overflow.
std::int64_t mul(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t r = 0;
  rt::require(!__builtin_mul_overflow(a, b, &r), ACLNN_ERR_PARAM_INVALID,
              std::string("the tensor's ") + what + " overflows int64");
  return r;
}
std::int64_t add(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t r = 0;
  rt::require(!__builtin_add_overflow(a, b, &r), ACLNN_ERR_PARAM_INVALID,
              std::string("the tensor's ") + what + " overflows int64");
  return r;
}

// Elements from element 0 of the storage to one past the furthest element the view reaches.
std::int64_t extent_elements(const aclTensor& t) {
  std::int64_t last = t.offset;
  for (std::size_t k = 0; k < t.dims.size(); ++k) {
    if (t.dims[k] == 0) return 0;
    last = add(last, mul(t.dims[k] - 1, t.strides[k], "extent"), "extent");
  }
  return add(last, 1, "extent");
}

std::int64_t product(const std::vector<std::int64_t>& dims, const char* what) {
  std::int64_t n = 1;
  for (std::int64_t d : dims) n = mul(n, d, what);
  return n;
}

}  // namespace

void check_tensor_shape(const aclTensor& t) {
  const auto width = static_cast<std::int64_t>(element_size(t.dtype));
  mul(product(t.dims, "element count"), width, "byte size");
  const std::int64_t extent = extent_elements(t);
  mul(extent, width, "extent in bytes");
  if (t.storage.empty() || extent == 0) return;
  for (std::int64_t d : t.storage) {
    rt::require(d >= 0, ACLNN_ERR_PARAM_INVALID, "a storage dimension is negative");
  }
  const std::int64_t storage = product(t.storage, "storage element count");
  mul(storage, width, "storage byte size");
  rt::require(extent <= storage, ACLNN_ERR_PARAM_INVALID,
              "the view reaches element " + std::to_string(extent - 1) +
                  " (offset and strides) but the storage shape holds " + std::to_string(storage) +
                  " elements");
}

std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> strides(dims.size(), 1);
  for (std::size_t k = dims.size(); k-- > 1;) strides[k - 1] = mul(strides[k], dims[k], "stride");
  return strides;
}

std::uint64_t extent_bytes(const aclTensor& t) {
  return static_cast<std::uint64_t>(extent_elements(t)) * element_size(t.dtype);
}

void check_in_allocation(rt::Call& c, const aclTensor& t, const void* data, const char* api,
                         const char* role, std::size_t index) {
  if (data == nullptr) return;
  const std::uint64_t bytes = extent_bytes(t);
  if (bytes == 0) return;
  const rt::Allocation* a = c.runtime().memory().find(data);
  if (a == nullptr || a->contains(reinterpret_cast<std::uintptr_t>(data), bytes)) return;
  const std::uint64_t room = a->size - (reinterpret_cast<std::uintptr_t>(data) - a->base);
  rt::fail(ACLNN_ERR_PARAM_INVALID,
           std::string(api) + ": " + role + " " + std::to_string(index) + " spans " +
               std::to_string(bytes) + " bytes (shape, strides and offset) but its memory holds " +
               std::to_string(room) + " bytes from its address");
}

void check_reachable(rt::Call& c, const void* data, std::uint32_t device, const char* api) {
  if (data == nullptr) return;
  const rt::Allocation* a = c.runtime().memory().find(data);
  if (a == nullptr || a->kind != rt::MemKind::kDevice || a->device == device) return;
  rt::require_peer_access(c, device, a->device, api);
}

}  // namespace npusim::aclnn
