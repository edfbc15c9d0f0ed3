/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnAddRmsNorm: x = x1 + x2 (written to xOut), then yOut = x / sqrt(mean(x^2) + epsilon) *
 * gamma over gamma's dimensions (x1's last gamma.dim() dimensions) and rstdOut = 1 /
 * sqrt(mean(x^2) + epsilon) per row. x1 / x2 / yOut / xOut: FLOAT, FLOAT16 or BFLOAT16, one type
 * and shape; gamma: FLOAT or x1's type; rstdOut: FLOAT, x1's leading dimensions followed by 1s.
 * The sum is kept in fp32 for the normalisation (xOut is it rounded to x1's type). Contiguous,
 * non-empty tensors only; rows longer than UB are processed in column chunks.
 * Accuracy vs a double reference: FLOAT ~1e-5, FLOAT16 ~1e-3, BFLOAT16 ~1e-2. */
#ifndef NPUSIM_ACLNNOP_ACLNN_ADD_RMS_NORM_H_
#define NPUSIM_ACLNNOP_ACLNN_ADD_RMS_NORM_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, double epsilon,
    const aclTensor* yOut, const aclTensor* rstdOut, const aclTensor* xOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNorm(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_ADD_RMS_NORM_H_ */
