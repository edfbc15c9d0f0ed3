/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnSub: out = self - alpha * other (tensors, NumPy broadcasting); aclnnSubs: the same with
 * a host scalar other. Types and accuracy as aclnnAdd.
 * The Inplace forms write the result into selfRef (other must broadcast to its shape).
 * Two-phase call: GetWorkspaceSize checks the arguments and builds a single-use executor, the
 * second call launches it on a stream. Runs on the vector cores (runtime/aclnn/elementwise.cpp
 * documents types, promotion, broadcasting and accuracy). */
#ifndef NPUSIM_ACLNNOP_ACLNN_SUB_H_
#define NPUSIM_ACLNNOP_ACLNN_SUB_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self,
                                                         const aclTensor* other,
                                                         const aclScalar* alpha, aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSub(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self,
                                                          const aclScalar* other,
                                                          const aclScalar* alpha, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSubs(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSubGetWorkspaceSize(const aclTensor* selfRef,
                                                                const aclTensor* other,
                                                                const aclScalar* alpha,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSub(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSubsGetWorkspaceSize(const aclTensor* selfRef,
                                                                 const aclScalar* other,
                                                                 const aclScalar* alpha,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSubs(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_SUB_H_ */
