/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnDiv: out = self / other (true division, tensors, NumPy broadcasting); aclnnDivs: out =
 * self / other with a host scalar other. Integer operands compute in FLOAT. Correctly rounded in
 * the compute type.
 * The Inplace forms write the result into selfRef (other must broadcast to its shape).
 * Two-phase call: GetWorkspaceSize checks the arguments and builds a single-use executor, the
 * second call launches it on a stream. Runs on the vector cores (runtime/aclnn/elementwise.cpp
 * documents types, promotion, broadcasting and accuracy). */
#ifndef NPUSIM_ACLNNOP_ACLNN_DIV_H_
#define NPUSIM_ACLNNOP_ACLNN_DIV_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self,
                                                         const aclTensor* other, aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDiv(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self,
                                                          const aclScalar* other, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDivs(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef,
                                                                const aclTensor* other,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDiv(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef,
                                                                 const aclScalar* other,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceDivs(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_DIV_H_ */
