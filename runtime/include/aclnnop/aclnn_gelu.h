/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnGelu: out = 0.5 self (1 + tanh(sqrt(2/pi) (self + 0.044715 self^3))), the tanh
 * approximation CANN documents for Gelu. FLOAT, FLOAT16, BF16 (computed in FLOAT);
 * out of self's type and shape. Accuracy: FLOAT 1e-5 relative + 1e-6 absolute, FLOAT16 2e-3 +
 * 1e-3 absolute, BF16 1e-2 + 1e-2 absolute.
 * Two-phase call: GetWorkspaceSize checks the arguments and builds a single-use executor, the
 * second call launches it on a stream. Runs on the vector cores (runtime/aclnn/elementwise.cpp
 * documents types, promotion, broadcasting and accuracy). */
#ifndef NPUSIM_ACLNNOP_ACLNN_GELU_H_
#define NPUSIM_ACLNNOP_ACLNN_GELU_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGelu(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_GELU_H_ */
