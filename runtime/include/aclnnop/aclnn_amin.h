/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnAmin: out = minimum of self over dim (see aclnn_reduce_sum.h for dimensions and
 * keepDim; an empty dim takes the minimum of every element). self / out: FLOAT, FLOAT16 or
 * BFLOAT16, the same type (exact: the minimum is one of the inputs). Contiguous, non-empty
 * tensors only. */
#ifndef NPUSIM_ACLNNOP_ACLNN_AMIN_H_
#define NPUSIM_ACLNNOP_ACLNN_AMIN_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self,
                                                          const aclIntArray* dim, bool keepDim,
                                                          aclTensor* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAmin(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_AMIN_H_ */
