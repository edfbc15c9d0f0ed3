/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnMaxPool2dWithIndices: 2-D max pooling of 3-D (C, H, W) or 4-D (N, C, H, W) self over H and
 * W, with kernelSize / stride (empty: the kernel) / padding / dilation of 1 or 2 values and
 * PyTorch's ceilMode output size. out holds the maxima (FLOAT, FLOAT16 or BF16, exact), indices
 * (INT32) the flat position h * W + w of each maximum in its input plane (the first one on ties).
 * Padding is at most half the kernel; H * W below 2^24.
 * Two-phase call: GetWorkspaceSize checks and plans (single-use executor), then
 * aclnnMaxPool2dWithIndices launches it on a stream. */
#ifndef NPUSIM_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H_
#define NPUSIM_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride,
    const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode, aclTensor* out,
    aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithIndices(void* workspace, uint64_t workspaceSize,
                                                          aclOpExecutor* executor,
                                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H_ */
