// SPDX-License-Identifier: Apache-2.0
// aclnnIndexPutImpl (aclnnop/aclnn_index_put_impl.h), host side: checks and the plan of one AI CPU
// task (CANN runs IndexPut on the AI CPU); the kernel is runtime/aclnn/aicpu_kernels.cpp.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_index_put_impl.h"
#include "runtime/aclnn/aicpu_kernels.h"
#include "runtime/aclnn/op_api.h"

namespace nn = npusim::aclnn;

namespace {

/// The index tensors: INT32/INT64 (no BOOL masks), all of indices[0]'s shape, contiguous.
void check_indices(nn::Plan& p, const std::vector<const aclTensor*>& idx,
                   nn::cpu::IndexPutParams& params) {
  for (std::size_t j = 0; j < idx.size(); ++j) {
    const aclTensor& t = *idx[j];
    const std::string what = "indices[" + std::to_string(j) + "]";
    p.require(t.dtype != ACL_BOOL,
              what + ": BOOL mask indices are not supported (use INT32/INT64 indices)");
    p.require_dtype(t, {ACL_INT32, ACL_INT64}, what.c_str());
    p.require(t.dims == idx[0]->dims, what + " must have the shape of indices[0]");
    p.require_contiguous(t, what.c_str());
    params.index64.push_back(t.dtype == ACL_INT64);
  }
}

/// How values broadcasts: 0 one per written element, 1 one row shared by every index, 2 one.
int values_mode(nn::Plan& p, const aclTensor& v, const nn::cpu::IndexPutParams& params) {
  if (v.numel() == params.count * params.inner) return 0;
  if (v.numel() == params.inner) return 1;
  if (v.numel() == 1) return 2;
  p.require(false, "values holds " + std::to_string(v.numel()) + " elements; expected indices' " +
                       std::to_string(params.count) + " x " + std::to_string(params.inner) +
                       ", " + std::to_string(params.inner) + " or 1");
  return 0;
}

void check_operands(nn::Plan& p, const std::vector<const aclTensor*>& idx, const aclTensor& v,
                    const aclTensor& self) {
  p.require_dtype(self,
                  {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16,
                   ACL_INT32, ACL_INT64, ACL_BOOL},
                  "selfRef");
  p.require(v.dtype == self.dtype, "values must have selfRef's data type");
  p.require(!idx.empty() && idx.size() <= self.dims.size(),
            "indices must hold 1 to rank(selfRef) = " + std::to_string(self.dims.size()) +
                " tensors");
}

void plan_index_put(nn::Plan& p, aclTensor* selfRef, const aclTensorList* indices,
                    const aclTensor* values, bool accumulate) {
  const std::vector<const aclTensor*> idx = p.input_list(indices, "indices");
  const aclTensor& v = p.input(values, "values");
  const aclTensor& self = p.output(selfRef, "selfRef");
  check_operands(p, idx, v, self);
  nn::cpu::IndexPutParams params;
  params.dtype = self.dtype;
  params.dims = self.dims;
  params.accumulate = accumulate;
  check_indices(p, idx, params);
  params.count = idx[0]->numel();
  for (std::size_t d = idx.size(); d < self.dims.size(); ++d) params.inner *= self.dims[d];
  params.values_mode = values_mode(p, v, params);
  p.require_contiguous(v, "values");
  p.require_contiguous(self, "selfRef");
  if (params.count == 0 || params.inner == 0) return;  // nothing to write
  p.launch("IndexPut", reinterpret_cast<const void*>(&nn::cpu::index_put), 1, nn::Core::kAiCpu,
           [params](const nn::Addrs& a) { nn::cpu::index_put(params, a); });
}

}  // namespace

aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor* selfRef, const aclTensorList* indices,
                                              const aclTensor* values, const bool accumulate,
                                              const bool unsafe, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  (void)unsafe;  // an index out of range always ends the task with the AI CPU exception
  return nn::prepare("aclnnIndexPutImplGetWorkspaceSize", "IndexPut", workspaceSize, executor,
                     [&](nn::Plan& p) { plan_index_put(p, selfRef, indices, values, accumulate); });
}
