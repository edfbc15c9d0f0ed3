/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnAvgPool2d: 2-D average pooling of 3-D or 4-D self over H and W (kernelSize / strides /
 * paddings of 1 or 2 values, PyTorch's ceilMode output size). The divisor is divisorOverride
 * when non-zero, else the window size clipped to the padded input (countIncludePad) or to the
 * input. FLOAT, FLOAT16, BF16, summed in float: float results within ~1e-5 relative, 16-bit
 * types one final rounding. cubeMathType (0..3) does not change a vector computation.
 * Two-phase call: GetWorkspaceSize checks and plans (single-use executor), then aclnnAvgPool2d
 * launches it on a stream. */
#ifndef NPUSIM_ACLNNOP_ACLNN_AVGPOOL2D_H_
#define NPUSIM_ACLNNOP_ACLNN_AVGPOOL2D_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAvgPool2dGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* strides,
    const aclIntArray* paddings, bool ceilMode, bool countIncludePad, int64_t divisorOverride,
    int8_t cubeMathType, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAvgPool2d(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_AVGPOOL2D_H_ */
