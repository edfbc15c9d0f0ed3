/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnSoftmax: out = exp(self - max) / sum(exp(self - max)) along dimension dim (numerically
 * stable; fp32 inside for FLOAT16 / BFLOAT16). self / out: FLOAT, FLOAT16 or BFLOAT16, same type
 * and shape, contiguous, not empty. dim in [-self.dim(), self.dim()). The last axis (or one
 * followed only by size-1 dimensions) is computed row-wise, rows longer than UB in column chunks
 * (three passes); any other axis column-wise over the strided view [outer, dim, inner] (running
 * max / sum vectors, three passes over the axis).
 * Accuracy vs a double reference: FLOAT ~1e-6 relative, FLOAT16 ~1e-3, BFLOAT16 ~1e-2. */
#ifndef NPUSIM_ACLNNOP_ACLNN_SOFTMAX_H_
#define NPUSIM_ACLNNOP_ACLNN_SOFTMAX_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                             aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmax(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_SOFTMAX_H_ */
