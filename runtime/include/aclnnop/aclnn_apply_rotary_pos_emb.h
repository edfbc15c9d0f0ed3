/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnApplyRotaryPosEmb: rotary position embedding of query and key in one call, in place:
 * x = x * cos + cat(-x[..., D/2:], x[..., :D/2]) * sin for x = queryRef and keyRef (rotate_half).
 * layout 1 (BSND): queryRef (B, S, Nq, D), keyRef (B, S, Nk, D), cos and sin (B, S, 1, D);
 * layout 4 (TND): (T, Nq, D), (T, Nk, D), (T, 1, D). FLOAT, FLOAT16, BF16 (computed in float;
 * tolerances as aclnnRotaryPositionEmbedding). Other layouts, shapes, types:
 * ACLNN_ERR_PARAM_INVALID.
 * Two-phase call: GetWorkspaceSize checks and plans (single-use executor), then
 * aclnnApplyRotaryPosEmb launches it on a stream. */
#ifndef NPUSIM_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_H_
#define NPUSIM_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(
    aclTensor* queryRef, aclTensor* keyRef, const aclTensor* cos, const aclTensor* sin,
    int64_t layout, uint64_t* workspaceSize, aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyRotaryPosEmb(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_H_ */
