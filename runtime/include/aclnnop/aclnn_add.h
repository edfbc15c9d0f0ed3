/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnAdd: out = self + alpha * other, element-wise with broadcasting (two-phase aclnn call:
 * GetWorkspaceSize builds a single-use executor, aclnnAdd launches it on a stream). */
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

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_ADD_H_ */
