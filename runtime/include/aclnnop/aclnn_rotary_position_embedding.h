/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnRotaryPositionEmbedding: out = x * cos + rotate(x) * sin over the last dimension D (even,
 * below 896). mode 0 (half): rotate(x) = cat(-x[D/2:], x[:D/2]); mode 1 (interleave):
 * rotate(x)[2i] = -x[2i+1], rotate(x)[2i+1] = x[2i]. x and out 3-D or 4-D; cos and sin of x's
 * rank, each dimension 1 (broadcast) or x's, the last equal to D. FLOAT, FLOAT16, BF16 (computed
 * in float). Shape mismatches and an unsupported mode are ACLNN_ERR_INNER_TILING_ERROR.
 * Two-phase call: GetWorkspaceSize checks and plans (single-use executor), then
 * aclnnRotaryPositionEmbedding launches it on a stream. */
#ifndef NPUSIM_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_
#define NPUSIM_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(
    const aclTensor* x, const aclTensor* cos, const aclTensor* sin, int64_t mode, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbedding(void* workspace,
                                                             uint64_t workspaceSize,
                                                             aclOpExecutor* executor,
                                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_ */
