/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnIncreFlashAttention: attention of one new token per batch against its KV cache (LLM
 * decode, inference form): query has sequence length 1; key/value hold up to Skv cached tokens
 * per batch, of which actualSeqLengths[b] (all Skv when NULL) take part.
 * Two-phase aclnn call (GetWorkspaceSize, then aclnnIncreFlashAttention on a stream).
 *
 * npusim (runtime/aclnn/attention.cpp, the fused kernel of aclnnFlashAttentionScore): FLOAT16 /
 * BFLOAT16 in layouts "BSH", "BSND", "BNSD"; key and value are lists of ONE tensor holding every
 * batch; numKeyValueHeads 0 (= numHeads) or dividing numHeads; attenMask BOOL/INT8/UINT8
 * (1 = masked) of shape [B, Skv], [B, 1, Skv] or [B, 1, 1, Skv]. pseShift is refused
 * (ACLNN_ERR_PARAM_INVALID). */
#ifndef NPUSIM_ACLNNOP_ACLNN_INCRE_FLASH_ATTENTION_H_
#define NPUSIM_ACLNNOP_ACLNN_INCRE_FLASH_ATTENTION_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnIncreFlashAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pseShift, const aclTensor* attenMask, const aclIntArray* actualSeqLengths,
    int64_t numHeads, double scaleValue, char* inputLayout, int64_t numKeyValueHeads,
    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnIncreFlashAttention(void* workspace, uint64_t workspaceSize,
                                                         aclOpExecutor* executor,
                                                         const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_INCRE_FLASH_ATTENTION_H_ */
