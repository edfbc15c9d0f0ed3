/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnRelu: out = max(self, 0). FLOAT, FLOAT16, BF16 (computed in FLOAT);
 * out of self's type and shape. Accuracy: FLOAT 1e-5 relative + 1e-6 absolute, FLOAT16 2e-3 +
 * 1e-3 absolute, BF16 1e-2 + 1e-2 absolute.
 * aclnnInplaceRelu writes the result into selfRef.
 * Two-phase call: GetWorkspaceSize checks the arguments and builds a single-use executor, the
 * second call launches it on a stream. Runs on the vector cores (runtime/aclnn/elementwise.cpp
 * documents types, promotion, broadcasting and accuracy). */
#ifndef NPUSIM_ACLNNOP_ACLNN_RELU_H_
#define NPUSIM_ACLNNOP_ACLNN_RELU_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRelu(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceReluGetWorkspaceSize(aclTensor* selfRef,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRelu(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_RELU_H_ */
