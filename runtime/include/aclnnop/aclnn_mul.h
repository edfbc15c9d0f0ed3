/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnMul: out = self * other (tensors, NumPy broadcasting); aclnnMuls: out = self * other
 * with a host scalar other. Types and accuracy as aclnnAdd.
 * The Inplace forms write the result into selfRef (other must broadcast to its shape).
 * Two-phase call: GetWorkspaceSize checks the arguments and builds a single-use executor, the
 * second call launches it on a stream. Runs on the vector cores (runtime/aclnn/elementwise.cpp
 * documents types, promotion, broadcasting and accuracy). */
#ifndef NPUSIM_ACLNNOP_ACLNN_MUL_H_
#define NPUSIM_ACLNNOP_ACLNN_MUL_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self,
                                                         const aclTensor* other, aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMul(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self,
                                                          const aclScalar* other, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMuls(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef,
                                                                const aclTensor* other,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMul(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef,
                                                                 const aclScalar* other,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMuls(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_MUL_H_ */
