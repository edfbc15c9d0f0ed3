/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnGeluV2: y = x * Phi(x) with approximate 0 ("none": 0.5 x (1 + erf(x / sqrt(2))), erf
 * within 1.5e-7) or 1 ("tanh": as aclnnGelu); other values are ACLNN_ERR_PARAM_INVALID.
 * FLOAT, FLOAT16, BF16 (computed in FLOAT); y of x's type and shape. Accuracy: FLOAT 1e-5
 * relative + 1e-6 absolute, FLOAT16 2e-3 + 1e-3 absolute, BF16 1e-2 + 1e-2 absolute.
 * Two-phase call: GetWorkspaceSize checks the arguments and builds a single-use executor, the
 * second call launches it on a stream. Runs on the vector cores (runtime/aclnn/elementwise.cpp
 * documents types, promotion, broadcasting and accuracy). */
#ifndef NPUSIM_ACLNNOP_ACLNN_GELU_V2_H_
#define NPUSIM_ACLNNOP_ACLNN_GELU_V2_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate,
                                                            aclTensor* y, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_GELU_V2_H_ */
