/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnMul: out = self * other, element-wise with broadcasting. */
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

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_MUL_H_ */
