// SPDX-License-Identifier: Apache-2.0
// The operator library's objects (aclnn/acl_meta.h): what an aclTensor, aclScalar, array, list
// and aclOpExecutor hold, and the element conversions operators and host references share.
// Plain C++ (no SystemC); every object handed to a caller is registered as live, and every entry
// point checks a handle against that registry before using it (a stale or foreign pointer is
// ACLNN_ERR_PARAM_INVALID, never a crash).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclTensor {
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> strides;  // in elements
  std::int64_t offset = 0;            // in elements
  int dtype = 0;
  int format = 2;  // ACL_FORMAT_ND
  std::vector<std::int64_t> storage;
  void* data = nullptr;

  std::int64_t numel() const {
    std::int64_t n = 1;
    for (std::int64_t d : dims) n *= d;
    return n;
  }
  /// Row-major without gaps (strides as aclCreateTensor derives them when given none).
  bool contiguous() const;
  /// The address of element (0, 0, ...): data + offset elements.
  std::uint8_t* addr() const;
};

struct aclScalar {
  int dtype = 0;
  long double value = 0;
};

struct aclIntArray {
  std::vector<std::int64_t> values;
};
struct aclFloatArray {
  std::vector<float> values;
};
struct aclBoolArray {
  std::vector<bool> values;
};
struct aclTensorList {
  std::vector<aclTensor*> tensors;  // owned
};
struct aclScalarList {
  std::vector<aclScalar*> scalars;  // owned
};

namespace npusim::aclnn {

/// Bytes per element of an operator data type; 0 for types the library does not take.
std::size_t element_size(int dtype);
/// "FLOAT16", "FLOAT", ... for messages.
std::string dtype_name(int dtype);
/// Element `index` of an array of `dtype` at `base`, as long double (host references, scalars).
long double load(int dtype, const void* base, std::int64_t index);
/// Stores `v` converted to `dtype` (floats round to nearest even; integers saturate, NaN → 0).
void store(int dtype, void* base, std::int64_t index, long double v);

/// The live-object registry (under the API lock).
void make_live(const void* object);
bool is_live(const void* object);
bool kill(const void* object);  // false when it was not live

/// The device addresses of one run of an executor: its inputs and outputs (at their view
/// offsets; nullptr for an optional tensor not given) and its workspace.
struct Addrs {
  std::vector<std::uint8_t*> in, out;
  std::uint8_t* workspace = nullptr;
};

/// One kernel launch of an operator.
/// kAiCpu: an AI CPU task (an AI CPU kernel of the library, runtime/aclnn/aicpu_kernels.h), not
/// an AI Core kernel; its body runs once.
enum class Core : std::uint8_t { kVector, kCube, kMix, kAiCpu };
struct Launch {
  std::string name;                // the kernel's name (timeline, op_summary)
  const void* identity = nullptr;  // the kernel function
  std::uint32_t block_dim = 1;
  Core core = Core::kVector;
  /// Runs one block (block_idx / block_num are set).
  std::function<void(const Addrs&)> body;
};

}  // namespace npusim::aclnn

/// What GetWorkspaceSize builds and the second phase launches: copies of the operator's tensors
/// (nullptr data for an optional one not given; their addresses are resolved at each launch), its
/// kernel launches in order, the workspace it needs.
struct aclOpExecutor {
  std::string op;                          // "Add", "Matmul", ...
  std::deque<aclTensor> inputs, outputs;   // stable addresses
  std::vector<npusim::aclnn::Launch> launches;
  std::uint64_t workspace = 0;
  bool repeatable = false;
  std::uint64_t serial = 0;  // unique per executor in the process (the trace memo's key)
  std::shared_ptr<const void> keep;  // anything the bodies need kept alive
};
