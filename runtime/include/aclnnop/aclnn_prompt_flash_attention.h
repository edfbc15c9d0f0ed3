/* SPDX-License-Identifier: Apache-2.0 */
/* aclnnPromptFlashAttention: attention of a whole prompt (LLM prefill, inference form),
 *   attentionOut = softmax(mask(scaleValue * query * key^T)) * value.
 * Two-phase aclnn call (GetWorkspaceSize, then aclnnPromptFlashAttention on a stream).
 *
 * npusim (runtime/aclnn/attention.cpp, the fused kernel of aclnnFlashAttentionScore): FLOAT16 /
 * BFLOAT16 in layouts "BSH", "BSND", "BNSD", "BNSD_BSND" (inputs BNSD, attentionOut BSND);
 * numKeyValueHeads 0 (= numHeads) or dividing numHeads; attenMask BOOL/INT8/UINT8 (1 = masked) of
 * shape [Sq, Skv], [B|1, Sq, Skv] or [B|1, 1|N, Sq, Skv], combined with the preTokens/nextTokens
 * band (without attenMask the band is ignored). pseShift and actualSeqLengths shorter than Sq are
 * refused (ACLNN_ERR_PARAM_INVALID).
 * A row whose keys are all masked gets an unspecified mean of the values. */
#ifndef NPUSIM_ACLNNOP_ACLNN_PROMPT_FLASH_ATTENTION_H_
#define NPUSIM_ACLNNOP_ACLNN_PROMPT_FLASH_ATTENTION_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnPromptFlashAttentionGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* pseShift,
    const aclTensor* attenMask, const aclIntArray* actualSeqLengths, int64_t numHeads,
    double scaleValue, int64_t preTokens, int64_t nextTokens, char* inputLayout,
    int64_t numKeyValueHeads, const aclTensor* attentionOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnPromptFlashAttention(void* workspace, uint64_t workspaceSize,
                                                          aclOpExecutor* executor,
                                                          const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_ACLNNOP_ACLNN_PROMPT_FLASH_ATTENTION_H_ */
