/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnLayerNorm: out = (input - mean) / sqrt(var + eps) * weight + bias over the trailing
 * dimensions normalizedShape (biased variance, fp32 inside). input / out: FLOAT, FLOAT16 or
 * BFLOAT16, same type and shape. weightOptional / biasOptional (NULL = 1 / 0): normalizedShape,
 * FLOAT or input's type. meanOutOptional / rstdOutOptional (NULL = not written): input's leading
 * dimensions followed by 1s, FLOAT or input's type; rstd = 1 / sqrt(var + eps). Contiguous
 * tensors only. Rows longer than UB are processed in column chunks (three passes).
 * Accuracy vs a double reference: FLOAT ~1e-5, FLOAT16 ~1e-3, BFLOAT16 ~1e-2 (relative to the
 * output's scale).
 * aclnnLayerNormWithImplMode: the same with implMode 0 (high precision), 1 (high performance) or
 * 2 (keep FLOAT16); npusim computes every mode in fp32 (mode 0's results); any other value is
 * ACLNN_ERR_PARAM_INVALID. */
#ifndef NPUSIM_ACLNNOP_ACLNN_LAYER_NORM_H_
#define NPUSIM_ACLNNOP_ACLNN_LAYER_NORM_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNorm(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, int32_t implMode, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormWithImplMode(void* workspace, uint64_t workspaceSize,
                                                           aclOpExecutor* executor,
                                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_LAYER_NORM_H_ */
