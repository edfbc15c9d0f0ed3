/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnSoftmax: out = exp(self - max) / sum(exp(self - max)) along dimension dim (numerically
 * stable; fp32 inside for FLOAT16 / BFLOAT16). self / out: FLOAT, FLOAT16 or BFLOAT16, same type
 * and shape, contiguous, not empty. dim in [-self.dim(), self.dim()). npusim computes over the
 * last non-trivial axis only: every dimension after dim must have size 1, otherwise
 * ACLNN_ERR_PARAM_INVALID. Rows longer than UB are processed in column chunks (three passes).
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
