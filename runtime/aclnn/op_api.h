// SPDX-License-Identifier: Apache-2.0
// How an operator is written (each operator family is one host file plus one kernel file):
//
//   aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
//                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
//     return npusim::aclnn::prepare("aclnnReluGetWorkspaceSize", "Relu", workspaceSize, executor,
//                                   [&](npusim::aclnn::Plan& p) {
//       const aclTensor& x = p.input(self, "self");      // NULL / stale handle → documented code
//       const aclTensor& y = p.output(out, "out");
//       p.require_dtype(x, {ACL_FLOAT, ACL_FLOAT16}, "self");
//       p.require(x.dims == y.dims, "out must have self's shape");
//       const Tiling t = ...;                              // from p.vector_cores(), p.ub_bytes()
//       p.launch("Relu", reinterpret_cast<const void*>(&relu_kernel), t.blocks, Core::kVector,
//                [t](const Addrs& a) { relu_kernel(a.in[0], a.out[0], t); });
//     });
//   }
//   aclnnStatus aclnnRelu(void* ws, uint64_t size, aclOpExecutor* ex, aclrtStream stream) {
//     return npusim::aclnn::execute("aclnnRelu", ws, size, ex, stream);
//   }
//
// Kernel bodies get the device addresses (Addrs) the second phase resolved: tensor i of the
// operator's inputs / outputs in p.input()/p.output() call order, at its view offset. Addresses
// are fixed at launch, as the hardware's kernel arguments are (a repeatable executor's
// aclSetInputTensorAddr changes later launches only). The kernel (relu_kernel) is an Ascend C
// kernel on the twin (kernel_operator.h), compiled with -fsanitize-coverage=trace-pc
// (runtime/aclnn/CMakeLists.txt, the KERNELS list), so its simulated time comes from the pipe
// model like any user kernel's.
//
// Errors: a NULL required argument is ACLNN_ERR_PARAM_NULLPTR; a stale handle, a type or shape the
// operator does not take ACLNN_ERR_PARAM_INVALID (require()); the second phase returns the
// launch's aclError (stream not in the current context...) or ACLNN_ERR_PARAM_NULLPTR /
// ACLNN_ERR_PARAM_INVALID for its own arguments. Every failure also logs the reason.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "runtime/aclnn/meta.h"
#include "runtime/core/function_ref.h"

namespace npusim::models {
struct ChipConfig;
}

namespace npusim::aclnn {

class Plan {
 public:
  Plan(aclOpExecutor& ex, const models::ChipConfig& cfg) : ex_(ex), cfg_(cfg) {}

  /// A required tensor input / output (counted for aclSetInputTensorAddr /
  /// aclSetOutputTensorAddr in call order).
  const aclTensor& input(const aclTensor* t, const char* what);
  const aclTensor& output(const aclTensor* t, const char* what);
  /// An optional input: nullptr when `t` is NULL (still counted when given).
  const aclTensor* optional_input(const aclTensor* t, const char* what);
  const aclTensor* optional_output(const aclTensor* t, const char* what);
  /// A scalar's value (NULL → ACLNN_ERR_PARAM_NULLPTR) and its type.
  long double scalar(const aclScalar* s, const char* what);
  int scalar_type(const aclScalar* s, const char* what);
  std::vector<std::int64_t> int_array(const aclIntArray* a, const char* what);
  std::vector<bool> bool_array(const aclBoolArray* a, const char* what);
  /// The tensors of a list, as inputs in order.
  std::vector<const aclTensor*> input_list(const aclTensorList* l, const char* what);

  /// ACLNN_ERR_PARAM_INVALID with `why` unless `ok`.
  void require(bool ok, const std::string& why) const;
  void require_dtype(const aclTensor& t, std::initializer_list<int> allowed,
                     const char* what) const;
  void require_shape(const aclTensor& t, const std::vector<std::int64_t>& dims,
                     const char* what) const;
  void require_contiguous(const aclTensor& t, const char* what) const;

  /// The current device's cores and per-core buffers (for tiling).
  std::uint32_t vector_cores() const;  // AIV cores (split chips) or AI Cores (coupled)
  std::uint32_t cube_cores() const;
  std::uint64_t ub_bytes() const;
  std::uint64_t l1_bytes() const;
  std::uint64_t l0a_bytes() const;
  std::uint64_t l0b_bytes() const;
  std::uint64_t l0c_bytes() const;

  /// Device workspace the launches need (aclnnXxx's workspace argument).
  void set_workspace(std::uint64_t bytes) { ex_.workspace = bytes; }
  /// Queues one kernel launch (launches run in order on the stream).
  void launch(std::string name, const void* kernel, std::uint32_t block_dim, Core core,
              std::function<void(const Addrs&)> body);

  aclOpExecutor& executor() { return ex_; }

 private:
  aclOpExecutor& ex_;
  const models::ChipConfig& cfg_;
};

/// First phase: validates and plans through `build`, then returns the executor and workspace
/// size. `api` names the call in logs; `op` is the operator name (the executor's).
aclnnStatus prepare(const char* api, const char* op, std::uint64_t* workspace_size,
                    aclOpExecutor** executor, rt::FunctionRef<void(Plan&)> build);

/// Second phase: launches the executor's kernels on `stream` (consumes a single-use executor).
aclnnStatus execute(const char* api, void* workspace, std::uint64_t workspace_size,
                    aclOpExecutor* executor, aclrtStream stream);

/// Even split of `total` items over at most `max_blocks` blocks, each a multiple of `align`
/// items (except the last): blocks used and items per block.
struct Split {
  std::uint32_t blocks = 1;
  std::int64_t per_block = 0;
};
Split split_even(std::int64_t total, std::uint32_t max_blocks, std::int64_t align);

}  // namespace npusim::aclnn
