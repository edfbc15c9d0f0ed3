/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnMaxPool: ONNX-style 2-D max pooling of 3-D (C, H, W) or 4-D (N, C, H, W) self:
 * kernelShape (1 or 2 values), strides (0: 1, 1 or 2 values), autoPad 0 (NOTSET) only, pads
 * (none, one value, (H, W) or (top, left, bottom, right); per axis at most the kernel),
 * dilations all 1, ceilMode non-zero for ceiling output sizes. FLOAT or FLOAT16, exact.
 * Two-phase call: GetWorkspaceSize checks and plans (single-use executor), then aclnnMaxPool
 * launches it on a stream. */
#ifndef NPUSIM_ACLNNOP_ACLNN_MAX_POOL_H_
#define NPUSIM_ACLNNOP_ACLNN_MAX_POOL_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPoolGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* kernelShape, const aclIntArray* strides,
    const int64_t autoPad, const aclIntArray* pads, const aclIntArray* dilations,
    const int64_t ceilMode, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_MAX_POOL_H_ */
