/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnSigmoid: out = 1 / (1 + exp(-self)). FLOAT, FLOAT16, BF16 (computed in FLOAT);
 * out of self's type and shape. Accuracy: FLOAT 1e-5 relative + 1e-6 absolute, FLOAT16 2e-3 +
 * 1e-3 absolute, BF16 1e-2 + 1e-2 absolute.
 * aclnnInplaceSigmoid writes the result into selfRef.
 * Two-phase call: GetWorkspaceSize checks the arguments and builds a single-use executor, the
 * second call launches it on a stream. Runs on the vector cores (runtime/aclnn/elementwise.cpp
 * documents types, promotion, broadcasting and accuracy). */
#ifndef NPUSIM_ACLNNOP_ACLNN_SIGMOID_H_
#define NPUSIM_ACLNNOP_ACLNN_SIGMOID_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSigmoid(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSigmoidGetWorkspaceSize(aclTensor* selfRef,
                                                                    uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSigmoid(void* workspace, uint64_t workspaceSize,
                                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_SIGMOID_H_ */
