/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnIndexPutImpl: selfRef[indices] = values (accumulate false) or selfRef[indices] += values
 * (accumulate true), PyTorch's index_put_ with advanced indexing: k INT32/INT64 index tensors
 * (1 <= k <= selfRef's rank, all of one shape B) pick selfRef[i0, ..., i(k-1), :...]; values holds
 * B + selfRef.shape[k:] elements (or selfRef.shape[k:], or one, broadcast). Negative indices count
 * from the end; an index outside the dimension ends the task with the AI CPU exception. CANN runs
 * this operator on the AI CPU (an AI CPU task: op_summary Task Type AI_CPU).
 * Two-phase call: GetWorkspaceSize checks and plans (single-use executor), then aclnnIndexPutImpl
 * launches it on a stream. */
#ifndef NPUSIM_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H_
#define NPUSIM_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H_

#include <stdbool.h>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor* selfRef,
                                                                  const aclTensorList* indices,
                                                                  const aclTensor* values,
                                                                  const bool accumulate,
                                                                  const bool unsafe,
                                                                  uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIndexPutImpl(void* workspace, uint64_t workspaceSize,
                                                  aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_INDEX_PUT_IMPL_H_ */
