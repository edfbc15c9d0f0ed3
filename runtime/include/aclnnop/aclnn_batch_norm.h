/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnBatchNorm, inference mode: output = (input - runningMean[c]) / sqrt(runningVar[c] + eps)
 * * weight[c] + bias[c], c = index along dimension 1 (NC, NCL, NCHW, NCDHW, 2-8 dimensions).
 * weight / bias optional (NULL = 1 / 0); runningMean / runningVar required; all [C], FLOAT or
 * input's type. input / output: FLOAT, FLOAT16 or BFLOAT16, same type and shape, contiguous.
 * saveMean / saveInvstd (optional, FLOAT [C]) receive runningMean and 1 / sqrt(runningVar + eps).
 * training = true (batch statistics and the momentum update) is not supported:
 * ACLNN_ERR_PARAM_INVALID. Accuracy vs a double reference: FLOAT ~1e-5, FLOAT16 ~1e-3,
 * BFLOAT16 ~1e-2. */
#ifndef NPUSIM_ACLNNOP_ACLNN_BATCH_NORM_H_
#define NPUSIM_ACLNNOP_ACLNN_BATCH_NORM_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* bias, aclTensor* runningMean,
    aclTensor* runningVar, bool training, double momentum, double eps, aclTensor* output,
    aclTensor* saveMean, aclTensor* saveInvstd, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNorm(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_BATCH_NORM_H_ */
