// SPDX-License-Identifier: Apache-2.0
// The replay's operator table: one entry per trace op type, naming the aclnn operator it calls,
// the inputs/outputs and attributes it takes, and a small function that builds the operator's
// arguments and makes CANN's two-phase call (aclnnXxxGetWorkspaceSize, then aclnnXxx) through a
// Call. The aclnn functions are not linked: the runner resolves them by name at run time
// (dlsym), so an operator the library does not have yet is reported by name, and one that lands
// later is picked up without rebuilding. Their prototypes are declared here from CANN's
// documented signatures (`signature` of each entry; also listed in traces/README.md).
//
// Adding an op type = one entry in op_table.cpp. Plain C++: the ACL headers give the types only.
#ifndef NPUSIM_TOOLS_REPLAY_OP_TABLE_H_
#define NPUSIM_TOOLS_REPLAY_OP_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl_base.h"

// The aclnn handle types (CANN's aclnn/acl_meta.h declares the same incomplete structs).
struct aclTensor;
struct aclScalar;
struct aclIntArray;
struct aclOpExecutor;

namespace npusim::replay {

using aclnnStatus = std::int32_t;

enum class AttrType { kInt, kFloat, kBool, kString, kInts };

struct AttrSpec {
  const char* name;
  AttrType type;
  const char* fallback;  // default as text ("[]" for an empty list); nullptr = required
};

/// What an entry's build function sees of one op being run.
class Call {
 public:
  virtual ~Call() = default;
  /// The op's i-th input/output as an aclTensor; nullptr for an absent optional one.
  virtual aclTensor* in(std::size_t i) = 0;
  virtual aclTensor* out(std::size_t i) = 0;
  /// The i-th input with its last two dimensions swapped (a strided view: transpose flags).
  virtual aclTensor* in_transposed(std::size_t i, bool transposed) = 0;
  virtual const std::vector<std::int64_t>& in_shape(std::size_t i) const = 0;
  virtual const std::vector<std::int64_t>& out_shape(std::size_t i) const = 0;
  virtual aclDataType out_dtype(std::size_t i) const = 0;

  virtual std::int64_t attr_int(const char* name) const = 0;
  virtual double attr_float(const char* name) const = 0;
  virtual bool attr_bool(const char* name) const = 0;
  virtual const std::string& attr_string(const char* name) = 0;  // stays valid during the call
  virtual std::vector<std::int64_t> attr_ints(const char* name) const = 0;

  /// Host-side argument objects, destroyed after the call (nullptr for an empty list when
  /// `null_if_empty`).
  virtual aclIntArray* int_array(const std::vector<std::int64_t>& values,
                                 bool null_if_empty = false) = 0;
  virtual aclScalar* scalar(double value) = 0;  // FLOAT scalar

  /// Phase 1 with these arguments (the documented prototype minus workspaceSize/executor),
  /// then workspace allocation and phase 2 on the op's stream.
  template <class... Args>
  aclnnStatus run(Args... args) {
    using Phase1 = aclnnStatus (*)(Args..., std::uint64_t*, aclOpExecutor**);
    std::uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus st = reinterpret_cast<Phase1>(phase1())(args..., &workspace, &executor);
    return phase2(st, workspace, executor);
  }

 protected:
  virtual void* phase1() = 0;
  virtual aclnnStatus phase2(aclnnStatus phase1_status, std::uint64_t workspace,
                             aclOpExecutor* executor) = 0;
};

struct OpEntry {
  const char* type;   // trace op type
  const char* aclnn;  // operator name: aclnn<X>GetWorkspaceSize + aclnn<X>
  int min_inputs, max_inputs;
  int min_outputs, max_outputs;
  std::vector<AttrSpec> attrs;
  aclnnStatus (*build)(Call& call);
  const char* signature;    // documented phase-1 prototype (reference)
  const char* operands;     // trace inputs -> outputs, for the docs
  bool nchw = false;        // 4-D tensors are created with ACL_FORMAT_NCHW
  bool int_arrays = false;  // needs aclCreateIntArray / aclDestroyIntArray
  bool scalars = false;     // needs aclCreateScalar / aclDestroyScalar
};

const std::vector<OpEntry>& op_table();
/// The entry for a trace op type (case-sensitive; "Transpose" and "Permute" are both entries).
const OpEntry* find_op(const std::string& type);
/// Why `entry` cannot run with the functions `lookup` finds by name ("" if it can):
/// "aclnnXxx is not in this npusim build", or the aclCreateTensor / aclCreateIntArray /
/// aclCreateScalar it needs.
std::string missing_symbol(const OpEntry& entry,
                           const std::function<void*(const std::string&)>& lookup);

/// msprof OP Type → trace op type ("MatMulV2" → "Matmul"); "" if none.
std::string op_type_from_msprof(const std::string& msprof_type);

}  // namespace npusim::replay

#endif  // NPUSIM_TOOLS_REPLAY_OP_TABLE_H_
