/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnAmax: out = maximum of self over dim (see aclnn_reduce_sum.h for dimensions and
 * keepDim; an empty dim takes the maximum of every element). self / out: FLOAT, FLOAT16 or
 * BFLOAT16, the same type (exact: the maximum is one of the inputs). Contiguous, non-empty
 * tensors only. */
#ifndef NPUSIM_ACLNNOP_ACLNN_AMAX_H_
#define NPUSIM_ACLNNOP_ACLNN_AMAX_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self,
                                                          const aclIntArray* dim, bool keepDim,
                                                          aclTensor* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAmax(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_AMAX_H_ */
