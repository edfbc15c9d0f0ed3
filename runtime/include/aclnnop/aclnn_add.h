/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnAdd: out = self + alpha * other (tensors, NumPy broadcasting); aclnnAdds: out = self +
 * alpha * other with a host scalar other. FLOAT, FLOAT16, BF16, INT32, INT8 with CANN's type
 * promotion; out of the broadcast shape. Accuracy: correctly rounded in the compute type.
 * The Inplace forms write the result into selfRef (other must broadcast to its shape).
 * Two-phase call: GetWorkspaceSize checks the arguments and builds a single-use executor, the
 * second call launches it on a stream. Runs on the vector cores (runtime/aclnn/elementwise.cpp
 * documents types, promotion, broadcasting and accuracy). */
#ifndef NPUSIM_ACLNNOP_ACLNN_ADD_H_
#define NPUSIM_ACLNNOP_ACLNN_ADD_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self,
                                                         const aclTensor* other,
                                                         const aclScalar* alpha, aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAdd(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self,
                                                          const aclScalar* other,
                                                          const aclScalar* alpha, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAdds(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef,
                                                                const aclTensor* other,
                                                                const aclScalar* alpha,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAdd(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef,
                                                                 const aclScalar* other,
                                                                 const aclScalar* alpha,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAdds(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_ADD_H_ */
