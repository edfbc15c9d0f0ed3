/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnPermute: out = self with its dimensions reordered (out dimension k is self's
 * dimension dims[k]; negative entries count from the end). Rank <= 8, any element type of 1, 2,
 * 4 or 8 bytes. self may be a strided view with a dimension of stride 1 (rows not overlapping);
 * out is contiguous. Exact (data movement only).
 * Two-phase call: GetWorkspaceSize checks and plans (single-use executor), then aclnnPermute
 * launches it on a stream. */
#ifndef NPUSIM_ACLNNOP_ACLNN_PERMUTE_H_
#define NPUSIM_ACLNNOP_ACLNN_PERMUTE_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self,
                                                             const aclIntArray* dims,
                                                             aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPermute(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_PERMUTE_H_ */
