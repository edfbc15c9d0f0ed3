/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnRmsNorm: yOut = x / sqrt(mean(x^2) + epsilon) * gamma over gamma's dimensions (x's last
 * gamma.dim() dimensions); rstdOut = 1 / sqrt(mean(x^2) + epsilon) per row. x / yOut: FLOAT,
 * FLOAT16 or BFLOAT16, same type and shape; gamma: FLOAT or x's type; rstdOut: FLOAT, x's leading
 * dimensions followed by 1s (e.g. x [4,1,4096], gamma [4096] -> rstd [4,1,1]). Contiguous
 * tensors only; fp32 inside; rows longer than UB are processed in column chunks.
 * Accuracy vs a double reference: FLOAT ~1e-5, FLOAT16 ~1e-3, BFLOAT16 ~1e-2. */
#ifndef NPUSIM_ACLNNOP_ACLNN_RMS_NORM_H_
#define NPUSIM_ACLNNOP_ACLNN_RMS_NORM_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNormGetWorkspaceSize(
    const aclTensor* x, const aclTensor* gamma, double epsilon, const aclTensor* yOut,
    const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNorm(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_RMS_NORM_H_ */
