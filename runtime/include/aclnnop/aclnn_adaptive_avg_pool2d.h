/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnAdaptiveAvgPool2d: average pooling of 3-D or 4-D self to outputSize (1 or 2 values) over H
 * and W; output position o averages input [floor(o * In / Out), ceil((o + 1) * In / Out)).
 * FLOAT, FLOAT16, BF16, summed in float.
 * Two-phase call: GetWorkspaceSize checks and plans (single-use executor), then
 * aclnnAdaptiveAvgPool2d launches it on a stream. */
#ifndef NPUSIM_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H_
#define NPUSIM_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* outputSize, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAdaptiveAvgPool2d(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H_ */
